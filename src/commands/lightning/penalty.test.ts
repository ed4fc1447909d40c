/**
 * A channel partner that publishes a revoked state while the wallet is open loses the whole channel: the
 * world's LSP cheats on demand, the wallet's node claims everything with LDK's justice transaction, home and
 * the activity say so in plain words, and the balance counts what came back once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import { ok, openNewWorldWallet, worldLspConfig } from "../host/host.testing";
import type { AllViews } from "../../projections/live";
import { stopAfterAll } from "../../../harness/stop-after-all";

let h: Harness;
const db = new WalletDb("penalty-host");
let host: WalletHost;
let views: Partial<AllViews> = {};

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${h.esploraUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

/** Receives `sats` over lightning from the world (a just-in-time channel the first time). */
const receive = async (sats: bigint) => {
  const shown = ok<{ invoice: string; paymentHash: string }>(
    await host.run({ _tag: "CreateReceive", amountSats: sats, labels: [], flavor: "lightning" }),
  );
  expect(await post("/ln/pay", { bolt11: shown.invoice })).toMatchObject({ status: "succeeded" });
  await until(
    "received",
    async () =>
      ok<{ paid: string | null }>(
        await host.run({ _tag: "CheckReceived", address: null, paymentHash: shown.paymentHash }),
      ).paid === "lightning_paid",
    60_000,
  );
};

const mine = async (n: number) => {
  await h.mine(n);
  await h.lightning.node.sync();
  ok(await host.run({ _tag: "SyncOnchain" }));
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  host = await openNewWorldWallet(db, worldLspConfig(h), (v) => {
    views = { ...views, ...v };
  });
  views = host.views();
}, 180_000);

stopAfterAll(() => [host, h]);

describe("a partner publishing an old state while the wallet is open", () => {
  it("loses the whole channel to the wallet, said in plain words and counted once", async () => {
    await receive(50_000n);
    await receive(10_000n);
    await until("balance", () => views.balance?.lightning === 58_000n, 60_000);
    const channel = views.channels?.[0];
    if (!channel) throw new Error("no channel");
    const size = channel.size;

    // The LSP publishes the channel's first state, in which it held everything.
    const cheat = (await post("/ln/cheat", { channel_id: channel.channel_id })) as { txid: string };
    await h.waitForTx(cheat.txid);
    await mine(1);
    await until(
      "the old state seen",
      async () => {
        await mine(0);
        return (views.penalties?.length ?? 0) > 0;
      },
      60_000,
      500,
    );
    // On its way: the whole channel is counted once, as closing, until it is back on-chain.
    await until("closed", () => views.balance?.lightning === 0n, 60_000);
    expect(views.balance?.force_close).toBeGreaterThan(size - 5_000n);
    expect(views.balance?.force_close).toBeLessThanOrEqual(size);

    // The justice transaction confirms, is buried, and is swept to the on-chain wallet.
    await until(
      "swept and confirmed",
      async () => {
        await mine(1);
        return (views.penalties?.[0]?.swept ?? false) && (views.balance?.confirmed ?? 0n) > 0n;
      },
      240_000,
      250,
    );
    const penalty = views.penalties![0]!;
    const balance = views.balance!;
    // The whole channel less the commitment's, the justice transaction's and the sweep's fees.
    expect(penalty.amount).toBeGreaterThan(size - 5_000n);
    expect(balance.confirmed).toBe(penalty.amount);
    expect(balance.force_close).toBe(0n);
    expect(balance.lightning).toBe(0n);
    expect(balance.total).toBe(penalty.amount);
    // The activity tells it as one row of its own, with what came back.
    const rows = (views.activity?.items ?? []).filter((i) => i.kind === "ChannelPenalty");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.amount_sats).toBe(penalty.amount);
    const details = ok<{ penalty: boolean; swept: boolean; balance_sats: bigint }>(
      await host.run({ _tag: "GetChannelEvent", id: rows[0]!.id }),
    );
    expect(details).toMatchObject({ penalty: true, swept: true, balance_sats: penalty.amount });
  }, 600_000);
});

/**
 * A channel partner that publishes a revoked state while the wallet is open loses the whole channel: the
 * world's LSP cheats on demand, the wallet's node claims everything with LDK's justice transaction, home and
 * the activity say so in plain words, and the balance counts what came back once.
 */
import { describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { until } from "../../../harness/until";
import type { Harness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import {
  mineAndSyncHost,
  ok,
  receiveFromWorld,
  worldWalletForTests,
  worldLspConfig,
} from "../host/host.testing";
import type { AllViews } from "../../projections/live";

let h: Harness;
let host: WalletHost;
let views: Partial<AllViews> = {};
worldWalletForTests(new WalletDb("penalty-host"), worldLspConfig, (w) => {
  ({ h, host, views } = w);
});

const mine = (n: number) => mineAndSyncHost(h, host, n);

describe("a partner publishing an old state while the wallet is open", () => {
  it("loses the whole channel to the wallet, said in plain words and counted once", async () => {
    await receiveFromWorld(h, host, 50_000n);
    await receiveFromWorld(h, host, 10_000n);
    await until("balance", () => views.balance?.lightning === 58_000n, 60_000);
    const channel = views.channels?.[0];
    if (!channel) throw new Error("no channel");
    const size = channel.size;

    // The LSP publishes the channel's first state, in which it held everything.
    const cheat = (await postJson(h.esploraUrl, "/ln/cheat", { channel_id: channel.channel_id })) as {
      txid: string;
    };
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

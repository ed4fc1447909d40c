/**
 * Safe while the tab is closed: (1) the wallet stopped, its LSP publishes an old state, the watchtower the
 * wallet gave appointments to takes the channel, and the wallet, started again, shows it once and counts it
 * once; (2) the LSP closes honestly on its own while the wallet is stopped: the wallet sweeps its side when
 * it starts again, counted once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { DEFAULT_SERVERS, type WalletConfig } from "../../config";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import { ok, openNewWorldWallet, openWorldHost, worldLspConfig } from "../host/host.testing";
import type { AllViews } from "../../projections/live";
import { stopAfterAll } from "../../../harness/stop-after-all";

let h: Harness;
let host: WalletHost | null = null;
let views: Partial<AllViews> = {};
const onViews = (v: Partial<AllViews>) => {
  views = { ...views, ...v };
};

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${h.esploraUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

const receive = async (wallet: WalletHost, sats: bigint) => {
  const shown = ok<{ invoice: string; paymentHash: string }>(
    await wallet.run({ _tag: "CreateReceive", amountSats: sats, labels: [], flavor: "lightning" }),
  );
  expect(await post("/ln/pay", { bolt11: shown.invoice })).toMatchObject({ status: "succeeded" });
  await until(
    "received",
    async () =>
      ok<{ paid: string | null }>(
        await wallet.run({ _tag: "CheckReceived", address: null, paymentHash: shown.paymentHash }),
      ).paid === "lightning_paid",
    60_000,
  );
};

/** Mines a block at a time until `done`, the wallet syncing after each. */
const mineUntil = async (what: string, done: () => boolean) => {
  await until(
    what,
    async () => {
      await h.mine(1);
      await h.lightning.node.sync();
      if (host) ok(await host.run({ _tag: "SyncOnchain" }));
      return done();
    },
    240_000,
    300,
  );
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
}, 180_000);
stopAfterAll(() => [host, h]);

describe("a channel while the tab is closed", () => {
  it("a partner that cheats loses the channel to the watchtower; the wallet shows it once when it opens", async () => {
    const db = new WalletDb("closed-tab-tower");
    const config: WalletConfig = {
      ...worldLspConfig(h),
      servers: {
        ...DEFAULT_SERVERS.regtest,
        esplora: h.esploraUrl,
        proxy: h.proxyUrl,
        lsp: h.esploraUrl,
        rgs: "",
        storage: "",
        tower: h.towerUrl,
      },
    };
    host = await openNewWorldWallet(db, config, onViews);
    await receive(host, 50_000n);
    await receive(host, 10_000n);
    await until("balance", () => views.balance?.lightning === 58_000n, 60_000);
    const channel = views.channels![0]!;
    // The revoked states reached the tower (it opens its database on the first one: slow on a busy machine).
    await until("appointments", async () => (await h.tower.count()) >= 2, 120_000, 500);

    await host.stop();
    host = null;
    const cheat = (await post("/ln/cheat", { channel_id: channel.channel_id })) as { txid: string };
    await h.waitForTx(cheat.txid);
    await h.mine(1);
    let justice = "";
    await until(
      "the tower's justice transaction",
      async () => {
        const rows = await (await h.storage.db()).query<{ justice_txid: string | null }>(
          "SELECT justice_txid FROM tower_breaches",
        );
        justice = rows.rows[0]?.justice_txid ?? "";
        return justice !== "";
      },
      60_000,
      250,
    );
    await h.waitForTx(justice);
    await h.mine(1);

    views = {};
    host = await openWorldHost(db, config, onViews);
    await host.whenLightning();
    await mineUntil(
      "the channel home",
      () => (views.penalties?.[0]?.swept ?? false) && (views.balance?.confirmed ?? 0n) > 0n,
    );
    const penalty = views.penalties![0]!;
    expect(penalty.amount).toBeGreaterThan(channel.size - 5_000n);
    expect(views.balance).toMatchObject({ confirmed: penalty.amount, lightning: 0n, force_close: 0n });
    expect(views.balance?.total).toBe(penalty.amount);
    // Told once, however often the wallet starts.
    await host.stop();
    views = {};
    host = await openWorldHost(db, config, onViews);
    await host.whenLightning();
    await mineUntil("synced again", () => (views.balance?.confirmed ?? 0n) === penalty.amount);
    expect(views.penalties).toHaveLength(1);
    expect((views.activity?.items ?? []).filter((i) => i.kind === "ChannelPenalty")).toHaveLength(1);
    expect(views.balance?.total).toBe(penalty.amount);
    await host.stop();
    host = null;
  }, 600_000);

  it("a partner that closes honestly while the wallet is stopped: swept when it opens, counted once", async () => {
    const db = new WalletDb("closed-tab-honest");
    const config = worldLspConfig(h);
    host = await openNewWorldWallet(db, config, onViews);
    views = host.views();
    await receive(host, 50_000n);
    await until("balance", () => views.balance?.lightning === 48_000n, 60_000);
    const channel = views.channels![0]!;
    await host.stop();
    host = null;
    await post("/ln/close", { channel_id: channel.channel_id, force: true });
    await h.mine(1);

    views = {};
    host = await openWorldHost(db, config, onViews);
    await host.whenLightning();
    await mineUntil(
      "swept",
      () => (views.balance?.confirmed ?? 0n) > 0n && views.balance?.force_close === 0n,
    );
    const balance = views.balance!;
    // The wallet's side less the sweep's fee: the LSP's own side waits two weeks of blocks, not the wallet's.
    expect(balance.confirmed).toBeGreaterThan(47_000n);
    expect(balance.confirmed).toBeLessThanOrEqual(48_000n);
    expect(balance).toMatchObject({ lightning: 0n, force_close: 0n });
    expect(balance.total).toBe(balance.confirmed);
    const closes = (views.activity?.items ?? []).filter((i) => i.kind === "ChannelClose");
    expect(closes).toHaveLength(1);
    expect(views.penalties).toHaveLength(0);
  }, 600_000);
});

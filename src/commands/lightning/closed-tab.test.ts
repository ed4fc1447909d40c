/**
 * Safe while the tab is closed: (1) the wallet stopped, its LSP publishes an old state, the watchtower the
 * wallet gave appointments to takes the channel, and the wallet, started again, shows it once and counts it
 * once; (2) the LSP closes honestly on its own while the wallet is stopped: the wallet sweeps its side when
 * it starts again, counted once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { until } from "../../../harness/until";
import { towerPunishes } from "../../../harness/wallet-node";
import { type Harness, startHarness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import type { WalletHost } from "../host/host";
import {
  mineAndSyncHost,
  openNewWorldWallet,
  openWorldHost,
  receiveFromWorld,
  worldLspConfig,
  worldServersConfig,
} from "../host/host.testing";
import type { AllViews } from "../../projections/live";
import { stopAfterAll } from "../../../harness/stop-after-all";

let h: Harness;
let host: WalletHost | null = null;
let views: Partial<AllViews> = {};
const onViews = (v: Partial<AllViews>) => {
  views = { ...views, ...v };
};

/** Mines a block at a time until `done`, the wallet syncing after each. */
const mineUntil = async (what: string, done: () => boolean) => {
  await until(
    what,
    async () => {
      if (!host) throw new Error("no wallet open");
      await mineAndSyncHost(h, host, 1);
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
    const config = worldServersConfig(h, {
      lsp: h.esploraUrl,
      rgs: "",
      storage: "",
      tower: h.towerUrl,
    });
    host = await openNewWorldWallet(db, config, onViews);
    await receiveFromWorld(h, host, 50_000n);
    await receiveFromWorld(h, host, 10_000n);
    await until("balance", () => views.balance?.lightning === 58_000n, 60_000);
    const channel = views.channels![0]!;
    // The revoked states reached the tower (it opens its database on the first one: slow on a busy machine).
    await until("appointments", async () => (await h.tower.count()) >= 2, 120_000, 500);

    await host.stop();
    host = null;
    const cheat = (await postJson(h.esploraUrl, "/ln/cheat", { channel_id: channel.channel_id })) as {
      txid: string;
    };
    await towerPunishes(h, cheat.txid);

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
    await receiveFromWorld(h, host, 50_000n);
    await until("balance", () => views.balance?.lightning === 48_000n, 60_000);
    const channel = views.channels![0]!;
    await host.stop();
    host = null;
    await postJson(h.esploraUrl, "/ln/close", { channel_id: channel.channel_id, force: true });
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

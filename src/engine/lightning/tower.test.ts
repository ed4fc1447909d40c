/**
 * The wallet's node stopped, its partner cheats: the watchtower of the wallet's services, given an
 * appointment after each channel update, sees the revoked commitment in a block and broadcasts the justice
 * transaction the wallet signed; the wallet, started again, finds the channel's funds and sweeps them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { stopAfterAll } from "../../../harness/stop-after-all";
import {
  lspPays,
  mineAndSync,
  openUsableChannel,
  towerPunishes,
  towerWatchedNode,
} from "../../../harness/wallet-node";
import { type Harness, startHarness } from "../../../harness/world";
import type { TowerClient } from "../tower/client";
import type { LightningNode, NodeEvent } from "./node";
import { MemoryBlobStore } from "./store";

let h: Harness;
let wallet: LightningNode;
const events: NodeEvent[] = [];
const seed = crypto.getRandomValues(new Uint8Array(32));
const store = new MemoryBlobStore();
let tower: TowerClient;

let start: () => Promise<LightningNode>;

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  ({ tower, start } = towerWatchedNode(h, { seed, store, events }));
  wallet = await start();
}, 180_000);
stopAfterAll(() => [wallet, h]);

describe("a partner publishing a revoked state while the wallet is stopped", () => {
  it("is punished by the watchtower, and the wallet sweeps the whole channel when it starts again", async () => {
    const pending = await openUsableChannel(h, wallet, events, { opener: "lsp", sats: 200_000n });
    await lspPays(h, wallet, events, [30_000n, 20_000n]);
    // Each revoked commitment of the partner's went to the tower as an appointment.
    // (The world's tower opens its database on the first one: that can take a while on a busy machine.)
    await until(
      "appointments",
      async () => {
        await tower.flush();
        return tower.sent >= 2 && tower.waiting() === 0;
      },
      120_000,
      250,
    );
    expect(await h.tower.count()).toBe(tower.sent);

    // The tab closes; the LSP publishes the state in which it held everything.
    await wallet.stop();
    const cheat = await h.lightning.cheat(pending.outpoint);
    await towerPunishes(h, cheat.txid);

    // The wallet starts again and brings the channel's funds home.
    wallet = await start();
    for (let i = 0; i < 20 && !events.some((e) => e.type === "outputs_swept"); i++) {
      await mineAndSync(h, wallet, 2);
      await new Promise((r) => setTimeout(r, 250));
    }
    const total = events.reduce((s, e) => (e.type === "outputs_swept" ? s + e.sats : s), 0n);
    expect(total).toBeGreaterThan(195_000n);
    expect(total).toBeLessThanOrEqual(200_000n);
    // Seen as it restarted: the wallet says what happened.
    expect(events.some((e) => e.type === "revoked_state_seen")).toBe(true);
    // The tower's take, found on the chain as the wallet started, is counted as the channel's.
    for (const e of events) if (e.type === "outputs_swept") expect(e.channelIds).toEqual([pending.channelId]);
  }, 600_000);
});

/**
 * The node's chain sync looks up only what can still change: a closed channel, once its closing transaction
 * is confirmed, costs no lookups on later syncs (a node that runs for months closes many), and a reorg that
 * undoes the close watches it again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { closingTransaction, startWorldWithNode } from "../../../harness/wallet-node";
import type { Harness } from "../../../harness/world";
import type { LightningNode, NodeEvent } from "./node";
import { parsePeerAddress } from "./socket";

let h: Harness;
let node: LightningNode;
const events: NodeEvent[] = [];
/** Every path the node asked the chain server for. */
const asked: string[] = [];

beforeAll(async () => {
  ({ world: h, node } = await startWorldWithNode(events, () => ({
    fetch: (input, init) => {
      asked.push(new URL(String(input)).pathname);
      return fetch(input, init);
    },
  })));
}, 180_000);
stopAfterAll(() => [node, h]);

/** The paths one sync of the node asks for. */
const oneSync = async () => {
  asked.length = 0;
  await node.sync();
  return asked.slice();
};

describe("the lightning node's chain sync", () => {
  it("stops looking up a channel once its close is confirmed, and looks again after a reorg undoes it", async () => {
    await node.connectPeer(parsePeerAddress(h.lightning.address)!);
    node.openChannel(h.lightning.pubkey, 200_000n, 0n);
    await until("pending", () => events.some((e) => e.type === "channel_pending"), 60_000, 50);
    const pending = events.find((e) => e.type === "channel_pending");
    if (pending?.type !== "channel_pending") throw new Error("no channel");
    const [fundingTxid, vout] = pending.outpoint.split(":");
    await h.waitForTx(fundingTxid!);
    await h.mine(6);
    await Promise.all([node.sync(), h.lightning.node.sync()]);
    await until("usable", () => node.channels().some((c) => c.isUsable), 60_000, 50);
    const fundingSpend = `/tx/${fundingTxid}/outspend/${vout}`;
    // An open channel's funding output is watched on every sync.
    expect(await oneSync()).toContain(fundingSpend);

    await node.closeChannel(pending.channelId);
    await until("closed", () => events.some((e) => e.type === "channel_closed"), 60_000, 50);
    const closingTxid = await closingTransaction(h, pending.outpoint);
    await h.mine(1);
    await node.sync();
    // Confirmed: neither the funding output nor the closing transaction is looked up again.
    const afterClose = await oneSync();
    expect(afterClose).not.toContain(fundingSpend);
    expect(afterClose).not.toContain(`/tx/${closingTxid}/status`);

    // A reorg takes the close out of the chain: the node notices and watches the channel again.
    await h.reorg(1);
    await node.sync();
    expect(await oneSync()).toContain(fundingSpend);

    // Mined again: done with once more.
    await h.mine(1);
    await node.sync();
    expect(await oneSync()).not.toContain(fundingSpend);
  }, 240_000);
});

/**
 * How soon a channel is usable again, as a person meets it: a wallet's node (in Node, through the world's
 * WebSocket proxy, as the browser's worker runs it) with a channel to the world's LSP node.
 *
 *   reload → channel usable         the node stopped and started again from its store (what a reload does)
 *   socket drop → usable again      the LSP's side drops the connection
 *   drop → payment sent             a payment asked for the moment the connection dropped (a tab shown
 *                                   again after its socket died), retried as a person would until it goes
 *
 * Only the node's public calls are used, so the same file measures an older build for comparison.
 * `tsx bench/reconnect.ts` runs it alone against a fresh world.
 */
import { startWalletNode } from "../harness/wallet-node";
import { type Harness, startHarness } from "../harness/world";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import { lightningSeed } from "../src/engine/lightning/seed";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { figure } from "./figures";

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const p95 = (xs: number[]) =>
  pct(
    [...xs].sort((a, b) => a - b),
    95,
  );
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${pct(s, 50)} ms, p95 ${pct(s, 95)} ms, max ${s.at(-1)} ms (${s.length} runs)`;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const waitFor = async (what: string, check: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
};

export const benchReconnect = async (world: Harness, runs = 10) => {
  const store = new MemoryBlobStore();
  const events: NodeEvent[] = [];
  const options = {
    seed: lightningSeed("zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong"),
    store,
    onEvent: (e: NodeEvent) => events.push(e),
  };
  let node: LightningNode = await startWalletNode(world, options);
  const usable = () => node.channels().some((c) => c.isUsable);
  try {
    await node.connectPeer(parsePeerAddress(world.lightning.address)!);
    node.openChannel(world.lightning.pubkey, 500_000n);
    await waitFor("pending", () => events.some((e) => e.type === "channel_pending"));
    for (const e of events)
      if (e.type === "channel_pending") await world.waitForTx(e.outpoint.split(":")[0]!);
    await world.mine(6);
    await node.sync();
    await world.lightning.node.sync();
    await waitFor("usable", usable);

    const reload: number[] = [];
    for (let i = 0; i < runs; i++) {
      await node.stop();
      const t0 = performance.now();
      node = await startWalletNode(world, options);
      await waitFor("usable after a start", usable);
      reload.push(Math.round(performance.now() - t0));
    }
    console.log(`reload → channel usable (node started from its store): ${summary(reload)}`);
    figure("reload → channel usable p95", p95(reload), "ms", 1_500);

    const drop: number[] = [];
    for (let i = 0; i < runs * 2; i++) {
      await sleep(200);
      world.lightning.node.disconnectPeer(node.nodeId);
      const t0 = performance.now();
      await waitFor("dropped", () => !usable(), 5_000).catch(() => undefined);
      await waitFor("usable again", usable);
      drop.push(Math.round(performance.now() - t0));
    }
    console.log(`socket drop → channel usable again: ${summary(drop)}`);
    figure("socket drop → channel usable p95", p95(drop), "ms", 2_000);

    const paid: number[] = [];
    let refused = 0;
    for (let i = 0; i < runs; i++) {
      await sleep(200);
      const { bolt11 } = world.lightning.node.createInvoice(1_000_000n, `after a drop ${i}`);
      world.lightning.node.disconnectPeer(node.nodeId);
      const t0 = performance.now();
      for (;;) {
        const r = await node.payInvoice(bolt11, 100_000n);
        if (r.status === "succeeded") break;
        refused++;
        if (performance.now() - t0 > 60_000) throw new Error(`payment after a drop: ${JSON.stringify(r)}`);
        await sleep(250);
      }
      paid.push(Math.round(performance.now() - t0));
    }
    console.log(`socket drop → payment sent: ${summary(paid)}; refused first ${refused} times`);
    figure("socket drop → payment sent p95", p95(paid), "ms");
  } finally {
    await node.stop();
  }
};

if (process.argv[1]?.endsWith("reconnect.ts")) {
  const world = await startHarness({ port: 0 });
  try {
    await benchReconnect(world);
  } finally {
    await world.stop();
  }
  process.exit(0);
}

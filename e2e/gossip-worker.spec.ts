/**
 * The node answers while a mainnet-shaped first gossip sync is applied, in Chromium: the services' own
 * snapshot in parts (`?parts`), applied by the wallet's routing code in a module worker as the node applies
 * it, with a command sent from the page every 20 ms. Every command sent during the sync is answered between
 * its parts, not after them: the owner's Receive or payment never waits for the whole graph.
 */
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { serveLdkWorker } from "../bench/ldk-worker-site";
import { mainnetChannels } from "../bench/mainnet-graph";
import { GossipHistory, RGS_PART_PIECES } from "../services/gossip/rgs";
import { packParts } from "../src/engine/lightning/gossip";

type Applied = {
  start: number;
  end: number;
  parts: { start: number; end: number }[];
  channels: number;
};

test("the node answers commands between the parts of a mainnet-shaped first sync", async ({ page }) => {
  // A building's worth of work on two busy cores: the graph made, the worker bundled, LDK's wasm compiled.
  test.setTimeout(600_000);
  // Mainnet's shape at a third of its size: hubs with hundreds of channels, most nodes with a few.
  const channels = mainnetChannels({ nodes: 4_000, channels: 16_000, seed: 45 });
  const history = new GossipHistory();
  history.observe(channels);
  const parted = history.snapshotParts(0, RGS_PART_PIECES);
  expect(parted.parts.length).toBeGreaterThanOrEqual(40);

  const server = await serveLdkWorker(join(import.meta.dirname, "gossip", "worker.ts"), "gossip worker");
  try {
    await page.goto(`${server.url}/index.html`);
    const body = packParts(parted.parts);
    const result = await page.evaluate(
      async ([bytes]) => {
        const clock = () => performance.timeOrigin + performance.now();
        const worker = new Worker("/worker.js", { type: "module" });
        const sent = new Map<number, number>();
        const answered = new Map<number, number>();
        let timer: ReturnType<typeof setInterval> | undefined;
        const applied = new Promise<unknown>((resolve, reject) => {
          worker.onerror = (e) => reject(new Error(e.message));
          worker.onmessage = (e) => {
            const m = e.data;
            if (m.kind === "answer") answered.set(m.id, m.at);
            if (m.kind === "loaded") {
              let id = 0;
              timer = setInterval(() => {
                sent.set(++id, clock());
                worker.postMessage({ kind: "command", id });
              }, 20);
            }
            if (m.kind === "applied") resolve(m);
          };
        });
        worker.postMessage({ kind: "apply", parts: Uint8Array.from(bytes).buffer, wasm: "/ldk.wasm" });
        const done = await applied;
        clearInterval(timer);
        // Every command sent is answered.
        while (answered.size < sent.size) await new Promise((r) => setTimeout(r, 10));
        return { applied: done, sent: [...sent], answered: [...answered] };
      },
      [[...body]] as const,
    );
    const applied = result.applied as Applied;
    const answered = new Map(result.answered);
    expect(applied.channels).toBe(channels.length);
    // The node's first step reads the graph's sync timestamp; the parts follow it, one step each.
    const parts = applied.parts.slice(1);
    expect(parts).toHaveLength(parted.parts.length);

    // Each command sent while the parts were applied, with the parts begun after it was sent and before its
    // answer: the one running when it came, and at most one more where the page's message and the worker's
    // own turn after that part cross. Parts applied back to back would leave every command waiting for all
    // of them.
    const during = result.sent.filter(([, at]) => at > parts[0]!.start && at < parts.at(-1)!.end);
    expect(during.length).toBeGreaterThanOrEqual(10);
    for (const [id, at] of during) {
      const answer = answered.get(id)!;
      const partsBetween = parts.filter((p) => p.start > at && p.start < answer).length;
      expect(partsBetween, `parts begun between command ${id} and its answer`).toBeLessThanOrEqual(2);
    }
    // So commands are answered all through the sync, not after it: those sent in its first half are answered
    // before its last part begins.
    const half = parts[Math.floor(parts.length / 2)]!.start;
    for (const [id] of during.filter(([, at]) => at < half))
      expect(answered.get(id)!, `command ${id} answered before the last part`).toBeLessThan(
        parts.at(-1)!.start,
      );
  } finally {
    await server.close();
  }
});

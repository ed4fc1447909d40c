/**
 * The node answers while a mainnet-shaped first gossip sync is applied, in Chromium: the services' own
 * snapshot in parts (`?parts`), applied by the wallet's routing code in a module worker as the node applies
 * it, with a command sent from the page every 20 ms. Every command sent during the sync is answered before
 * the sync ends, with at most the part then running between it and its answer: the owner's Receive or
 * payment never waits for the whole graph.
 */
import { mkdtemp, copyFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { build } from "esbuild";
import { mainnetChannels } from "../bench/mainnet-graph";
import { serveStatic } from "../bench/serve";
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

  const dir = await mkdtemp(join(tmpdir(), "gossip-worker-"));
  await build({
    entryPoints: [join(import.meta.dirname, "gossip", "worker.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile: join(dir, "worker.js"),
    logLevel: "warning",
    // Node's own crypto, imported by the bindings only outside a browser.
    external: ["crypto"],
  });
  await copyFile(
    createRequire(import.meta.url).resolve("lightningdevkit/liblightningjs.wasm"),
    join(dir, "ldk.wasm"),
  );
  await writeFile(join(dir, "index.html"), "<!doctype html><title>gossip worker</title>");
  const server = await serveStatic(dir);
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
    expect(applied.parts.length).toBeGreaterThanOrEqual(parted.parts.length);

    // The commands sent while the parts were applied, each with the parts begun after it and before its answer.
    const during = result.sent.filter(([, at]) => at > applied.start && at < applied.parts.at(-1)!.start);
    expect(during.length).toBeGreaterThanOrEqual(10);
    for (const [id, at] of during) {
      const answer = answered.get(id)!;
      expect(answer, `command ${id} answered before the sync ended`).toBeLessThan(applied.end);
      const partsBetween = applied.parts.filter((p) => p.start > at && p.start < answer).length;
      expect(partsBetween, `parts begun between command ${id} and its answer`).toBeLessThanOrEqual(1);
    }
  } finally {
    await server.close();
  }
});

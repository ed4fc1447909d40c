/**
 * The Node soak's short form (`npm run soak:node` is the long one): payments both ways while the seeded chaos drops
 * the connection, restarts the wallet's node and slows its line; each ends once, the two sides agree on the
 * channel to the sat, and nothing is force closed.
 */
import { afterAll, expect, it } from "vitest";
import { runSoak, soakSummary } from "./soak";
import { type Harness, startHarness } from "./world";

let world: Harness | null = null;
afterAll(async () => {
  await world?.stop();
});

it("pays both ways through drops, restarts and latency: each payment ends once, the channel agrees to the sat", async () => {
  world = await startHarness({ port: 0 });
  const lines: string[] = [];
  const report = await runSoak(world, { seed: 13, payments: 24, log: (l) => lines.push(l) });
  console.log(`${soakSummary(report)}\n${lines.join("\n")}`);
  expect(report.attempted).toBe(24);
  expect(report.firstTime + report.onRetry).toBe(24);
  expect(report.notOnce).toEqual([]);
  expect(report.walletSats).toBe(report.lspSats);
  expect(report.closed).toBe(0);
  // The seed plays every kind of chaos at least once.
  expect(report.chaos.some((c) => c.includes("drop"))).toBe(true);
  expect(report.chaos.some((c) => c.includes("restart"))).toBe(true);
  // A refusal while the channel reconnects is a wait, never "not enough balance".
  expect(report.refusals.no_balance ?? 0).toBe(0);
}, 600_000);

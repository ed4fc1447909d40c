/**
 * The node starting again by itself after a server went away: when it retries, how often, what the live
 * state says meanwhile, and the stops it leaves to the owner.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveState } from "../../projections/live";
import { LightningRestarts, MAX_RESTART_WAIT_MS, restartsByItself, restartWaitMs } from "./restart";

const side = () => {
  let live = {} as Partial<LiveState>;
  const s = {
    starts: 0,
    stopped: false,
    live: () => live,
    setLive: (patch: Partial<LiveState>) => {
      live = { ...live, ...patch };
    },
    startEngines: async () => {
      s.starts++;
    },
  };
  const restarts = new LightningRestarts({
    setLive: s.setLive,
    startEngines: s.startEngines,
    stopped: () => s.stopped,
    canStart: () => true,
  });
  return { s, restarts };
};

const UNREACHABLE = "The storage server could not be reached.";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the node starting again by itself", () => {
  it("retries a failure a server caused with a back-off capped at ten seconds, and says so until it runs", async () => {
    const { s, restarts } = side();
    restarts.status({ state: "failed", error: UNREACHABLE });
    expect(s.live().lightning_retrying).toBe(true);
    await vi.advanceTimersByTimeAsync(restartWaitMs(1) - 1);
    expect(s.starts).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.starts).toBe(1);
    // Each start that fails again waits longer, never more than the cap.
    for (let n = 2; n <= 8; n++) {
      restarts.status({ state: "starting" });
      restarts.status({ state: "failed", error: "fetch failed" });
      expect(s.live().lightning_retrying).toBe(true);
      await vi.advanceTimersByTimeAsync(restartWaitMs(n));
      expect(s.starts).toBe(n);
    }
    expect(restartWaitMs(8)).toBe(MAX_RESTART_WAIT_MS);
    restarts.status({ state: "starting" });
    restarts.status({ state: "ready" });
    expect(s.live().lightning_retrying).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_RESTART_WAIT_MS * 2);
    expect(s.starts).toBe(8);
  });

  it("starts at once when the device wakes (back online, the page shown again)", async () => {
    const { s, restarts } = side();
    restarts.status({ state: "failed", error: UNREACHABLE });
    restarts.status({ state: "starting" });
    restarts.status({ state: "failed", error: UNREACHABLE });
    restarts.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.starts).toBe(1);
  });

  it("leaves to the owner a stop they must decide on, and ends when the wallet stops", async () => {
    for (const error of [
      "Mutiny was opened on another device, so it stopped here.",
      "The storage server answered an older state of your channels than this device saved. Mutiny will not start from it.",
      "The lightning engine stopped after an internal error (RuntimeError: unreachable). Restart the wallet to run it again.",
    ]) {
      expect(restartsByItself(error)).toBe(false);
      const { s, restarts } = side();
      restarts.status({ state: "failed", error });
      await vi.advanceTimersByTimeAsync(MAX_RESTART_WAIT_MS * 2);
      expect(s.starts).toBe(0);
      expect(s.live().lightning_retrying).toBeUndefined();
    }
    expect(
      restartsByItself(
        "Mutiny could not reach its storage server to keep running on this device, so it stopped here.",
      ),
    ).toBe(true);
    const { s, restarts } = side();
    restarts.status({ state: "failed", error: UNREACHABLE });
    restarts.stop();
    await vi.advanceTimersByTimeAsync(MAX_RESTART_WAIT_MS * 2);
    expect(s.starts).toBe(0);
  });
});

/**
 * The node starts again by itself when it stopped, or could not start, because a server went away (the
 * storage server, the chain server, the peers' proxy): it retries with a back-off that never grows past
 * `MAX_RESTART_WAIT_MS`, at once when the device wakes (back online, the page shown again), and the live
 * state says so (`lightning_retrying`) until it runs again. A stop the owner must decide on (another device
 * took over, a stale state refused, LDK's own failure) is left as it is.
 */
import type { EngineStatus } from "../engines";
import type { HostSide } from "../attached";

/** The first wait before starting again, doubled on each failure up to `MAX_RESTART_WAIT_MS`. */
export const FIRST_RESTART_WAIT_MS = 1_000;
export const MAX_RESTART_WAIT_MS = 10_000;

/** The beginnings of the failures the node does not start again from by itself. */
const STAYS_STOPPED = [
  // Another device runs this wallet now: starting here would take it back from the owner's other device.
  "Mutiny was opened on another device",
  "Mutiny saved your channels from another device",
  "Mutiny is already running",
  // A storage server answering an older state is not to be started from, however often it is asked.
  "The storage server answered an older state",
  // LDK's wasm failed: only a new worker (a reload) runs it again.
  "The lightning engine stopped after an internal error",
];

export const restartsByItself = (error: string): boolean => !STAYS_STOPPED.some((s) => error.startsWith(s));

export const restartWaitMs = (failures: number): number =>
  Math.min(MAX_RESTART_WAIT_MS, FIRST_RESTART_WAIT_MS * 2 ** Math.max(0, failures - 1));

export class LightningRestarts {
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly side: Pick<HostSide, "setLive" | "startEngines" | "stopped" | "canStart">) {}

  /** The node's status changed: a failure a server caused is retried; running (or stopped) ends the retries. */
  status(status: EngineStatus): void {
    if (status.state === "failed") {
      if (!restartsByItself(status.error) || this.side.stopped()) {
        this.end();
        return;
      }
      this.failures++;
      this.side.setLive({ lightning_retrying: true });
      this.schedule(restartWaitMs(this.failures));
    } else if (status.state !== "starting") {
      this.end();
    }
  }

  /** The device woke: a retry waiting for its turn starts now. */
  wake(): void {
    if (this.timer) this.schedule(0);
  }

  /** Stops retrying (the wallet stops). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.side.stopped() && this.side.canStart()) void this.side.startEngines().catch(() => undefined);
    }, ms);
  }

  private end(): void {
    this.stop();
    if (this.failures > 0) this.side.setLive({ lightning_retrying: false });
    this.failures = 0;
  }
}

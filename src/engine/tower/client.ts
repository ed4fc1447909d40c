/**
 * The wallet's side of its watchtower: appointments made from each justice transaction are sent to the
 * tower's `POST <tower>/appointment`, in order, each request bounded in time and size; one the tower could
 * not take now is sent again later (every 30 s and with the next one). Stored or already stored: done.
 */
import { boundedFetch, type FetchFn } from "../http/bounded";
import { type AppointmentRequest, appointmentFor, towerKey } from "./appointment";

const RETRY_MS = 30_000;
/** Appointments waiting at most (the oldest go first when the tower stays away). */
const MAX_WAITING = 1_000;

export class TowerClient {
  private readonly queue: AppointmentRequest[] = [];
  private sending = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly fetchFn: FetchFn;
  /** Appointments the tower holds, and the bytes sent for them. */
  sent = 0;
  bytes = 0;

  constructor(
    private readonly url: string,
    private readonly secret: Uint8Array,
    fetchFn: FetchFn,
    private readonly log: (level: "info" | "warn", message: string) => void,
  ) {
    this.fetchFn = boundedFetch(fetchFn, { timeoutMs: 15_000, maxBytes: 16_000 });
  }

  /** Makes and sends the appointment for the revoked commitment `commitmentTxid` (internal byte order). */
  add(commitmentTxid: Uint8Array, justiceTx: Uint8Array): void {
    this.queue.push(appointmentFor(this.secret, commitmentTxid, justiceTx));
    if (this.queue.length > MAX_WAITING) this.queue.splice(0, this.queue.length - MAX_WAITING);
    void this.flush();
  }

  /** Appointments not yet taken by the tower. */
  waiting(): number {
    return this.queue.length;
  }

  /** Sends what waits; resolves once the queue is empty or the tower could not take one. */
  async flush(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.queue.length > 0) {
        const a = this.queue[0]!;
        const body = JSON.stringify(a);
        let status = 0;
        try {
          const r = await this.fetchFn(`${this.url.replace(/\/+$/, "")}/appointment`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          status = r.status;
          await r.arrayBuffer().catch(() => undefined);
        } catch (e) {
          this.log("warn", `watchtower: ${String(e)}`);
          break;
        }
        if (status === 200 || status === 409) {
          this.sent++;
          this.bytes += body.length;
        } else if (status === 400 || status === 401) {
          this.log("warn", `watchtower refused an appointment (${status})`);
        } else {
          this.log("warn", `watchtower answered ${status}; trying again later`);
          break;
        }
        this.queue.shift();
      }
    } finally {
      this.sending = false;
    }
    if (this.queue.length > 0 && !this.timer)
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, RETRY_MS);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** The wallet's tower client when a tower is set (`url`), signing with the key its lightning seed gives. */
export const towerFor = (
  url: string | null | undefined,
  seed: Uint8Array,
  fetchFn: FetchFn,
  log: (level: "info" | "warn", message: string) => void,
): TowerClient | null => (url ? new TowerClient(url, towerKey(seed).secret, fetchFn, log) : null);

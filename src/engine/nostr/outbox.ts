/**
 * The outbox: events the wallet publishes are in the log (`nostr.queued`) before they are sent, and are sent
 * to the relays again, on every connection and on a timer, until one answers OK; then `nostr.published`
 * records it. A reload folds the same outbox from the log, so nothing queued is lost.
 */
import type { NostrEvent } from "./event";
import type { RelaySet } from "./relays";

export interface OutboxHooks {
  /** The events still waiting, from the log's fold. */
  readonly pending: () => readonly NostrEvent[];
  /** The relays event `id` goes to instead of the wallet's (the addressee's inbox relays), if any. */
  readonly targets?: (id: string) => readonly string[] | undefined;
  /** Records that `relay` accepted event `id`; resolves once durable. */
  readonly published: (id: string, relay: string) => Promise<void>;
}

/** How often events are tried again while some wait and a relay is connected. */
export const OUTBOX_RETRY_MS = 15_000;

export class Outbox {
  private readonly inFlight = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly relays: RelaySet,
    private readonly hooks: OutboxHooks,
    private readonly retryMs: number = OUTBOX_RETRY_MS,
  ) {}

  /** Sends every waiting event to the connected relays (a relay connected, an event was queued). */
  flush(): void {
    if (this.stopped) return;
    const waiting = this.hooks.pending();
    const connected = this.relays.connected().length > 0;
    // An event for the addressee's own relays does not wait for the wallet's.
    for (const event of waiting) if (connected || this.targetsOf(event)) void this.send(event);
    this.schedule(waiting.length > 0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async send(event: NostrEvent): Promise<void> {
    if (this.inFlight.has(event.id)) return;
    this.inFlight.add(event.id);
    try {
      const targets = this.targetsOf(event);
      const accepted = targets
        ? await this.relays.publishTo(event, targets)
        : await this.relays.publish(event);
      const first = accepted[0];
      if (first !== undefined && !this.stopped) await this.hooks.published(event.id, first);
    } catch {
      // Tried again at the next connection or retry.
    } finally {
      this.inFlight.delete(event.id);
    }
  }

  private targetsOf(event: NostrEvent): readonly string[] | undefined {
    const targets = this.hooks.targets?.(event.id);
    return targets && targets.length > 0 ? targets : undefined;
  }

  private schedule(more: boolean): void {
    if (this.timer || !more || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.retryMs);
  }
}

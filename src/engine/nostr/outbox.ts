/**
 * The outbox: events the wallet publishes are in the log (`nostr.queued`) before they are sent, and are sent
 * to the relays again, on every connection and on a timer, until one answers OK; then `nostr.published`
 * records it. A reload folds the same outbox from the log, so nothing queued is lost.
 *
 * A relay that puts an event off (`rate-limited:`, `error:`, no answer, a dropped connection) gets it again
 * later, each time waiting longer (doubling from the retry interval to `OUTBOX_MAX_BACKOFF_MS`). A relay
 * that refuses it for good (`blocked:`, `invalid:`, `pow:`, `restricted:`; see `answerKind`) is not asked
 * again; once every relay of the wallet refused it so, `nostr.failed` records it and it is never sent again.
 */
import type { NostrEvent } from "./event";
import type { RelaySet } from "./relays";

export interface Refusal {
  readonly relay: string;
  readonly reason: string;
}

export interface OutboxHooks {
  /** The events still waiting, from the log's fold. */
  readonly pending: () => readonly NostrEvent[];
  /** The relays event `id` goes to instead of the wallet's (the addressee's inbox relays), if any. */
  readonly targets?: (id: string) => readonly string[] | undefined;
  /** Records that `relay` accepted event `id`; resolves once durable. */
  readonly published: (id: string, relay: string) => Promise<void>;
  /** Records that every relay refused event `id` for good, with their reasons; resolves once durable. */
  readonly failed: (id: string, refusals: readonly Refusal[]) => Promise<void>;
}

/** How often events are tried again while some wait and a relay is connected. */
export const OUTBOX_RETRY_MS = 15_000;
/** The longest wait before trying again an event that relays keep putting off. */
export const OUTBOX_MAX_BACKOFF_MS = 10 * 60_000;

export class Outbox {
  private readonly inFlight = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  /** Per event, the relays that refused it for good and why (in memory; the verdict goes to the log). */
  private readonly refused = new Map<string, Map<string, string>>();
  /** Per event put off, how many times, and when the timer may try it again. */
  private readonly putOff = new Map<string, { readonly times: number; readonly notBefore: number }>();

  constructor(
    private readonly relays: RelaySet,
    private readonly hooks: OutboxHooks,
    private readonly retryMs: number = OUTBOX_RETRY_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Sends every waiting event to the connected relays (a relay connected, an event was queued). */
  flush(): void {
    this.run(false);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Sends what waits; from the timer, only what is not put off until later. */
  private run(fromTimer: boolean): void {
    if (this.stopped) return;
    const waiting = this.hooks.pending();
    const ids = new Set(waiting.map((e) => e.id));
    for (const m of [this.refused, this.putOff]) for (const id of m.keys()) if (!ids.has(id)) m.delete(id);
    if (waiting.length > 0) {
      const now = this.now();
      const connected = this.relays.connected().length > 0;
      // An event for the addressee's own relays does not wait for the wallet's.
      for (const event of waiting)
        if (
          (connected || this.targetsOf(event)) &&
          (!fromTimer || (this.putOff.get(event.id)?.notBefore ?? 0) <= now)
        )
          void this.send(event);
    }
    this.schedule(waiting.length > 0);
  }

  private async send(event: NostrEvent): Promise<void> {
    if (this.inFlight.has(event.id)) return;
    this.inFlight.add(event.id);
    try {
      const refused = this.refused.get(event.id) ?? new Map<string, string>();
      const targets = this.targetsOf(event);
      const answers = targets
        ? await this.relays.publishTo(
            event,
            targets.filter((url) => !refused.has(url)),
          )
        : await this.relays.publish(event, new Set(refused.keys()));
      if (this.stopped) return;
      const held = answers.find((a) => a.kind === "held");
      if (held) {
        this.forget(event.id);
        await this.hooks.published(event.id, held.relay);
        return;
      }
      for (const a of answers) if (a.kind === "final") refused.set(a.relay, a.reason);
      this.refused.set(event.id, refused);
      if (refused.size > 0 && (targets ?? this.relays.urls()).every((url) => refused.has(url))) {
        this.forget(event.id);
        await this.hooks.failed(
          event.id,
          [...refused].map(([relay, reason]) => ({ relay, reason })),
        );
        return;
      }
      if (answers.some((a) => a.kind === "retry")) {
        const times = (this.putOff.get(event.id)?.times ?? 0) + 1;
        const wait = Math.min(this.retryMs * 2 ** (times - 1), OUTBOX_MAX_BACKOFF_MS);
        this.putOff.set(event.id, { times, notBefore: this.now() + wait });
      }
    } catch {
      // Tried again at the next connection or retry.
    } finally {
      this.inFlight.delete(event.id);
    }
  }

  private forget(id: string): void {
    this.refused.delete(id);
    this.putOff.delete(id);
  }

  private targetsOf(event: NostrEvent): readonly string[] | undefined {
    const targets = this.hooks.targets?.(event.id);
    return targets && targets.length > 0 ? targets : undefined;
  }

  private schedule(more: boolean): void {
    if (this.timer || !more || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run(true);
    }, this.retryMs);
  }
}

/**
 * The wallet's connections to its relays (nostr-tools' relay client): each relay is dialled within a deadline
 * and dialled again after it drops, waiting longer after each failure (1 s doubling to a minute). Every
 * message a relay sends is input: one larger than the wallet reads is dropped unread, and events are checked
 * (shape, size, id, signature) before anyone sees them.
 */
import { AbstractRelay } from "nostr-tools/abstract-relay";
import type { Filter } from "nostr-tools/filter";
import { verifyEvent } from "nostr-tools/pure";
import type { SocketClass, SocketLimits } from "../http/socket";
import { checkEvent, MAX_EVENT_BYTES, type NostrEvent } from "./event";

/** Timings of the relay client; tests shorten them. */
export interface RelayTimings {
  readonly connectMs: number;
  readonly publishMs: number;
  /** How long a query waits for a relay's end of stored events. */
  readonly queryMs: number;
  /** Back-off after a failed or dropped connection: first wait, doubling to the most. */
  readonly retryFirstMs: number;
  readonly retryMaxMs: number;
}

export const RELAY_TIMINGS: RelayTimings = {
  connectMs: 10_000,
  publishMs: 10_000,
  queryMs: 8_000,
  retryFirstMs: 1_000,
  retryMaxMs: 60_000,
};

/** A relay's answer to a published event: it holds it, refused it for good, or may take it later. */
export interface PublishAnswer {
  readonly relay: string;
  readonly kind: "held" | "final" | "retry";
  /** The relay's reason (NIP-01's OK message), or what went wrong (a timeout, a closed connection). */
  readonly reason: string;
}

/**
 * What a relay's refusal (NIP-01 OK false, "prefix: message") means for the outbox. `duplicate:` is the
 * relay holding it already. `blocked:`, `invalid:`, `pow:` and `restricted:` do not change by sending the
 * same signed event again: it is refused for good. Anything else (`rate-limited:`, `error:`, `auth-required:`,
 * `mute:`, a timeout, a dropped connection, a prefix no NIP names) may pass on another try.
 */
export const answerKind = (reason: string): PublishAnswer["kind"] => {
  const prefix = /^([a-z-]+):/.exec(reason.trim())?.[1];
  if (prefix === "duplicate") return "held";
  if (prefix === "blocked" || prefix === "invalid" || prefix === "pow" || prefix === "restricted")
    return "final";
  return "retry";
};

/**
 * One page of a query: relays cap what one REQ answers (NIP-11 `max_limit`, often 500), so a query asks again
 * for the events older than the oldest it has (`until`), page after page, as nostr clients do.
 */
export const QUERY_PAGE = 500;
/** The most events one query keeps from one relay, over all its pages. */
export const MAX_QUERY_EVENTS = 10_000;

/**
 * A relay's socket (`socketClass`): connected within the relay deadline, and cut off at a message far
 * beyond any event (one over an event's size but under this is dropped unread by `BoundedRelay`).
 */
export const RELAY_SOCKET_LIMITS: SocketLimits = {
  connectMs: RELAY_TIMINGS.connectMs,
  maxMessageBytes: 4 * (MAX_EVENT_BYTES + 1_000),
};

/** nostr-tools' relay, reading no message larger than one event may be. */
class BoundedRelay extends AbstractRelay {
  override _onmessage(ev: MessageEvent<unknown>): void {
    const data = ev.data;
    // Only a JSON array of bounded size is a relay message; anything else is dropped unread.
    if (typeof data !== "string" || data.length > MAX_EVENT_BYTES + 1_000 || !data.startsWith("[")) return;
    super._onmessage(ev as MessageEvent<string>);
  }
}

interface Slot {
  readonly url: string;
  relay: BoundedRelay | null;
  failures: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * A subscription kept open on every connected relay, and opened again on each relay that reconnects:
 * `prepare` runs first on each relay (answering its AUTH), then every checked event goes to `onEvent`.
 */
export interface Watch {
  readonly filters: readonly Filter[];
  readonly prepare?: (relay: AbstractRelay) => Promise<unknown>;
  readonly onEvent: (event: NostrEvent) => void;
}

export interface RelayStatus {
  readonly url: string;
  readonly connected: boolean;
}

/** One relay's settled answer to a published event, classified (`answerKind`). */
const answerOf = (relay: string, a: PromiseSettledResult<string> | undefined): PublishAnswer => {
  if (a?.status === "fulfilled") return { relay, kind: "held", reason: "" };
  const reason = (a?.reason instanceof Error ? a.reason.message : String(a?.reason ?? "")).slice(0, 300);
  return { relay, kind: answerKind(reason), reason };
};

export class RelaySet {
  private readonly slots: Slot[];
  private stopped = false;
  private readonly waiters = new Set<() => void>();
  /** Live subscriptions by name, and what each has open on which relay. */
  private readonly watches = new Map<string, { watch: Watch; open: Map<AbstractRelay, { close(): void }> }>();

  constructor(
    urls: readonly string[],
    private readonly socket: SocketClass,
    /** Called each time a relay connects (the outbox sends what waits). */
    private readonly onConnected: (url: string) => void,
    private readonly onStatus: (status: readonly RelayStatus[]) => void = () => undefined,
    private readonly timings: RelayTimings = RELAY_TIMINGS,
  ) {
    this.slots = [...new Set(urls)].map((url) => ({ url, relay: null, failures: 0, timer: null }));
  }

  start(): void {
    this.report();
    for (const slot of this.slots) void this.dial(slot);
  }

  stop(): void {
    this.stopped = true;
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      const relay = slot.relay;
      slot.relay = null;
      relay?.close();
    }
    this.onStatus([]);
  }

  status(): RelayStatus[] {
    return this.slots.map((s) => ({ url: s.url, connected: s.relay?.connected ?? false }));
  }

  /** The relays connected now. */
  connected(): AbstractRelay[] {
    return this.slots.flatMap((s) => (s.relay?.connected ? [s.relay] : []));
  }

  /** Resolves once a relay is connected, or after `ms` (a query made just after start waits for one). */
  whenConnected(ms: number): Promise<void> {
    if (this.connected().length > 0 || this.slots.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /**
   * Keeps `watch` open on every relay, now and after each reconnection, under `name` (a second watch of the
   * same name replaces the first). Answers the way to close it.
   */
  watch(name: string, watch: Watch): () => void {
    this.unwatch(name);
    const entry = { watch, open: new Map<AbstractRelay, { close(): void }>() };
    this.watches.set(name, entry);
    for (const relay of this.connected()) void this.openWatch(name, entry, relay);
    return () => {
      if (this.watches.get(name) === entry) this.unwatch(name);
    };
  }

  private unwatch(name: string): void {
    const entry = this.watches.get(name);
    this.watches.delete(name);
    for (const sub of entry?.open.values() ?? []) sub.close();
  }

  private async openWatch(
    name: string,
    entry: { watch: Watch; open: Map<AbstractRelay, { close(): void }> },
    relay: AbstractRelay,
  ): Promise<void> {
    await entry.watch.prepare?.(relay).catch(() => undefined);
    // Closed, replaced, or the relay dropped meanwhile: nothing to open (a reconnection opens it anew).
    if (this.stopped || this.watches.get(name) !== entry || !relay.connected || entry.open.has(relay)) return;
    const sub = relay.subscribe([...entry.watch.filters], {
      onevent: (e) => {
        const checked = checkEvent(e);
        if (checked) entry.watch.onEvent(checked);
      },
      onclose: () => {
        if (entry.open.get(relay) === sub) entry.open.delete(relay);
      },
    });
    entry.open.set(relay, sub);
  }

  /** Every relay the wallet uses, connected or not. */
  urls(): string[] {
    return this.slots.map((s) => s.url);
  }

  /**
   * Sends `event` to every connected relay but those in `skip`; answers each one's answer, classified
   * (`answerKind`): it holds the event, refused it for good, or may take it on another try.
   */
  async publish(event: NostrEvent, skip: ReadonlySet<string> = new Set()): Promise<PublishAnswer[]> {
    // Named as the wallet's settings name them (nostr-tools normalises its own `url`).
    const slots = this.slots.flatMap((s) =>
      s.relay?.connected && !skip.has(s.url) ? [{ url: s.url, relay: s.relay }] : [],
    );
    const answers = await Promise.allSettled(slots.map((s) => s.relay.publish(event)));
    return slots.map(({ url }, i) => answerOf(url, answers[i]));
  }

  /**
   * Sends `event` to the relays `urls` (someone else's inbox relays): through the wallet's own connection
   * where it has one, else over a connection opened for this event and closed after. Answers each one's
   * answer, classified as `publish` does.
   */
  async publishTo(event: NostrEvent, urls: readonly string[]): Promise<PublishAnswer[]> {
    return Promise.all(
      [...new Set(urls)].map(async (url): Promise<PublishAnswer> => {
        const own = this.slots.find((s) => s.url === url)?.relay;
        if (own?.connected) return answerOf(url, (await Promise.allSettled([own.publish(event)]))[0]);
        const relay = this.relay(url);
        try {
          await relay.connect({ timeout: this.timings.connectMs });
          return answerOf(url, (await Promise.allSettled([relay.publish(event)]))[0]);
        } catch (e) {
          return answerOf(url, { status: "rejected", reason: e });
        } finally {
          relay.close();
        }
      }),
    );
  }

  private relay(url: string): BoundedRelay {
    const relay = new BoundedRelay(url, {
      verifyEvent: (e) => verifyEvent(e),
      websocketImplementation: this.socket,
      enableReconnect: false,
    });
    relay.publishTimeout = this.timings.publishMs;
    relay.baseEoseTimeout = this.timings.queryMs;
    relay.onnotice = () => undefined;
    return relay;
  }

  /**
   * The events matching `filter` on the connected relays, each checked, at most `MAX_QUERY_EVENTS` per relay;
   * each relay's answer ends at its end of stored events or after the query deadline.
   */
  async query(filter: Filter): Promise<NostrEvent[]> {
    const relays = this.connected();
    const all = await Promise.all(relays.map((r) => this.queryOne(r, filter)));
    const byId = new Map<string, NostrEvent>();
    for (const e of all.flat()) byId.set(e.id, e);
    return [...byId.values()];
  }

  /**
   * Every event matching `filter` on `relay`, page by page (newest first, each page older than the last one's
   * oldest, that second included), until a page brings nothing new or `MAX_QUERY_EVENTS` are held.
   */
  private async queryOne(relay: AbstractRelay, filter: Filter): Promise<NostrEvent[]> {
    const found = new Map<string, NostrEvent>();
    let until = filter.until;
    const want = filter.limit ?? MAX_QUERY_EVENTS;
    while (found.size < Math.min(want, MAX_QUERY_EVENTS) && relay.connected) {
      const limit = Math.min(QUERY_PAGE, want - found.size);
      const page = await this.page(relay, { ...filter, limit, ...(until !== undefined ? { until } : {}) });
      let fresh = 0;
      let oldest = Number.POSITIVE_INFINITY;
      for (const e of page) {
        oldest = Math.min(oldest, e.created_at);
        if (found.has(e.id) || found.size >= MAX_QUERY_EVENTS) continue;
        found.set(e.id, e);
        fresh++;
      }
      if (fresh === 0 || filter.limit !== undefined) break;
      // The oldest second again: more events of that second may lie past what the page held.
      until = oldest;
    }
    return [...found.values()];
  }

  private page(relay: AbstractRelay, filter: Filter): Promise<NostrEvent[]> {
    return new Promise((resolve) => {
      const found: NostrEvent[] = [];
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        sub.close();
        resolve(found);
      };
      const timer = setTimeout(finish, this.timings.queryMs);
      const sub = relay.subscribe([filter], {
        eoseTimeout: this.timings.queryMs,
        onevent: (e) => {
          const checked = checkEvent(e);
          if (checked) found.push(checked);
          if (found.length >= QUERY_PAGE) finish();
        },
        oneose: finish,
        onclose: finish,
      });
    });
  }

  private async dial(slot: Slot): Promise<void> {
    if (this.stopped) return;
    slot.timer = null;
    const relay = this.relay(slot.url);
    try {
      await relay.connect({ timeout: this.timings.connectMs });
    } catch {
      relay.close();
      this.retry(slot);
      return;
    }
    if (this.stopped) {
      relay.close();
      return;
    }
    slot.relay = relay;
    slot.failures = 0;
    relay.onclose = () => {
      if (slot.relay !== relay) return;
      slot.relay = null;
      this.report();
      this.retry(slot);
    };
    this.report();
    for (const w of [...this.waiters]) w();
    this.onConnected(slot.url);
    for (const [name, entry] of this.watches) void this.openWatch(name, entry, relay);
  }

  private retry(slot: Slot): void {
    if (this.stopped || slot.timer) return;
    const wait = Math.min(this.timings.retryFirstMs * 2 ** slot.failures, this.timings.retryMaxMs);
    slot.failures = Math.min(slot.failures + 1, 30);
    slot.timer = setTimeout(() => void this.dial(slot), wait);
  }

  private report(): void {
    this.onStatus(this.status());
  }
}

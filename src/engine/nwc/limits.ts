/**
 * What the wallet-connect service reads and answers at most: the relay is input like any server, and an
 * app (or anyone who learns a connection's key) may flood it.
 */

/** The largest relay message read (characters of the JSON text): a NIP-47 request is a few kB at most. */
export const MAX_RELAY_MESSAGE = 64 * 1024;

/**
 * Requests one connection may send at once, and how many more it may send each second after that: room for
 * an app that reads balance, transactions and invoices together, while a flood costs a bounded amount of work.
 */
export const REQUEST_BURST = 100;
export const REQUESTS_PER_SECOND = 10;
/** RATE_LIMITED answers one connection gets at once, and how many more each second: past them, silence. */
export const REFUSAL_BURST = 10;
export const REFUSALS_PER_SECOND = 0.2;

/** What the service dropped unread or unanswered since it started. */
export interface NwcDropped {
  /** Relay messages larger than `MAX_RELAY_MESSAGE`. */
  oversized: number;
  /** Requests from a key that is not the connection's app. */
  strangers: number;
  /** Requests over a connection's rate (answered RATE_LIMITED, or not at all past the refusals' own rate). */
  limited: number;
}

/** A token bucket: `take` answers whether one more may pass at `now` (ms). */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The platform's WebSocket, reading no message larger than `max` (those are counted by `dropped`). */
export const capMessages = <S extends { onmessage: unknown }>(ws: S, max: number, dropped: () => void): S =>
  new Proxy(ws, {
    set: (target, prop, value) => {
      if (prop === "onmessage" && typeof value === "function") {
        const handler = value as (ev: { data: unknown }) => void;
        return Reflect.set(
          target,
          prop,
          (ev: { data: unknown }) => {
            const data = ev.data;
            const size =
              typeof data === "string"
                ? data.length
                : data instanceof ArrayBuffer || ArrayBuffer.isView(data)
                  ? data.byteLength
                  : 0;
            if (size > max) dropped();
            else handler(ev);
          },
          target,
        );
      }
      return Reflect.set(target, prop, value, target);
    },
    get: (target, prop) => {
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });

/**
 * Every WebSocket the wallet opens to a server it does not control goes through here (lightning peers and
 * their proxy, nostr relays): a deadline to connect, and a cap on each message. A socket still connecting
 * at the deadline, or sent one message over the cap, is closed and reported closed at once; nothing of the
 * oversized message reaches the caller, and nothing after it. The platform's factory (a browser WebSocket
 * in the worker, the `ws` package in Node) is wrapped here and nowhere else: the linter refuses the
 * `WebSocket` global in `src/engine` outside `src/engine/http`.
 *
 * A browser has no way to stop reading one frame part-way, so the cap bounds what the wallet processes
 * and keeps, not what the browser buffers for one frame; a server sending more than that is cut off.
 */

/** The subset of the WebSocket API (browser or the `ws` package) the wallet uses. */
export interface WebSocketLike {
  binaryType: string;
  readonly readyState: number;
  send(data: string | Uint8Array): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

/** Opens a socket to `url` (the platform's, or a bounded one from `boundedSockets`). */
export type WebSocketFactory = (url: string) => WebSocketLike;

/** What nostr-tools opens relays with: a class it calls with `new`, with the readyState constants. */
export type SocketClass = typeof globalThis.WebSocket;

export interface SocketLimits {
  /** From opening to connected. */
  readonly connectMs: number;
  /** The largest message read: characters of a text message, bytes of a binary one. */
  readonly maxMessageBytes: number;
}

const CONNECTING = 0;
const CLOSED = 3;

const sizeOf = (data: unknown): number => {
  if (typeof data === "string") return data.length;
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  if (typeof Blob !== "undefined" && data instanceof Blob) return data.size;
  if (Array.isArray(data)) return data.reduce((n: number, d: unknown) => n + sizeOf(d), 0);
  return 0;
};

/** Why a bounded socket closed on its own (the event its `onclose` gets). */
export interface SocketCut {
  readonly code: number;
  readonly reason: "connect-timeout" | "message-too-large";
}

class BoundedSocket implements WebSocketLike {
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  private closed = false;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly raw: WebSocketLike,
    limits: SocketLimits,
  ) {
    this.timer = setTimeout(() => {
      if (raw.readyState === CONNECTING) this.cut({ code: 1006, reason: "connect-timeout" });
    }, limits.connectMs);
    raw.onopen = (ev) => {
      clearTimeout(this.timer);
      if (!this.closed) this.onopen?.(ev);
    };
    raw.onmessage = (ev) => {
      if (this.closed) return;
      if (sizeOf(ev.data) > limits.maxMessageBytes) this.cut({ code: 1009, reason: "message-too-large" });
      else this.onmessage?.(ev);
    };
    raw.onerror = (ev) => {
      if (!this.closed) this.onerror?.(ev);
    };
    raw.onclose = (ev) => this.ended(ev);
  }

  get readyState(): number {
    return this.closed ? CLOSED : this.raw.readyState;
  }

  get binaryType(): string {
    return this.raw.binaryType;
  }

  set binaryType(v: string) {
    this.raw.binaryType = v;
  }

  send(data: string | Uint8Array): void {
    if (!this.closed) this.raw.send(data);
  }

  close(): void {
    clearTimeout(this.timer);
    this.raw.close();
  }

  /** Closes the socket and tells the caller now: a silent or flooding server gets no more of its time. */
  private cut(why: SocketCut): void {
    try {
      this.raw.close();
    } catch {
      // Already closing: the close is reported below all the same.
    }
    this.ended(why);
  }

  private ended(ev: unknown): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    this.closed = true;
    this.onclose?.(ev);
  }
}

/** `make`, each socket it opens bounded by `limits`. */
export const boundedSockets =
  (make: WebSocketFactory, limits: SocketLimits): WebSocketFactory =>
  (url) =>
    new BoundedSocket(make(url), limits);

/** The bounded sockets of `make` as the class nostr-tools opens relays with. */
export const socketClass = (make: WebSocketFactory, limits: SocketLimits): SocketClass =>
  Object.assign(
    function Socket(url: string) {
      return new BoundedSocket(make(url), limits);
    },
    { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 },
  ) as unknown as SocketClass;

/**
 * The node's connection supervisor: every peer the node needs (one it has a channel with, one kept for an
 * open invoice) is dialled as soon as the node is built, redialled at once when its socket closes, when the
 * browser is back online or the page is shown again (`wake`), and while it keeps failing after a short
 * back-off that never grows past `MAX_BACKOFF_MS`. It says per peer whether it is connecting, connected, or
 * unreachable since when, for the screens.
 */
import type { PeerAddress } from "./socket";

/** The first redial after a failure, doubled on each failure up to `MAX_BACKOFF_MS`. */
export const FIRST_BACKOFF_MS = 250;
export const MAX_BACKOFF_MS = 5_000;
/** A peer failing for this long is shown as unreachable (with since when), not as connecting. */
export const UNREACHABLE_AFTER_MS = 60_000;
/** How often the supervisor looks whether a dial is due. */
export const SUPERVISE_MS = 250;
/** How often a connected peer's "last seen" is written down (so "offline since" is near the truth after a reload). */
export const SEEN_EVERY_MS = 10 * 60_000;

export type PeerState = "connecting" | "connected" | "unreachable";

/** A peer as the screens see it: `since` is when it connected, or since when it has not been (unix ms). */
export interface PeerStatus {
  readonly pubkey: string;
  readonly state: PeerState;
  readonly since: number;
}

/** What the supervisor needs of the node. */
export interface Supervised {
  /** The peers to keep connected now, with their addresses. */
  readonly wanted: () => ReadonlyMap<string, PeerAddress>;
  readonly isConnected: (pubkey: string) => boolean;
  /** When a peer was last connected, remembered from before this start (unix ms), or null. */
  readonly lastSeen: (pubkey: string) => number | null;
  /** A peer connected, or dropped, at `at`: remembered for the next start. */
  readonly noteSeen: (pubkey: string, at: number) => void;
  /** Dials a peer; resolves once it is connected, rejects when it could not be. */
  readonly dial: (peer: PeerAddress) => Promise<void>;
  readonly now: () => number;
  readonly log: (level: "debug" | "info" | "warn" | "error", message: string) => void;
  /** A peer's status changed. */
  readonly changed: () => void;
}

interface Track {
  connected: boolean;
  /** When it connected, or since when it has not been (before this start, when it was last seen then). */
  since: number;
  /** Since when this node has been failing to reach it (never before this start). */
  downAt: number;
  /** When its "last seen" was last written down. */
  notedAt: number;
  failures: number;
  /** When the next dial may start. */
  nextAt: number;
  dialling: boolean;
}

export const backoffMs = (failures: number): number =>
  Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1));

export class Supervisor {
  private readonly tracks = new Map<string, Track>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastShown = "";

  constructor(private readonly node: Supervised) {}

  /** Starts supervising: dials what is wanted now, then looks again every `SUPERVISE_MS`. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), SUPERVISE_MS);
    this.check();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Redials every peer that is not connected now, without waiting out its back-off: a socket closed, the
   * browser came back online, the page was shown again.
   */
  wake(): void {
    if (!this.timer) return;
    for (const t of this.tracks.values()) if (!t.connected) t.nextAt = 0;
    this.check();
  }

  /** Each wanted peer's status, by public key. */
  status(): PeerStatus[] {
    const now = this.node.now();
    return [...this.tracks.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([pubkey, t]) => ({
        pubkey,
        state: t.connected
          ? "connected"
          : now - t.downAt >= UNREACHABLE_AFTER_MS && t.failures > 0
            ? "unreachable"
            : "connecting",
        since: t.since,
      }));
  }

  /** The status of one peer, or null when it is not supervised. */
  of(pubkey: string): PeerStatus | null {
    return this.status().find((s) => s.pubkey === pubkey) ?? null;
  }

  /** Looks at every wanted peer: notes who connected or dropped, and dials those whose turn has come. */
  check(): void {
    if (!this.timer) return;
    const now = this.node.now();
    const wanted = this.node.wanted();
    for (const pubkey of this.tracks.keys()) if (!wanted.has(pubkey)) this.tracks.delete(pubkey);
    for (const [pubkey, address] of wanted) {
      let t = this.tracks.get(pubkey);
      const connected = this.node.isConnected(pubkey);
      if (!t) {
        // Not connected yet: since it was last seen connected, before this start if it was.
        const since = connected ? now : Math.min(now, this.node.lastSeen(pubkey) ?? now);
        t = { connected, since, downAt: now, failures: 0, nextAt: 0, dialling: false, notedAt: 0 };
        this.tracks.set(pubkey, t);
      }
      if (connected !== t.connected) {
        t.connected = connected;
        t.since = now;
        t.downAt = now;
        // Connected now, or connected until now: either way seen now.
        t.notedAt = now;
        this.node.noteSeen(pubkey, now);
        if (connected) t.failures = 0;
        // A peer that just dropped is redialled at once.
        else t.nextAt = 0;
      }
      // Written when it connects or drops (above), and now and then while it stays connected.
      if (t.connected && now - t.notedAt >= SEEN_EVERY_MS) {
        t.notedAt = now;
        this.node.noteSeen(pubkey, now);
      }
      if (!t.connected && !t.dialling && now >= t.nextAt) this.dial(pubkey, address, t);
    }
    this.show();
  }

  private dial(pubkey: string, address: PeerAddress, t: Track): void {
    t.dialling = true;
    this.node.dial(address).then(
      () => {
        t.dialling = false;
        t.failures = 0;
        this.check();
      },
      (e: unknown) => {
        t.dialling = false;
        t.failures++;
        t.nextAt = this.node.now() + backoffMs(t.failures);
        this.node.log("info", `dial ${pubkey} (failure ${t.failures}): ${String(e)}`);
        this.check();
      },
    );
  }

  /** Tells the node's listener when what the screens would show changed. */
  private show(): void {
    const shown = JSON.stringify(this.status());
    if (shown === this.lastShown) return;
    this.lastShown = shown;
    try {
      this.node.changed();
    } catch (e) {
      this.node.log("error", `peer status listener: ${String(e)}`);
    }
  }
}

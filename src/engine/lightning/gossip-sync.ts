/**
 * Keeping the wallet's network graph fresh from its rapid gossip sync server (the `rgs` setting): a first
 * sync once the wallet is up (never before, so home is never held back by it), then every hour, and before
 * a payment when the last sync is older than that. Each sync asks for what changed since the timestamp the
 * stored graph carries (0 only the very first time), bounded in time and size like every request to a
 * server the wallet does not control. A sync that fails leaves the graph as it was; the payment goes on.
 */
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import type { Log } from "./chain";

export const GOSSIP_SYNC_EVERY_MS = 3_600_000;
/** A full mainnet snapshot is ~3.3 MB today (LDK's figures, 2024); room for growth, not for abuse. */
export const RGS_LIMITS: RequestLimits = { timeoutMs: 30_000, maxBytes: 20_000_000 };

/** What the sync needs of the node (`LightningNode` has it). */
export interface GossipTarget {
  /** Once the stored graph is read (the sync adds to it). */
  readonly lastGossipSync: () => Promise<number>;
  readonly applyGossipSnapshot: (bytes: Uint8Array) => Promise<number>;
}

export class GossipSync {
  private readonly fetch: FetchFn;
  private lastAt = 0;
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(
    private readonly node: GossipTarget,
    /** The server's snapshot URL, ending before the timestamp (`…/snapshot/`). */
    private readonly url: string,
    fetchFn: FetchFn,
    private readonly log: Log,
    private readonly now: () => number = Date.now,
  ) {
    this.fetch = boundedFetch(fetchFn, RGS_LIMITS);
  }

  /** Starts syncing once `ready` resolves (home is usable), unless stopped before. */
  startAfter(ready: Promise<void>): void {
    void ready.then(() => this.start());
  }

  /** Starts syncing: the first sync now, then every hour. */
  start(): void {
    if (this.timer || this.stopped) return;
    void this.sync();
    this.timer = setInterval(() => void this.sync(), GOSSIP_SYNC_EVERY_MS);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Syncs first when the last sync is older than an hour (before a payment); never throws. */
  async fresh(): Promise<void> {
    if (this.now() - this.lastAt >= GOSSIP_SYNC_EVERY_MS) await this.sync();
  }

  /** One sync (joined by any call while it runs); never throws, logs why it failed. */
  sync(): Promise<void> {
    this.running ??= this.once().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async once(): Promise<void> {
    const base = this.url.endsWith("/") ? this.url : `${this.url}/`;
    try {
      const since = await this.node.lastGossipSync();
      // In parts (each a short step for the node); a server that does not cut snapshots sends one whole, or
      // refuses the query and is asked again without it.
      let r = await this.fetch(`${base}${since}?parts`);
      if (r.status === 400 || r.status === 404) r = await this.fetch(`${base}${since}`);
      if (!r.ok) throw new Error(`the server answered ${r.status}`);
      const next = await this.node.applyGossipSnapshot(new Uint8Array(await r.arrayBuffer()));
      this.lastAt = this.now();
      this.log("info", `gossip synced ${since === 0 ? "in full" : `since ${since}`}; next from ${next}`);
    } catch (e) {
      this.log("warn", `gossip sync: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/**
 * The world's rapid gossip sync server: what a routing node of the world has collected of the network's
 * gossip (its LDK `NetworkGraph`, filled by `P2PGossipSync`), served in LDK's RGS format at
 * `GET /rgs/snapshot/<last_sync_timestamp>`: the whole graph at 0, what changed since after (see rgs.ts).
 * Every request is logged, so tests can see a wallet asked only for a delta (`GET /rgs/requests`). A test
 * that shares the world with others points its wallet at `/rgs/c/<client>/snapshot/` to find its own
 * requests in the log (`client`); the answers are the same.
 */
import type { ChannelGossip } from "../src/engine/lightning/gossip";
import { GossipHistory, type Snapshot } from "../services/gossip/rgs";
import type { RouteTable } from "../services/http";

export interface RgsRequest {
  readonly since: number;
  readonly kind: "full" | "delta";
  readonly latestSeen: number;
  readonly announcements: number;
  readonly updates: number;
  readonly bytes: number;
  /** The name a test gave its wallet's URL (`/rgs/c/<client>/snapshot/`), or null. */
  readonly client: string | null;
  /** Unix milliseconds. */
  readonly at: number;
}

export class RgsServer {
  readonly history: GossipHistory;
  readonly requests: RgsRequest[] = [];
  /** Where the gossip comes from: the collecting node's graph (none until the network is started). */
  source: (() => ChannelGossip[]) | null = null;

  constructor(now?: () => number, chainHash?: string) {
    this.history = new GossipHistory(now, chainHash);
  }

  /** Takes in what the source has seen since the last look. */
  refresh(): void {
    if (this.source) this.history.observe(this.source());
  }

  snapshot(since: number, client: string | null = null): Snapshot {
    this.refresh();
    const s = this.history.snapshot(since);
    if (this.requests.length >= 10_000) this.requests.shift();
    this.requests.push({
      since,
      kind: since === 0 ? "full" : "delta",
      latestSeen: s.latestSeen,
      announcements: s.announcements,
      updates: s.updates,
      bytes: s.bytes.length,
      client,
      at: Date.now(),
    });
    return s;
  }

  /** The snapshots, and (`operatorView`, the local world's) the log of requests tests read. */
  routes(opts: { operatorView?: boolean } = {}): RouteTable {
    const snapshots: RouteTable = [
      [
        "GET",
        /^\/rgs(?:\/c\/([\w-]{1,40}))?\/snapshot\/(\d{1,10})$/,
        (m) => ({ bytes: Buffer.from(this.snapshot(Number(m[2]), m[1] ?? null).bytes) }),
      ],
    ];
    if (opts.operatorView === false) return snapshots;
    return [...snapshots, ["GET", /^\/rgs\/requests$/, () => ({ json: this.requests })]];
  }
}

/**
 * Rapid gossip sync, the server's side: the network's public channels as a routing node has seen them,
 * kept with the time each announcement and update was first seen, written in LDK's rapid gossip sync
 * format (version 1), a full snapshot for `since = 0` and a delta after, as
 * lightningdevkit/rapid-gossip-sync-server serves them. The format (lightning-rapid-gossip-sync's README
 * and processing.rs, LDK 0.1):
 *
 *   "LDK" 0x01 · chain hash (32, internal order) · u32 latest_seen_timestamp
 *   u32 node count · 33-byte node ids
 *   u32 announcement count · per channel: features (u16 length + bytes), BigSize scid delta from the
 *     previous announcement, BigSize index of node 1, BigSize index of node 2
 *   u32 update count · (when > 0) defaults: u16 cltv_expiry_delta, u64 htlc_minimum_msat, u32 fee_base_msat,
 *     u32 fee_proportional_millionths, u64 htlc_maximum_msat · per update: BigSize scid delta from the
 *     previous update, a flags byte (0x80 incremental, 0x40 cltv, 0x20 htlc min, 0x10 base fee, 0x08
 *     proportional fee, 0x04 htlc max, 0x02 disabled, 0x01 direction), then the flagged fields. A full
 *     update's flags mark what differs from the defaults; an incremental one's mark what changed since the
 *     update the client already has (the latest one seen at or before `since`).
 *
 * The client dates everything it applies a week before latest_seen_timestamp and refuses data more than
 * two weeks old, so a snapshot's timestamp is when its newest piece was seen, and the clock that stamps
 * what is seen never runs behind a timestamp already served (a delta from it would miss the piece).
 */

import type { ChannelGossip, DirectionPolicy } from "../../src/engine/lightning/gossip";

export type { ChannelGossip, DirectionPolicy };

/** Regtest's genesis hash in internal byte order (the chain hash of every regtest gossip message). */
export const REGTEST_CHAIN_HASH = "06226e46111a0b59caaf126043eb5bbf28c34f3a5e332a1fc7b2b73cf188910f";

export interface Seen<T> {
  readonly seen: number;
  readonly value: T;
}

export interface ChannelRecord {
  readonly scid: bigint;
  readonly node1: string;
  readonly node2: string;
  readonly features: Uint8Array;
  readonly announced: number;
  readonly updates: [Seen<DirectionPolicy>[], Seen<DirectionPolicy>[]];
}

const samePolicy = (a: DirectionPolicy, b: DirectionPolicy): boolean =>
  a.disabled === b.disabled &&
  a.cltvExpiryDelta === b.cltvExpiryDelta &&
  a.htlcMinimumMsat === b.htlcMinimumMsat &&
  a.htlcMaximumMsat === b.htlcMaximumMsat &&
  a.feeBaseMsat === b.feeBaseMsat &&
  a.feeProportionalMillionths === b.feeProportionalMillionths;

class Writer {
  private chunks: number[] = [];
  u8(v: number): this {
    this.chunks.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v >>> 8).u8(v);
  }
  u32(v: number): this {
    return this.u16(v >>> 16).u16(v & 0xffff);
  }
  u64(v: bigint): this {
    return this.u32(Number((v >> 32n) & 0xffffffffn)).u32(Number(v & 0xffffffffn));
  }
  bytes(b: Uint8Array): this {
    for (const x of b) this.chunks.push(x);
    return this;
  }
  /** BOLT 1's BigSize: the shortest of 1, 3, 5 or 9 bytes, big-endian. */
  bigSize(v: bigint): this {
    if (v < 0xfdn) return this.u8(Number(v));
    if (v <= 0xffffn) return this.u8(0xfd).u16(Number(v));
    if (v <= 0xffffffffn) return this.u8(0xfe).u32(Number(v));
    return this.u8(0xff).u64(v);
  }
  done(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

const fromHex = (h: string): Uint8Array =>
  Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

/** The most frequent value (ties: the first met), as the server picks a snapshot's defaults. */
const mode = <T>(values: readonly T[], fallback: T): T => {
  const counts = new Map<T, number>();
  let best = fallback;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
};

/**
 * Pieces (announcements and updates) in one part of a snapshot asked for in parts: a browser tab applies
 * one in well under 250 ms on a busy machine (bench/graph.ts).
 */
export const RGS_PART_PIECES = 1_000;

type Update = { scid: bigint; direction: 0 | 1; value: DirectionPolicy; base: DirectionPolicy | null };

/** A snapshot cut in parts (`GossipHistory.snapshotParts`), each one a snapshot LDK's client reads. */
export interface SnapshotParts {
  readonly parts: readonly Uint8Array[];
  readonly latestSeen: number;
  readonly announcements: number;
  readonly updates: number;
}

export interface Snapshot {
  readonly bytes: Uint8Array;
  readonly latestSeen: number;
  readonly announcements: number;
  readonly updates: number;
}

/** What a routing node has seen of the network's gossip, and the snapshots made from it. */
export class GossipHistory {
  private readonly channels = new Map<bigint, ChannelRecord>();
  /** The newest latest_seen_timestamp served so far: nothing seen later may be stamped at or before it. */
  private served = 0;
  private newest = 0;

  constructor(
    /** Unix seconds. */
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
    private readonly chainHash: string = REGTEST_CHAIN_HASH,
  ) {}

  private stamp(): number {
    return Math.max(this.now(), this.served + 1, this.newest);
  }

  /** When the newest piece was first seen (unix seconds; 0 before any). */
  get newestSeen(): number {
    return this.newest;
  }

  /**
   * Takes up a history kept elsewhere (a database every process shares): its channels with their updates in
   * the order seen, the newest timestamp served and the newest seen.
   */
  restore(channels: Iterable<ChannelRecord>, served: number, newest: number): this {
    this.channels.clear();
    for (const c of channels) this.channels.set(c.scid, c);
    this.served = served;
    this.newest = newest;
    return this;
  }

  /** The newest latest_seen_timestamp served (nothing new may be stamped at or before it). */
  get servedUpTo(): number {
    return this.served;
  }

  /**
   * Records what is new or changed in `channels` (the routing node's graph as it is now); answers what it
   * recorded: the channels first announced, and each direction's new update.
   */
  observe(channels: Iterable<ChannelGossip>): {
    readonly announced: ChannelRecord[];
    readonly updated: { scid: bigint; direction: 0 | 1; update: Seen<DirectionPolicy> }[];
  } {
    let at: number | null = null;
    const seen = () => {
      at ??= this.stamp();
      this.newest = Math.max(this.newest, at);
      return at;
    };
    const announced: ChannelRecord[] = [];
    const updated: { scid: bigint; direction: 0 | 1; update: Seen<DirectionPolicy> }[] = [];
    for (const c of channels) {
      let record = this.channels.get(c.scid);
      if (!record) {
        const [node1, node2] = c.node1 < c.node2 ? [c.node1, c.node2] : [c.node2, c.node1];
        record = { scid: c.scid, node1, node2, features: c.features, announced: seen(), updates: [[], []] };
        this.channels.set(c.scid, record);
        announced.push(record);
      }
      for (const d of [0, 1] as const) {
        const p = c.updates[d];
        const history = record.updates[d];
        const last = history.at(-1);
        if (p && (!last || !samePolicy(last.value, p))) {
          const update = { seen: seen(), value: p };
          history.push(update);
          updated.push({ scid: c.scid, direction: d, update });
        }
      }
    }
    return { announced, updated };
  }

  /** The channels as last observed, for tests and the world's map. */
  current(): ChannelGossip[] {
    return [...this.channels.values()]
      .sort((a, b) => (a.scid < b.scid ? -1 : 1))
      .map((r) => ({
        scid: r.scid,
        node1: r.node1,
        node2: r.node2,
        features: r.features,
        updates: [r.updates[0].at(-1)?.value ?? null, r.updates[1].at(-1)?.value ?? null],
      }));
  }

  /** The snapshot for a client whose last sync returned `since` (0: never synced, the full graph). */
  snapshot(since: number): Snapshot {
    const { latest, announced, updates } = this.pieces(since);
    const bytes = this.write(latest, announced, updates);
    return { bytes, latestSeen: latest, announcements: announced.length, updates: updates.length };
  }

  /**
   * The same snapshot cut in parts of about `perPart` pieces (announcements and updates) each: every part a
   * snapshot of its own with the whole's latest_seen_timestamp, a channel's announcement and updates in the
   * same part, so the parts applied one after another give the graph the whole gives, and each is a short
   * step for the client that applies it. A part lists the node ids its announcements name, and the client
   * parses each one it reads (a secp256k1 point): channels go in parts by the node that has fewer of them,
   * those nodes grouped by their largest neighbour, so a node is named in as few parts as can be.
   */
  snapshotParts(since: number, perPart: number): SnapshotParts {
    const { latest, announced, updates } = this.pieces(since);
    const degree = new Map<string, number>();
    for (const r of announced) for (const n of [r.node1, r.node2]) degree.set(n, (degree.get(n) ?? 0) + 1);
    const smaller = (a: string, b: string) => {
      const da = degree.get(a) ?? 0;
      const db = degree.get(b) ?? 0;
      return da < db || (da === db && a < b);
    };
    const largestNeighbour = new Map<string, string>();
    for (const r of announced) {
      const [own, other] = smaller(r.node1, r.node2) ? [r.node1, r.node2] : [r.node2, r.node1];
      const held = largestNeighbour.get(own);
      if (!held || smaller(held, other)) largestNeighbour.set(own, other);
    }
    // Each channel's place: its smaller node's largest neighbour, then that node (updates of channels the
    // client has already come first, by short channel id).
    const place = new Map<bigint, string>();
    for (const r of announced) {
      const own = smaller(r.node1, r.node2) ? r.node1 : r.node2;
      place.set(r.scid, `${largestNeighbour.get(own)}${own}`);
    }
    const items = new Map<bigint, { announced: ChannelRecord | null; updates: Update[]; place: string }>();
    const item = (scid: bigint) => {
      let it = items.get(scid);
      if (!it) {
        it = { announced: null, updates: [], place: place.get(scid) ?? "" };
        items.set(scid, it);
      }
      return it;
    };
    for (const r of announced) item(r.scid).announced = r;
    for (const u of updates) item(u.scid).updates.push(u);
    const byScid = (x: { scid: bigint }, y: { scid: bigint }) =>
      x.scid < y.scid ? -1 : x.scid > y.scid ? 1 : 0;
    const ordered = [...items.values()].sort((x, y) => (x.place < y.place ? -1 : x.place > y.place ? 1 : 0));
    const parts: Uint8Array[] = [];
    let part: { announced: ChannelRecord[]; updates: Update[] } = { announced: [], updates: [] };
    const cut = () => {
      parts.push(this.write(latest, part.announced.sort(byScid), part.updates.sort(byScid)));
      part = { announced: [], updates: [] };
    };
    for (const it of ordered) {
      if (it.announced) part.announced.push(it.announced);
      part.updates.push(...it.updates);
      if (part.announced.length + part.updates.length >= perPart) cut();
    }
    if (parts.length === 0 || part.announced.length + part.updates.length > 0) cut();
    return { parts, latestSeen: latest, announcements: announced.length, updates: updates.length };
  }

  /** What a snapshot since `since` holds, in short channel id order; marks its timestamp served. */
  private pieces(since: number): { latest: number; announced: ChannelRecord[]; updates: Update[] } {
    const records = [...this.channels.values()].sort((a, b) => (a.scid < b.scid ? -1 : 1));
    let latest = since;
    for (const r of records) {
      latest = Math.max(latest, r.announced);
      for (const h of r.updates) latest = Math.max(latest, h.at(-1)?.seen ?? 0);
    }
    // Nothing seen yet: now (anything seen later is stamped after it).
    if (records.length === 0) latest = Math.max(since, this.served, this.now());
    this.served = Math.max(this.served, latest);

    const announced = records.filter((r) => r.announced > since);
    const updates: Update[] = [];
    for (const r of records) {
      for (const direction of [0, 1] as const) {
        const h = r.updates[direction];
        const last = h.at(-1);
        if (!last || last.seen <= since) continue;
        // The update the client holds: the latest one seen at or before its last sync.
        const base = since === 0 ? null : ([...h].reverse().find((u) => u.seen <= since)?.value ?? null);
        updates.push({ scid: r.scid, direction, value: last.value, base });
      }
    }
    return { latest, announced, updates };
  }

  /** One snapshot in LDK's format: `announced` and `updates` in short channel id order. */
  private write(latest: number, announced: readonly ChannelRecord[], updates: readonly Update[]): Uint8Array {
    const nodes: string[] = [];
    const index = new Map<string, number>();
    for (const r of announced) {
      for (const n of [r.node1, r.node2]) {
        if (!index.has(n)) {
          index.set(n, nodes.length);
          nodes.push(n);
        }
      }
    }
    const full = updates.filter((u) => u.base === null).map((u) => u.value);
    const defaults: DirectionPolicy = {
      disabled: false,
      cltvExpiryDelta: mode(
        full.map((p) => p.cltvExpiryDelta),
        0,
      ),
      htlcMinimumMsat: mode(
        full.map((p) => p.htlcMinimumMsat),
        0n,
      ),
      feeBaseMsat: mode(
        full.map((p) => p.feeBaseMsat),
        0,
      ),
      feeProportionalMillionths: mode(
        full.map((p) => p.feeProportionalMillionths),
        0,
      ),
      htlcMaximumMsat: mode(
        full.map((p) => p.htlcMaximumMsat),
        0n,
      ),
    };
    const w = new Writer().bytes(new Uint8Array([76, 68, 75, 1])).bytes(fromHex(this.chainHash));
    w.u32(latest).u32(nodes.length);
    for (const n of nodes) w.bytes(fromHex(n));
    w.u32(announced.length);
    let previous = 0n;
    for (const r of announced) {
      w.u16(r.features.length).bytes(r.features);
      w.bigSize(r.scid - previous);
      previous = r.scid;
      w.bigSize(BigInt(index.get(r.node1)!)).bigSize(BigInt(index.get(r.node2)!));
    }
    w.u32(updates.length);
    if (updates.length > 0) {
      w.u16(defaults.cltvExpiryDelta).u64(defaults.htlcMinimumMsat).u32(defaults.feeBaseMsat);
      w.u32(defaults.feeProportionalMillionths).u64(defaults.htlcMaximumMsat);
    }
    previous = 0n;
    for (const u of updates) {
      const ref = u.base ?? defaults;
      const v = u.value;
      let flags = u.direction | (v.disabled ? 0x02 : 0) | (u.base ? 0x80 : 0);
      if (v.cltvExpiryDelta !== ref.cltvExpiryDelta) flags |= 0x40;
      if (v.htlcMinimumMsat !== ref.htlcMinimumMsat) flags |= 0x20;
      if (v.feeBaseMsat !== ref.feeBaseMsat) flags |= 0x10;
      if (v.feeProportionalMillionths !== ref.feeProportionalMillionths) flags |= 0x08;
      if (v.htlcMaximumMsat !== ref.htlcMaximumMsat) flags |= 0x04;
      w.bigSize(u.scid - previous).u8(flags);
      previous = u.scid;
      if (flags & 0x40) w.u16(v.cltvExpiryDelta);
      if (flags & 0x20) w.u64(v.htlcMinimumMsat);
      if (flags & 0x10) w.u32(v.feeBaseMsat);
      if (flags & 0x08) w.u32(v.feeProportionalMillionths);
      if (flags & 0x04) w.u64(v.htlcMaximumMsat);
    }
    return w.done();
  }
}

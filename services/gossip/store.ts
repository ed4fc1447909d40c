/**
 * Rapid gossip sync kept in the database, as lightningdevkit/rapid-gossip-sync-server keeps it: every channel
 * announcement and channel update with the time it was first seen, and the newest timestamp served, shared by
 * every process on the database. So behind a balancer each process serves the same bytes for the same
 * request (a wallet's delta timestamp from one is read against the same history by another), and a restarted
 * process serves at once. A process with a gossip node records what it sees (`observe`, under the meta row's
 * lock: a piece is stamped once, never at or before a timestamp any process served); a snapshot is built once
 * per change of the history and kept (`snapshot`).
 */
import type { ChannelGossip, DirectionPolicy } from "../../src/engine/lightning/gossip";
import { type ChannelRecord, GossipHistory, type Seen, type Snapshot } from "./rgs";
import { packParts } from "../../src/engine/lightning/gossip";
import { type Sql, type SqlDb, tablesOnFirstUse } from "../storage/db";

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS rgs_channels (
    scid bigint PRIMARY KEY,
    node1 character(66) NOT NULL,
    node2 character(66) NOT NULL,
    features bytea NOT NULL,
    announced bigint NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS rgs_updates (
    id BIGSERIAL PRIMARY KEY,
    scid bigint NOT NULL,
    direction smallint NOT NULL,
    seen bigint NOT NULL,
    policy jsonb NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS rgs_updates_channel ON rgs_updates (scid, direction, id)",
  `CREATE TABLE IF NOT EXISTS rgs_meta (
    id integer PRIMARY KEY,
    served bigint NOT NULL,
    newest bigint NOT NULL,
    generation bigint NOT NULL
  )`,
  "INSERT INTO rgs_meta VALUES (1, 0, 0, 0) ON CONFLICT (id) DO NOTHING",
];

interface PolicyJson {
  readonly disabled: boolean;
  readonly cltv: number;
  readonly min: string;
  readonly max: string;
  readonly base: number;
  readonly prop: number;
}

const toJson = (p: DirectionPolicy): PolicyJson => ({
  disabled: p.disabled,
  cltv: p.cltvExpiryDelta,
  min: p.htlcMinimumMsat.toString(),
  max: p.htlcMaximumMsat.toString(),
  base: p.feeBaseMsat,
  prop: p.feeProportionalMillionths,
});

const fromJson = (j: PolicyJson): DirectionPolicy => ({
  disabled: j.disabled,
  cltvExpiryDelta: j.cltv,
  htlcMinimumMsat: BigInt(j.min),
  htlcMaximumMsat: BigInt(j.max),
  feeBaseMsat: j.base,
  feeProportionalMillionths: j.prop,
});

interface Meta {
  readonly served: number;
  readonly newest: number;
  readonly generation: number;
}

const readMeta = async (q: Sql, lock: boolean): Promise<Meta> => {
  const r = await q.query<{ served: string; newest: string; generation: string }>(
    `SELECT served, newest, generation FROM rgs_meta WHERE id=1${lock ? " FOR UPDATE" : ""}`,
  );
  const row = r.rows[0];
  return {
    served: Number(row?.served ?? 0),
    newest: Number(row?.newest ?? 0),
    generation: Number(row?.generation ?? 0),
  };
};

/** The whole history as the database keeps it. */
const readHistory = async (q: Sql): Promise<ChannelRecord[]> => {
  const channels = await q.query<{
    scid: string;
    node1: string;
    node2: string;
    features: Uint8Array;
    announced: string;
  }>("SELECT scid::text AS scid, node1, node2, features, announced FROM rgs_channels");
  const records = new Map<bigint, ChannelRecord>();
  for (const c of channels.rows)
    records.set(BigInt(c.scid), {
      scid: BigInt(c.scid),
      node1: c.node1,
      node2: c.node2,
      features: new Uint8Array(c.features),
      announced: Number(c.announced),
      updates: [[], []],
    });
  const updates = await q.query<{ scid: string; direction: number; seen: string; policy: PolicyJson }>(
    "SELECT scid::text AS scid, direction, seen, policy FROM rgs_updates ORDER BY id",
  );
  for (const u of updates.rows) {
    const record = records.get(BigInt(u.scid));
    const history = record?.updates[u.direction === 1 ? 1 : 0] as Seen<DirectionPolicy>[] | undefined;
    history?.push({ seen: Number(u.seen), value: fromJson(u.policy) });
  }
  return [...records.values()];
};

export const sqlGossip = (
  db: () => Promise<SqlDb>,
  chainHash: string,
  now: () => number = () => Math.floor(Date.now() / 1000),
) => {
  const open = tablesOnFirstUse(db, SCHEMA);
  let cache: { generation: number; snapshots: Map<string, Snapshot> } = {
    generation: -1,
    snapshots: new Map(),
  };

  /** Records what is new in `channels` (a gossip node's graph as it is now); answers how many pieces. */
  const observe = async (channels: readonly ChannelGossip[]): Promise<number> =>
    (await open()).transaction(async (tx) => {
      const meta = await readMeta(tx, true);
      const history = new GossipHistory(now, chainHash).restore(
        await readHistory(tx),
        meta.served,
        meta.newest,
      );
      const { announced, updated } = history.observe(channels);
      for (const c of announced)
        await tx.query("INSERT INTO rgs_channels VALUES ($1, $2, $3, $4, $5)", [
          c.scid.toString(),
          c.node1,
          c.node2,
          c.features,
          c.announced,
        ]);
      for (const u of updated)
        await tx.query("INSERT INTO rgs_updates (scid, direction, seen, policy) VALUES ($1, $2, $3, $4)", [
          u.scid.toString(),
          u.direction,
          u.update.seen,
          JSON.stringify(toJson(u.update.value)),
        ]);
      const pieces = announced.length + updated.length;
      if (pieces > 0)
        await tx.query("UPDATE rgs_meta SET newest=$1, generation=generation+1 WHERE id=1", [
          history.newestSeen,
        ]);
      return pieces;
    });

  /**
   * The snapshot for a client whose last sync returned `since`: the same bytes from every process for the
   * same history, built once per change of it. With `perPart`, the same snapshot cut in parts of about that
   * many pieces, in one body (`packParts`).
   */
  const snapshot = async (since: number, perPart?: number): Promise<Snapshot> => {
    const d = await open();
    const { generation } = await readMeta(d, false);
    if (cache.generation !== generation) cache = { generation, snapshots: new Map() };
    const key = perPart ? `${since}/${perPart}` : `${since}`;
    const kept = cache.snapshots.get(key);
    if (kept) return kept;
    const built = await d.transaction(async (tx) => {
      const meta = await readMeta(tx, true);
      const history = new GossipHistory(now, chainHash).restore(
        await readHistory(tx),
        meta.served,
        meta.newest,
      );
      let s: Snapshot;
      if (perPart) {
        const p = history.snapshotParts(since, perPart);
        s = {
          bytes: packParts(p.parts),
          latestSeen: p.latestSeen,
          announcements: p.announcements,
          updates: p.updates,
        };
      } else s = history.snapshot(since);
      if (history.servedUpTo > meta.served)
        await tx.query("UPDATE rgs_meta SET served=$1 WHERE id=1", [history.servedUpTo]);
      return { s, generation: meta.generation };
    });
    if (built.generation === cache.generation) {
      if (cache.snapshots.size >= 1_000) cache.snapshots.clear();
      cache.snapshots.set(key, built.s);
    }
    return built.s;
  };

  /** What /health reads: how many channels are known, and when the newest piece was first seen. */
  const state = async (): Promise<{ channels: number; newest: number }> => {
    const d = await open();
    const meta = await readMeta(d, false);
    const n = await d.query<{ n: string }>("SELECT count(*)::text AS n FROM rgs_channels");
    return { channels: Number(n.rows[0]?.n ?? 0), newest: meta.newest };
  };

  return { open, observe, snapshot, state };
};

export type SqlGossip = ReturnType<typeof sqlGossip>;

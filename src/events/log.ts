import { addIds, CHUNK_EVENTS, ID_BUCKETS, type IdBucket, idBucket, toChunks } from "./chunks";
import type { StoredEvent, WalletDb } from "./db";
import type { WalletEvent } from "./types";
import { upcast } from "./upcast";
import { validateEvent } from "./validate";
import { Unexpected } from "../errors";

/** A write to the `kv` table made in the same transaction as the command's events (`null` deletes). */
export interface KvWrite {
  readonly key: string;
  readonly value: unknown | null;
}

/**
 * Appends events and their engine blobs in one IndexedDB transaction, so an event is durable before
 * the command that produced it answers. Events already in the log (same id) are skipped: appending is
 * idempotent. Returns the events that were new, with their sequence numbers.
 *
 * Every event passes the import's own validation first: the log never holds an event its export could not
 * bring back (a server's answer written as a txid once made a wallet's own state file unimportable). One
 * that fails appends nothing and rejects with `Unexpected`.
 */
export const appendEvents = async (
  db: WalletDb,
  events: readonly WalletEvent[],
  kv: readonly KvWrite[] = [],
): Promise<StoredEvent[]> => {
  if (events.length === 0 && kv.length === 0) return [];
  for (const e of events) {
    const { seq: _seq, ...plain } = e as StoredEvent;
    const checked = validateEvent(plain);
    if (typeof checked === "string")
      throw new Unexpected({ message: `The wallet refused to record a malformed event: ${checked}` });
  }
  return appendChecked(db, events, kv);
};

/** Above this many buckets to look in, every bucket is read in one request rather than each looked up. */
const READ_ALL_BUCKETS_ABOVE = ID_BUCKETS / 4;

/** The log's tables: a transaction that reads or replaces the log names these. */
export const logTables = (db: WalletDb) => [db.log, db.logIds] as const;

/** Empties the log (in the caller's transaction, if any, over `logTables`). */
export const clearLog = async (db: WalletDb): Promise<void> => {
  await db.log.clear();
  await db.logIds.clear();
};

/** How many events the log holds. */
export const countEvents = async (db: WalletDb): Promise<number> =>
  (await db.log.toArray()).reduce((n, c) => n + c.events.length, 0);

/**
 * `appendEvents` for events that each already passed `validateEvent` (an import checked every event of its
 * file before it writes): the same idempotent append in one transaction, without checking them twice.
 */
export const appendChecked = (
  db: WalletDb,
  events: readonly WalletEvent[],
  kv: readonly KvWrite[] = [],
): Promise<StoredEvent[]> =>
  db.transaction("rw", db.log, db.logIds, db.kv, async () => {
    // Only the buckets of the new events' ids can hold them; an import's many events read every bucket.
    const wanted = [...new Set(events.map((e) => idBucket(e.id)))];
    const rows =
      wanted.length > READ_ALL_BUCKETS_ABOVE
        ? await db.logIds.toArray()
        : (await db.logIds.bulkGet(wanted)).filter((r): r is IdBucket => r !== undefined);
    const buckets = new Map(rows.map((r) => [r.bucket, [...r.ids]]));
    const seen = new Set<string>();
    for (const b of wanted) for (const id of buckets.get(b) ?? []) seen.add(id);
    const fresh: WalletEvent[] = [];
    for (const e of events) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      fresh.push(e);
    }
    let stored: StoredEvent[] = [];
    if (fresh.length > 0) {
      const tail = await db.log.orderBy("first").last();
      const next = tail ? (tail.events[tail.events.length - 1] as StoredEvent).seq + 1 : 1;
      stored = fresh.map((e, i) => {
        const { seq: _seq, ...plain } = e as StoredEvent;
        return { ...plain, seq: next + i } as StoredEvent;
      });
      // The last row is filled up first, so rows stay near their full size whatever the appends' sizes.
      const room = tail ? Math.max(0, CHUNK_EVENTS - tail.events.length) : 0;
      if (tail && room > 0)
        await db.log.put({ first: tail.first, events: [...tail.events, ...stored.slice(0, room)] });
      const rest = toChunks(stored.slice(room));
      if (rest.length > 0) await db.log.bulkAdd(rest);
      await db.logIds.bulkPut(
        addIds(
          buckets,
          stored.map((e) => e.id),
        ),
      );
    }
    for (const w of kv) {
      if (w.value === null) await db.kv.delete(w.key);
      else await db.kv.put({ key: w.key, value: w.value });
    }
    return stored;
  });

/** Every event after `afterSeq`, in log order, each at its type's current version. */
export const readEvents = (db: WalletDb, afterSeq = 0): Promise<StoredEvent[]> =>
  db.transaction("r", db.log, async () => {
    // The row holding `afterSeq` starts at or before it; every later row starts after it.
    const head = afterSeq > 0 ? await db.log.where("first").belowOrEqual(afterSeq).last() : undefined;
    const rows = await db.log.where("first").above(afterSeq).toArray();
    const out: StoredEvent[] = [];
    for (const row of head ? [head, ...rows] : rows)
      for (const e of row.events) if (e.seq > afterSeq) out.push(upcast(e) as StoredEvent);
    return out;
  });

export const readKv = async <T>(db: WalletDb, key: string): Promise<T | undefined> =>
  (await db.kv.get(key))?.value as T | undefined;

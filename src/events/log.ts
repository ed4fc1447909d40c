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

/** Above this many events, the log's ids are read in one pass of their index rather than looked up. */
const SCAN_IDS_ABOVE = 512;

/**
 * `appendEvents` for events that each already passed `validateEvent` (an import checked every event of its
 * file before it writes): the same idempotent append in one transaction, without checking them twice.
 */
export const appendChecked = (
  db: WalletDb,
  events: readonly WalletEvent[],
  kv: readonly KvWrite[] = [],
): Promise<StoredEvent[]> =>
  db.transaction("rw", db.events, db.kv, async () => {
    // A command's few events are looked up by id; an import's many are checked against every id at once.
    const known =
      events.length > SCAN_IDS_ABOVE
        ? await db.events.orderBy("id").keys()
        : await db.events
            .where("id")
            .anyOf(events.map((e) => e.id))
            .keys();
    const seen = new Set<string>(known as string[]);
    const rows: WalletEvent[] = [];
    for (const e of events) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      const { seq: _seq, ...plain } = e as StoredEvent;
      rows.push(plain as WalletEvent);
    }
    const seqs = rows.length > 0 ? await db.events.bulkAdd(rows as StoredEvent[], { allKeys: true }) : [];
    for (const w of kv) {
      if (w.value === null) await db.kv.delete(w.key);
      else await db.kv.put({ key: w.key, value: w.value });
    }
    return rows.map((e, i) => ({ ...e, seq: seqs[i] as number }) as StoredEvent);
  });

/** Every event after `afterSeq`, in log order, each at its type's current version. */
export const readEvents = async (db: WalletDb, afterSeq = 0): Promise<StoredEvent[]> =>
  (await db.events.where("seq").above(afterSeq).toArray()).map((e) => upcast(e) as StoredEvent);

export const readKv = async <T>(db: WalletDb, key: string): Promise<T | undefined> =>
  (await db.kv.get(key))?.value as T | undefined;

import type { WalletEvent } from "./types";

/**
 * How the event log lies in IndexedDB. One row per event made a 100,000-event import cost one database
 * request per event (seconds in Chromium), so the log is kept in rows of many events:
 *
 * - `log` rows (`LogChunk`) hold up to `CHUNK_EVENTS` consecutive events, keyed by the sequence number of
 *   their first event. Appends fill the last row, then start a new one; rows are never reordered.
 * - `logIds` rows (`IdBucket`) hold every id of the log, spread over `ID_BUCKETS` rows by a hash of the
 *   id, so an append finds whether an event is already in the log by reading the rows of its ids' buckets
 *   only (the log stays idempotent by id without one index entry per event).
 *
 * Both tables change only together, in the transaction that appends the events.
 */
export type StoredEvent = WalletEvent & { seq: number };

export interface LogChunk {
  /** The sequence number of `events[0]`; each event carries its own, increasing through the log. */
  readonly first: number;
  readonly events: readonly StoredEvent[];
}

export interface IdBucket {
  readonly bucket: number;
  readonly ids: readonly string[];
}

/** Events per `log` row: an import writes a few hundred rows, a command rewrites at most one of this size. */
export const CHUNK_EVENTS = 256;

/** Rows the log's ids are spread over. Part of the stored layout: changing it needs a migration. */
export const ID_BUCKETS = 512;

/** The `logIds` row an id belongs in: FNV-1a of its UTF-16 code units. */
export const idBucket = (id: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % ID_BUCKETS;
};

/** Cuts events (already numbered, in log order) into `log` rows of at most `CHUNK_EVENTS`. */
export const toChunks = (events: readonly StoredEvent[]): LogChunk[] => {
  const chunks: LogChunk[] = [];
  for (let i = 0; i < events.length; i += CHUNK_EVENTS) {
    const part = events.slice(i, i + CHUNK_EVENTS);
    chunks.push({ first: (part[0] as StoredEvent).seq, events: part });
  }
  return chunks;
};

/** Adds ids to the buckets given (changed in place); answers the buckets that changed. */
export const addIds = (buckets: Map<number, string[]>, ids: Iterable<string>): IdBucket[] => {
  const changed = new Set<number>();
  for (const id of ids) {
    const b = idBucket(id);
    const list = buckets.get(b);
    if (list) list.push(id);
    else buckets.set(b, [id]);
    changed.add(b);
  }
  return [...changed].map((bucket) => ({ bucket, ids: buckets.get(bucket) as string[] }));
};

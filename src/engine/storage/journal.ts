/**
 * The wallet's event log on the storage server (issue 32): an append-only list of entries (the log's events,
 * which carry every change of the owner-edited Automerge document too), so a restore on another device
 * brings back contacts, labels, settings and history, not only channels.
 *
 * - `wallet/head` holds `{count}`: how many entries the list has. Its version orders every append.
 * - An append of n entries at count c is one conditional `putObjects`: the head from c to c + n at the version
 *   read, and a new chunk `wallet/log/<c>` (version 0: it must not exist) holding the n entries. The server
 *   takes both or neither, and of two devices appending at the same head exactly one gets through; the other
 *   reads what it missed and appends again.
 * - Compaction (`compactJournal`) merges runs of small chunks into one: the run's first chunk rewritten with
 *   all its entries and the others deleted, in one call conditional on the head's version (rewritten with
 *   the same count) and on each chunk's. So an append and a compaction, or two compactions, never both get
 *   through, and the entries and their order never change.
 * - Reading from entry i lists the store's names (the wallet's own names come back from the opaque ones)
 *   and reads the chunks at or after i, in order; a listing a compaction changed under the read is read
 *   again, and a gap that stays is a bad answer.
 * - This device keeps the count it last saw (`seen`); a head below it is a rollback, never merged from.
 */
import { badAnswer, ROLLBACK_TEXT, StorageConflict, StorageRollback } from "./errors";
import type { SealedStore, SealedWrite } from "./sealed";

export const JOURNAL_HEAD = "wallet/head";
export const JOURNAL_CHUNK_PREFIX = "wallet/log/";
/** The most entries one chunk holds (an append of more writes several chunks in one call). */
export const JOURNAL_CHUNK_ENTRIES = 200;

export interface JournalHead {
  readonly count: number;
  /** The head's version on the server; 0 when it has none yet. */
  readonly version: bigint;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export const readHead = async (store: SealedStore): Promise<JournalHead> => {
  const v = await store.get(JOURNAL_HEAD);
  if (!v) return { count: 0, version: 0n };
  const parsed = (() => {
    try {
      return JSON.parse(fromUtf8.decode(v.value)) as { count?: unknown };
    } catch {
      return null;
    }
  })();
  const count = parsed?.count;
  if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0)
    throw badAnswer("the stored log's head is unreadable");
  return { count, version: v.version };
};

/** A chunk of the journal as a listing names it: its first entry's index and its version. */
interface ChunkRef {
  readonly start: number;
  readonly version: bigint;
}

/** The journal's chunks that hold entries below `count`, by their first entry. */
const listChunks = async (store: SealedStore, count: number): Promise<ChunkRef[]> => {
  const listing = await store.list();
  return listing.names
    .filter((n) => n.name.startsWith(JOURNAL_CHUNK_PREFIX))
    .map((n) => ({ start: Number(n.name.slice(JOURNAL_CHUNK_PREFIX.length)), version: n.version }))
    .filter((c) => Number.isSafeInteger(c.start) && c.start >= 0 && c.start < count)
    .sort((a, b) => a.start - b.start);
};

const readChunk = async (
  store: SealedStore,
  start: number,
): Promise<{ items: string[]; version: bigint } | null> => {
  const chunk = await store.get(`${JOURNAL_CHUNK_PREFIX}${start}`);
  if (!chunk) return null;
  const items = (() => {
    try {
      return JSON.parse(fromUtf8.decode(chunk.value)) as unknown;
    } catch {
      return null;
    }
  })();
  if (!Array.isArray(items) || !items.every((i) => typeof i === "string") || items.length === 0)
    throw badAnswer("a stored log chunk is unreadable");
  return { items: items as string[], version: chunk.version };
};

/** The listing and the chunks disagree: another device compacted the journal while it was read. */
class ReadAgain extends Error {}

const readOnce = async (
  store: SealedStore,
  from: number,
  seen: number,
): Promise<{ head: JournalHead; entries: string[] }> => {
  const head = await readHead(store);
  if (head.count < seen) throw new StorageRollback({ message: ROLLBACK_TEXT });
  if (head.count <= from) return { head, entries: [] };
  const starts = (await listChunks(store, head.count)).map((c) => c.start);
  // The chunk holding `from` starts at or before it; every later chunk is read whole. A chunk that starts
  // inside one read before was merged into it by a compaction: its entries are already read.
  const first = starts.filter((s) => s <= from).at(-1);
  if (first === undefined) throw new ReadAgain();
  const entries: string[] = [];
  let at = first;
  for (const start of starts.filter((s) => s >= first)) {
    if (start < at) continue;
    if (start !== at) throw new ReadAgain();
    const chunk = await readChunk(store, start);
    if (!chunk) throw new ReadAgain();
    for (const [i, item] of chunk.items.entries()) if (start + i >= from) entries.push(item);
    at = start + chunk.items.length;
    if (at >= head.count) break;
  }
  if (at < head.count) throw new ReadAgain();
  return { head, entries: entries.slice(0, head.count - from) };
};

/** How often a read starts again when a compaction changed the journal under it. */
const READ_ATTEMPTS = 3;

/**
 * The entries from index `from` up to the head's count (the head read first: entries appended after it are
 * left for the next read). Fails with `StorageRollback` when the head is
 * below `seen`; a journal that still misses entries when read again is a bad answer.
 */
export const readJournal = async (
  store: SealedStore,
  from: number,
  seen = from,
): Promise<{ head: JournalHead; entries: string[] }> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(store, from, seen);
    } catch (e) {
      if (!(e instanceof ReadAgain)) throw e;
      if (attempt >= READ_ATTEMPTS) throw badAnswer("the stored log misses entries");
    }
  }
};

/**
 * Appends `entries` at `head` (as read); fails with `StorageConflict` (from the store) when another append
 * got there first: read again, then append what is still missing.
 */
export const appendJournal = async (
  store: SealedStore,
  head: JournalHead,
  entries: readonly string[],
): Promise<JournalHead> => {
  if (entries.length === 0) return head;
  const chunks = [];
  for (let i = 0; i < entries.length; i += JOURNAL_CHUNK_ENTRIES)
    chunks.push({
      name: `${JOURNAL_CHUNK_PREFIX}${head.count + i}`,
      version: 0n,
      value: utf8.encode(JSON.stringify(entries.slice(i, i + JOURNAL_CHUNK_ENTRIES))),
    });
  const count = head.count + entries.length;
  await store.put([
    { name: JOURNAL_HEAD, version: head.version, value: utf8.encode(JSON.stringify({ count })) },
    ...chunks,
  ]);
  return { count, version: head.version + 1n };
};

/** How many appends of a device (each may leave a small chunk) it makes before it compacts the journal. */
export const COMPACT_AFTER_APPENDS = 16;
/** The most entries a compacted chunk holds (a few hundred KB of events; well under a request's limit). */
export const COMPACTED_CHUNK_ENTRIES = 1000;
/** The most chunks one compaction writes and deletes (the rest waits for the next; vss allows 1000). */
const MAX_COMPACT_ITEMS = 500;

/**
 * Merges runs of small chunks (one per sync burst) into chunks of up to `COMPACTED_CHUNK_ENTRIES`, so a
 * restore reads a few objects rather than one per burst. One conditional `putObjects`: the head rewritten
 * at the version read (same count), each merged run's first chunk rewritten at its version with the run's
 * entries, the run's other chunks deleted at theirs. An append or another compaction in between changes the
 * head's version, so the server refuses the whole call (`StorageConflict`) and nothing changes: no entry
 * can be lost, and the count never goes down (a head below `seen` is still a rollback). Answers how many
 * chunks it removed.
 */
export const compactJournal = async (store: SealedStore, seen = 0): Promise<number> => {
  const head = await readHead(store);
  if (head.count < seen) throw new StorageRollback({ message: ROLLBACK_TEXT });
  if (head.count === 0) return 0;
  const chunks = await listChunks(store, head.count);
  const sizes = chunks.map((c, i) => (chunks[i + 1]?.start ?? head.count) - c.start);
  // Consecutive chunks, greedily, while together they fit one compacted chunk.
  const runs: number[][] = [];
  let run: number[] = [];
  let size = 0;
  for (const [i, n] of sizes.entries()) {
    if (run.length > 0 && (size + n > COMPACTED_CHUNK_ENTRIES || run.length >= MAX_COMPACT_ITEMS - 1)) {
      runs.push(run);
      run = [];
      size = 0;
    }
    run.push(i);
    size += n;
  }
  if (run.length > 0) runs.push(run);
  const merged = runs.filter((r) => r.length > 1);
  if (merged.length === 0) return 0;
  const writes: SealedWrite[] = [
    { name: JOURNAL_HEAD, version: head.version, value: utf8.encode(JSON.stringify({ count: head.count })) },
  ];
  const deletes: { name: string; version: bigint }[] = [];
  for (const r of merged) {
    if (writes.length + deletes.length + r.length >= MAX_COMPACT_ITEMS) break;
    const items: string[] = [];
    for (const i of r) {
      const ref = chunks[i] as ChunkRef;
      const chunk = await readChunk(store, ref.start);
      // Each chunk holds the entries up to the next one's start; one that does not, or changed since the
      // listing, was rewritten by another device's compaction, which stands.
      if (!chunk || chunk.version !== ref.version || chunk.items.length !== sizes[i])
        throw new StorageConflict({ message: "the stored log changed while it was compacted" });
      items.push(...chunk.items);
    }
    const [first, ...rest] = r.map((i) => chunks[i] as ChunkRef);
    if (!first) continue;
    writes.push({
      name: `${JOURNAL_CHUNK_PREFIX}${first.start}`,
      version: first.version,
      value: utf8.encode(JSON.stringify(items)),
    });
    for (const c of rest) deletes.push({ name: `${JOURNAL_CHUNK_PREFIX}${c.start}`, version: c.version });
  }
  if (deletes.length === 0) return 0;
  await store.put(writes, deletes);
  return deletes.length;
};

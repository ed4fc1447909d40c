/**
 * The wallet's event log on the storage server (issue 32): an append-only list of entries (the log's events,
 * which carry every change of the owner-edited Automerge document too), so a restore on another device
 * brings back contacts, labels, settings and history, not only channels.
 *
 * - `wallet/head` holds `{count}`: how many entries the list has. Its version orders every append.
 * - An append of n entries at count c is one conditional `putObjects`: the head from c to c + n at the version
 *   read, and a new chunk `wallet/log/<c>` (version 0: it must not exist) holding the n entries. The server
 *   takes both or neither, and of two devices appending at the same head exactly one gets through; the other
 *   reads what it missed and appends again. Chunks are never rewritten.
 * - Reading from entry i lists the store's names (the wallet's own names come back from the opaque ones)
 *   and reads the chunks at or after i, in order; a gap or an overlap is a bad answer.
 * - This device keeps the count it last saw (`seen`); a head below it is a rollback, never merged from.
 */
import { badAnswer, ROLLBACK_TEXT, StorageRollback } from "./errors";
import type { SealedStore } from "./sealed";

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

/**
 * The entries from index `from` up to the head's count (the head read first: entries appended after it are
 * left for the next read). Fails with `StorageRollback` when the head is below `seen`.
 */
export const readJournal = async (
  store: SealedStore,
  from: number,
  seen = from,
): Promise<{ head: JournalHead; entries: string[] }> => {
  const head = await readHead(store);
  if (head.count < seen) throw new StorageRollback({ message: ROLLBACK_TEXT });
  if (head.count <= from) return { head, entries: [] };
  const listing = await store.list();
  const starts = listing.names
    .filter((n) => n.name.startsWith(JOURNAL_CHUNK_PREFIX))
    .map((n) => Number(n.name.slice(JOURNAL_CHUNK_PREFIX.length)))
    .filter((s) => Number.isSafeInteger(s) && s < head.count)
    .sort((a, b) => a - b);
  // The chunk holding `from` starts at or before it; every later chunk is read whole.
  const first = starts.filter((s) => s <= from).at(-1);
  const wanted = starts.filter((s) => s >= (first ?? from));
  const entries: string[] = [];
  let at = first ?? from;
  if (first === undefined) throw badAnswer("the stored log misses entries");
  for (const start of wanted) {
    if (start !== at) throw badAnswer("the stored log misses entries");
    const chunk = await store.get(`${JOURNAL_CHUNK_PREFIX}${start}`);
    if (!chunk) throw badAnswer("the stored log misses entries");
    const items = (() => {
      try {
        return JSON.parse(fromUtf8.decode(chunk.value)) as unknown;
      } catch {
        return null;
      }
    })();
    if (!Array.isArray(items) || !items.every((i) => typeof i === "string") || items.length === 0)
      throw badAnswer("a stored log chunk is unreadable");
    for (const [i, item] of (items as string[]).entries()) if (start + i >= from) entries.push(item);
    at = start + items.length;
    if (at >= head.count) break;
  }
  if (at < head.count) throw badAnswer("the stored log misses entries");
  return { head, entries: entries.slice(0, head.count - from) };
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

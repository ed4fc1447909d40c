/**
 * The wallet's log on the storage server (issue 32): every event this device records goes up to the
 * server's journal (`src/engine/storage/journal.ts`), and what other devices of the same words wrote there
 * comes down into this log. The events carry every change of the owner-edited Automerge document, so a
 * restore on a new browser brings back contacts, labels, settings and history with the channels.
 *
 * It runs only while this device holds the device lock (the node started on the server's state), so one
 * device writes at a time; the journal's conditional appends keep even a race from losing an event.
 * This device records how far it is in step (`LOG_RECORD_KEY`): the journal's count it last saw and the
 * last of its own events it sent. A journal below that count is a rollback and is never merged from.
 */
import type { StoredEvent, WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import type { WalletEvent } from "../../events/types";
import { validateEvent } from "../../events/validate";
import { DEVICE_ID_KEY, deviceLockRemainingSecs } from "../../engine/storage/device-lock";
import {
  appendJournal,
  COMPACT_AFTER_APPENDS,
  compactJournal,
  readHead,
  readJournal,
} from "../../engine/storage/journal";
import { badAnswer, StorageConflict } from "../../engine/storage/errors";
import type { SealedStore } from "../../engine/storage/sealed";
import type { BlobStore } from "../../engine/lightning/store";

/** This device's record of the journal on its storage server (local only, like every `storage/` key). */
export const LOG_RECORD_KEY = "storage/log";
/** The most events one append sends (a body well under a server's request limit). */
export const APPEND_MAX_EVENTS = 400;

interface LogRecord {
  /** The storage server it is about (another server starts from nothing). */
  readonly url: string;
  /** The journal's count this device last saw (read or written). */
  readonly count: number;
  /** The log's last sequence number sent or brought in. */
  readonly seq: number;
  /** Appends this device made since it last compacted the journal (each may leave a small chunk). */
  readonly appends?: number;
}

export interface LogSyncDeps {
  readonly db: WalletDb;
  /** The device's engine-blob store (sealed at rest with the password): the record is kept there. */
  readonly local: BlobStore;
  readonly store: SealedStore;
  readonly url: string;
  /** Appends events another device recorded (in the command queue), folding them; answers those new here. */
  readonly merge: (events: readonly WalletEvent[]) => Promise<readonly StoredEvent[]>;
}

export interface LogSyncResult {
  /** Events brought in that this device did not have. */
  readonly pulled: number;
  /** Events of this device sent up. */
  readonly pushed: number;
  /** This device had not synced with this server before (a new browser, or a new server). */
  readonly first: boolean;
}

const readRecord = async (local: BlobStore, url: string): Promise<LogRecord | null> => {
  const bytes = await local.get(LOG_RECORD_KEY);
  const row = bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as Partial<LogRecord>) : undefined;
  return row?.url === url && typeof row.count === "number" && typeof row.seq === "number"
    ? { url, count: row.count, seq: row.seq, appends: typeof row.appends === "number" ? row.appends : 0 }
    : null;
};

/** Whether no other device holds the device lock (this device's own, or none; not when the server is silent). */
export const noOtherDeviceRuns = async (local: BlobStore, lock: SealedStore): Promise<boolean> => {
  const id = await local.get(DEVICE_ID_KEY);
  return (await deviceLockRemainingSecs(lock, id ? new TextDecoder().decode(id) : "")) === 0;
};

/**
 * Whether this device's log is in step with the storage server at `url` now: it holds everything the
 * server's journal does (the count it last saw is the journal's; a wallet made here and never synced, with
 * an empty journal, is too), and no other device holds the device lock, so none writes meanwhile. Ecash
 * recovered from the seed otherwise would count proofs whose receipt another device's events, arriving
 * later, count again (`restoreEcash`, `resyncFederation`). A server that cannot be read is not in step.
 */
export const logInStep = async (
  local: BlobStore,
  stores: { readonly store: SealedStore; readonly lock: SealedStore },
  url: string,
): Promise<boolean> => {
  const { store, lock } = stores;
  try {
    const [record, head] = await Promise.all([readRecord(local, url), readHead(store)]);
    if (head.count !== (record?.count ?? 0)) return false;
    return await noOtherDeviceRuns(local, lock);
  } catch {
    return false;
  }
};

const parseEntry = (entry: string): WalletEvent => {
  let raw: unknown;
  try {
    raw = JSON.parse(entry);
  } catch {
    throw badAnswer("a stored event is unreadable");
  }
  const e = validateEvent(raw);
  if (typeof e === "string") throw badAnswer(`a stored event is not valid: ${e}`);
  return e;
};

const entryOf = (e: StoredEvent): string => {
  const { seq: _seq, ...plain } = e;
  return JSON.stringify(plain);
};

/**
 * Brings in what the journal has beyond this device's record, then sends this device's events it has not
 * sent; another append in between makes it read and try again (a few times). Fails with the storage's
 * tagged errors (`StorageRollback` when the journal is behind what this device saw).
 */
export const syncLog = async (deps: LogSyncDeps): Promise<LogSyncResult> => {
  const { db, store, url } = deps;
  const recorded = await readRecord(deps.local, url);
  const record = recorded ?? { url, count: 0, seq: 0 };
  let pulled = 0;
  // Every id read from the journal in this sync: never sent back up.
  const there = new Set<string>();
  for (let attempt = 0; ; attempt++) {
    const { head, entries } = await readJournal(store, record.count);
    const incoming = entries.map(parseEntry);
    for (const e of incoming) there.add(e.id);
    if (incoming.length > 0) pulled += (await deps.merge(incoming)).length;
    const local = await readEvents(db, record.seq);
    const seq = local.at(-1)?.seq ?? record.seq;
    // A wallet is created once: a device restoring the words keeps its own creation to itself, so every
    // device's log names the wallet by the first one's id (an export of one merges into the other).
    const outgoing = local
      .filter((e) => !there.has(e.id) && (head.count === 0 || e.type !== "wallet.created"))
      .map(entryOf);
    try {
      let at = head;
      let appends = record.appends ?? 0;
      for (let i = 0; i < outgoing.length; i += APPEND_MAX_EVENTS) {
        at = await appendJournal(store, at, outgoing.slice(i, i + APPEND_MAX_EVENTS));
        appends++;
      }
      // Every so many appends the journal's small chunks are merged, so a restore reads few objects. The
      // events are already up: a compaction refused (another device got there first) or not answered
      // waits for the next time.
      if (appends >= COMPACT_AFTER_APPENDS) {
        const compacted = await compactJournal(store, at.count).then(
          () => true,
          () => false,
        );
        if (compacted) appends = 0;
      }
      const next: LogRecord = { url, count: at.count, seq, appends };
      await deps.local.put([{ key: LOG_RECORD_KEY, value: new TextEncoder().encode(JSON.stringify(next)) }]);
      return { pulled, pushed: outgoing.length, first: recorded === null };
    } catch (e) {
      if (!(e instanceof StorageConflict) || attempt >= 4) throw e;
    }
  }
};

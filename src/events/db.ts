import Dexie, { type Table, type Transaction } from "dexie";
import { addIds, type IdBucket, type LogChunk, type StoredEvent, toChunks } from "./chunks";

export type { IdBucket, LogChunk, StoredEvent } from "./chunks";

export interface KvRow {
  readonly key: string;
  readonly value: unknown;
}

export interface SnapshotRow {
  readonly name: string;
  readonly seq: number;
  readonly state: unknown;
}

/**
 * The wallet's IndexedDB database: the append-only event log (`log` rows of many events and the `logIds`
 * that keep it idempotent, see `chunks.ts`; read and written only through `log.ts`), `kv` engine blobs
 * and secrets, and `snapshots` that cache folds (an optimisation, never a source of truth).
 */
export class WalletDb extends Dexie {
  log!: Table<LogChunk, number>;
  logIds!: Table<IdBucket, number>;
  kv!: Table<KvRow, string>;
  snapshots!: Table<SnapshotRow, string>;

  constructor(name: string) {
    super(name);
    // Version 1 kept one row per event.
    this.version(1).stores({ events: "++seq, &id, type", kv: "key", snapshots: "name" });
    this.version(2).stores({ events: null, log: "first", logIds: "bucket" }).upgrade(toChunkedLog);
  }
}

/** Moves a version-1 log (one row per event) into rows of many events, every event and number kept. */
const toChunkedLog = async (tx: Transaction): Promise<void> => {
  const events = (await tx.table("events").toArray()) as StoredEvent[];
  if (events.length === 0) return;
  await tx.table("log").bulkAdd(toChunks(events));
  await tx.table("logIds").bulkAdd(
    addIds(
      new Map(),
      events.map((e) => e.id),
    ),
  );
};

/** Each network's wallet lives in its own database, so switching networks never mixes two logs. */
export { walletDbName } from "./db-name";

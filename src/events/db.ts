import Dexie, { type Table } from "dexie";
import type { WalletEvent } from "./types";

export type StoredEvent = WalletEvent & { seq: number };

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
 * The wallet's IndexedDB database: the append-only `events` log, `kv` engine blobs and secrets, and
 * `snapshots` that cache folds (an optimisation, never a source of truth).
 */
export class WalletDb extends Dexie {
  events!: Table<StoredEvent, number>;
  kv!: Table<KvRow, string>;
  snapshots!: Table<SnapshotRow, string>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ events: "++seq, &id, type", kv: "key", snapshots: "name" });
  }
}

/** Each network's wallet lives in its own database, so switching networks never mixes two logs. */
export { walletDbName } from "./db-name";

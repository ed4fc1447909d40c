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

  constructor(name = WALLET_DB_NAME) {
    super(name);
    this.version(1).stores({ events: "++seq, &id, type", kv: "key", snapshots: "name" });
  }
}

export const WALLET_DB_NAME = "mutiny-wallet";

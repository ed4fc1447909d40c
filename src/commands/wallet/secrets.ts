/**
 * The wallet's secrets on this device: the seed and the engines' blobs, sealed with the owner's password when
 * one is set. Every read and write of a sealed entry is serialised with password changes, so a change never
 * meets a half-written entry. The host asks this for the seed and the engines' store; nothing else reads
 * `kv`'s secret entries.
 */
import { Effect } from "effect";
import type { KdfParams, VaultKey } from "../../engine/vault";
import type { BlobStore } from "../../engine/lightning/store";
import type { KvRow, WalletDb } from "../../events/db";
import type { KvWrite } from "../../events/log";
import { readKv } from "../../events/log";
import { isEngineBlobKey, isSecretKey, KV } from "../../events/storage-keys";
import {
  isWalletError,
  Unexpected,
  unexpected,
  type WalletError,
  WalletState,
  wrongPassword,
} from "../../errors";
import {
  AT_REST_KDF_PARAMS,
  checkPasswordChange,
  lockedError,
  newVaultKey,
  openValue,
  readVault,
  rekeySecrets,
  sealValue,
  unlockVault,
} from "./at-rest";
import type { KeysPort } from "../keys-port";
import type { AtRest } from "./state-file";

/** An engine blob to store (`value`) or delete (`null`). */
export interface EngineBlobWrite {
  readonly key: string;
  readonly value: Uint8Array | null;
}

export class Secrets {
  /** Serialises every read and write of sealed entries with password changes. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The key once the owner unlocked (null while locked, and when no password is set). */
  private key: VaultKey | null = null;
  private mnemonicCache: string | null = null;

  private constructor(
    private readonly db: WalletDb,
    /** The stored check value while a password is set. */
    private vault: unknown,
    private readonly kdf: KdfParams,
  ) {}

  static async open(db: WalletDb, kdf: KdfParams = AT_REST_KDF_PARAMS): Promise<Secrets> {
    return new Secrets(db, await readVault(db), kdf);
  }

  /** A password is set and the owner has not entered it yet: nothing secret can be read. */
  get locked(): boolean {
    return this.vault !== undefined && this.key === null;
  }

  get hasPassword(): boolean {
    return this.vault !== undefined;
  }

  /** The seed's words, when the wallet has one and it is unlocked. */
  readonly keys: KeysPort = {
    mnemonic: () =>
      Effect.tryPromise({
        try: async () => {
          if (this.mnemonicCache) return this.mnemonicCache;
          const stored = await readKv<unknown>(this.db, KV.seed);
          const seed = (await openValue(this.key, KV.seed, stored)) as { mnemonic?: string } | undefined;
          if (!seed?.mnemonic)
            throw new WalletState({
              message: "There is no wallet on this device yet.",
              key: "errors.no_wallet",
            });
          this.mnemonicCache = seed.mnemonic;
          return seed.mnemonic;
        },
        catch: (e) => (isWalletError(e) ? e : unexpected(e)),
      }),
    nostrSecret: () =>
      Effect.tryPromise({
        try: () =>
          this.serial(async () => {
            if (this.locked) throw lockedError();
            const stored = await readKv<unknown>(this.db, KV.nostrSecret);
            if (stored === undefined) return null;
            const value = (await openValue(this.key, KV.nostrSecret, stored)) as
              | { nsec?: unknown }
              | undefined;
            return typeof value?.nsec === "string" ? value.nsec : null;
          }),
        catch: (e) => (isWalletError(e) ? e : unexpected(e)),
      }),
  };

  /** The engines' store: blobs sealed with the wallet's key when a password is set. */
  readonly store: BlobStore = {
    get: (key) => this.getEngineBlob(key),
    put: (writes) => this.putEngineBlobs(writes),
    keys: (prefix) => this.listEngineBlobKeys(prefix),
  };

  /** Runs `f` after every sealed read or write before it, as a wallet error on failure. */
  run<A>(f: () => Promise<A>): Effect.Effect<A, WalletError> {
    return Effect.tryPromise({
      try: () => this.serial(f),
      catch: (e) => (isWalletError(e) ? e : unexpected(e)),
    });
  }

  /** True when this opened a locked wallet. */
  async unlock(password: string): Promise<boolean> {
    if (!this.locked) return false;
    this.key = await unlockVault(this.vault, password);
    return true;
  }

  /** Sets, changes or removes the password; every sealed entry is re-sealed in one transaction. */
  async changePassword(
    change: { existing: string; password: string; confirm: string },
    wallet: { exists: boolean; backedUp: boolean },
  ): Promise<{ hasPassword: boolean }> {
    if (this.locked) throw lockedError();
    if (!wallet.exists)
      throw new WalletState({ message: "There is no wallet on this device yet.", key: "errors.no_wallet" });
    const problem = checkPasswordChange(change, wallet.backedUp);
    if (problem) throw problem;
    // The existing password must be the one set (blank when none is).
    const from = this.vault === undefined ? null : await unlockVault(this.vault, change.existing);
    if (this.vault === undefined && change.existing !== "") throw wrongPassword();
    const to = change.password === "" ? null : await newVaultKey(change.password, this.kdf);
    await rekeySecrets(this.db, from, to);
    this.vault = await readVault(this.db);
    this.key = to;
    return { hasPassword: to !== null };
  }

  /** Seals the secret ones among a decision's kv writes, before their transaction (WebCrypto cannot run in one). */
  sealWrites(writes: readonly KvWrite[]): Promise<KvWrite[]> {
    return this.serial(async () => {
      const out: KvWrite[] = [];
      for (const w of writes)
        out.push(
          w.value === null || !isSecretKey(w.key)
            ? w
            : { key: w.key, value: await sealValue(this.key, w.key, w.value) },
        );
      return out;
    });
  }

  /**
   * Secret entries on the way out of and into a state file: opened for an export, sealed with this
   * device's key for an import. An unlocked password stays in place when an import replaces the wallet.
   */
  atRest(): AtRest {
    const key = this.key;
    const mapRows = (f: (r: KvRow) => Promise<unknown>) => (rows: readonly KvRow[]) =>
      this.serial(async () => {
        const out: KvRow[] = [];
        for (const r of rows) out.push({ key: r.key, value: await f(r) });
        return out;
      });
    return {
      open: mapRows((r) => openValue(key, r.key, r.value)),
      seal: mapRows((r) => sealValue(key, r.key, r.value)),
      keep: key ? [KV.vault] : [],
    };
  }

  /** The seed was written anew: the next read takes it from the store. */
  forgetSeed(): void {
    this.mnemonicCache = null;
  }

  /** After an import or a delete: the vault on disk is the truth again. */
  async reload(): Promise<void> {
    this.mnemonicCache = null;
    this.vault = await readVault(this.db);
    if (this.vault === undefined) this.key = null;
  }

  /**
   * Stores and deletes engine blobs (keys starting with `ln/`) in one IndexedDB transaction, sealed with
   * the wallet's key when a password is set. Resolves once durable. Rejects with `PasswordRequired`
   * while locked and with `Unexpected` for a key outside the engine's prefix.
   */
  putEngineBlobs(writes: readonly EngineBlobWrite[]): Promise<void> {
    for (const w of writes) {
      if (!isEngineBlobKey(w.key))
        return Promise.reject(
          new Unexpected({
            message: `The lightning node's saved data could not be kept or read (${w.key}).`,
            key: "errors.engine_storage",
            values: { entry: w.key },
          }),
        );
      if (w.value !== null && !(w.value instanceof Uint8Array))
        return Promise.reject(
          new Unexpected({
            message: `The lightning node's saved data could not be kept or read (${w.key}).`,
            key: "errors.engine_storage",
            values: { entry: w.key },
          }),
        );
    }
    return this.serial(async () => {
      if (this.locked) throw lockedError();
      const key = this.key;
      const rows: { key: string; value: unknown }[] = [];
      for (const w of writes)
        rows.push({ key: w.key, value: w.value === null ? null : await sealValue(key, w.key, w.value) });
      const { db } = this;
      await db.transaction("rw", db.kv, async () => {
        for (const r of rows) {
          if (r.value === null) await db.kv.delete(r.key);
          else await db.kv.put(r);
        }
      });
    });
  }

  /** One engine blob, opened; undefined when absent. Rejects with `PasswordRequired` while locked. */
  getEngineBlob(key: string): Promise<Uint8Array | undefined> {
    return this.serial(async () => {
      const stored = await readKv<unknown>(this.db, key);
      if (stored === undefined) return undefined;
      const value = await openValue(this.key, key, stored);
      if (!(value instanceof Uint8Array))
        throw new Unexpected({
          message: `The lightning node's saved data could not be kept or read (${key}).`,
          key: "errors.engine_storage",
          values: { entry: key },
        });
      return value;
    });
  }

  /** The keys of stored engine blobs that start with `prefix`, in key order. */
  async listEngineBlobKeys(prefix: string): Promise<string[]> {
    const keys = (await this.db.kv.where("key").startsWith(prefix).primaryKeys()) as string[];
    return keys.filter(isEngineBlobKey);
  }

  private serial<A>(f: () => Promise<A>): Promise<A> {
    const next = this.queue.then(f);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

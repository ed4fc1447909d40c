/**
 * The lightning engine's store, durable locally and remotely (ARCHITECTURE.md rule 3, issue 32): a
 * `BlobStore` whose `put` resolves only once the writes are in the local store AND on the storage server, so
 * the output commit releases nothing on state that is not in both.
 *
 * - Each put of the node (one tick: the manager with every changed monitor) is one local transaction and one
 *   remote `putObjects`, conditional on each key's version and on the store's `global_version`: the server
 *   takes it whole or not at all, every key's version goes up by one, and a write from any other device in
 *   between makes it fail (`StateTakenOver`: the node must stop).
 * - The local transaction also records the versions the put gives the keys and the store (`VERSIONS_KEY`),
 *   so the device always knows the newest state it wrote.
 * - While the server cannot be reached the put waits (`onWaiting(true)`), retrying, so channel updates stay
 *   in progress and payments wait; it completes when the server is back.
 * - `open` reconciles at start. Remote ahead of the record (another device wrote): the remote state replaces
 *   the local one. Equal: in step, every key's version checked. Remote one put behind: that put reached only
 *   this device (a crash or cut between the two writes), so it is written again. Further behind, or a key older
 *   than recorded: `StorageRollback`, and nothing is loaded. No record and no local state: the remote state is
 *   brought in (a restore). Local state but no record: it is uploaded to an empty store.
 */
import {
  StateTakenOver,
  StorageConflict,
  StorageRollback,
  StorageUnavailable,
  ROLLBACK_TEXT,
  TAKEN_OVER_TEXT,
  UNREACHABLE_TEXT,
} from "./errors";
import type { SealedStore, SealedWrite } from "./sealed";
import type { BlobStore, BlobWrite } from "../lightning/store";

/** The local record of the versions this device last gave the remote store. */
export const VERSIONS_KEY = "storage/ln-versions";
/** Written with every put: which put of which device the store's state comes from. */
export const WRITER_NAME = "storage/ln-writer";

interface Versions {
  /** The store's `global_version` after the put. */
  readonly global: bigint;
  /** Each mirrored key's version after the put. */
  readonly keys: ReadonlyMap<string, bigint>;
  /** A random id of the put, also sealed in the store's writer record. */
  readonly putId: string;
}

/** The record: the versions the last put gives (`intended`) and those before it (`confirmed`, it was released). */
interface VersionRecord {
  readonly intended: Versions;
  readonly confirmed: Versions;
}

const toJson = (v: Versions) => ({
  global: v.global.toString(),
  keys: Object.fromEntries([...v.keys].map(([k, n]) => [k, n.toString()])),
  putId: v.putId,
});
const fromJson = (v: { global: string; keys: { [k: string]: string }; putId: string }): Versions => ({
  global: BigInt(v.global),
  keys: new Map(Object.entries(v.keys).map(([k, n]) => [k, BigInt(n)])),
  putId: v.putId,
});
const encodeRecord = (r: VersionRecord): Uint8Array =>
  new TextEncoder().encode(JSON.stringify({ intended: toJson(r.intended), confirmed: toJson(r.confirmed) }));
const decodeRecord = (b: Uint8Array | undefined): VersionRecord | null => {
  if (!b) return null;
  const v = JSON.parse(new TextDecoder().decode(b));
  return { intended: fromJson(v.intended), confirmed: fromJson(v.confirmed) };
};
const newPutId = () =>
  Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
const sameKeys = (a: ReadonlyMap<string, bigint>, b: ReadonlyMap<string, bigint>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

export interface MirrorOptions {
  readonly local: BlobStore;
  readonly remote: SealedStore;
  /** The prefix of every key mirrored (the lightning engine's `ln/`). */
  readonly prefix: string;
  /** Keys under `prefix` kept on this device only (the routing graph's cache: megabytes, rebuilt from gossip). */
  readonly localOnly?: readonly string[];
  /** Told `true` when a write waits for the server, `false` once it got through (the wallet's banner). */
  readonly onWaiting?: (waiting: boolean) => void;
  /** The first pause before retrying an unreachable server, doubled up to `maxRetryMs`. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
}

/** Whether `key` goes to the remote store under `opts`. */
const mirrored = (opts: MirrorOptions, key: string): boolean =>
  key.startsWith(opts.prefix) && !(opts.localOnly ?? []).some((p) => key.startsWith(p));

export type OpenedFrom = "in-step" | "remote" | "repushed" | "uploaded" | "empty";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class MirroredBlobStore implements BlobStore {
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly opts: MirrorOptions,
    private versions: Versions,
  ) {}

  /** Reconciles local and remote (see above) and answers the store and where its state came from. */
  static async open(opts: MirrorOptions): Promise<{ store: MirroredBlobStore; from: OpenedFrom }> {
    const { local, remote, prefix } = opts;
    const record = decodeRecord(await local.get(VERSIONS_KEY));
    const listing = await remote.list();
    const remoteKeys = new Map(
      listing.names.filter((n) => mirrored(opts, n.name)).map((n) => [n.name, n.version]),
    );
    const localKeys = (await local.keys(prefix)).filter((k) => mirrored(opts, k));
    const rollback = () => new StorageRollback({ message: ROLLBACK_TEXT });
    const writer = async () => {
      const w = await remote.get(WRITER_NAME);
      return w ? (JSON.parse(new TextDecoder().decode(w.value)) as { putId?: string }).putId : undefined;
    };
    const make = (v: Versions, from: OpenedFrom) => ({ store: new MirroredBlobStore(opts, v), from });
    /** The remote state replaces the local one; no key may be older than this device saw released. */
    const pull = async (): Promise<Versions> => {
      const writes: BlobWrite[] = [];
      const keys = new Map<string, bigint>();
      for (const [name, listed] of remoteKeys) {
        const v = await remote.get(name);
        if (!v || v.version !== listed) throw new StateTakenOver({ message: TAKEN_OVER_TEXT });
        if (record && v.version < (record.confirmed.keys.get(name) ?? 0n)) throw rollback();
        writes.push({ key: name, value: v.value });
        keys.set(name, v.version);
      }
      if (record) for (const k of record.confirmed.keys.keys()) if (!keys.has(k)) throw rollback();
      for (const k of localKeys) if (!remoteKeys.has(k)) writes.push({ key: k, value: null });
      const versions: Versions = { global: listing.globalVersion, keys, putId: (await writer()) ?? "" };
      await local.put([
        ...writes,
        { key: VERSIONS_KEY, value: encodeRecord({ intended: versions, confirmed: versions }) },
      ]);
      return versions;
    };

    if (!record) {
      if (localKeys.length === 0) {
        if (remoteKeys.size === 0)
          return make({ global: listing.globalVersion, keys: new Map(), putId: "" }, "empty");
        return make(await pull(), "remote");
      }
      // Channel state here but none recorded (a state file imported, or storage configured only now): the
      // store holds every state any device released, so where it has one, it is the newest and replaces
      // this one; otherwise this state goes up to it.
      if (remoteKeys.size > 0) return make(await pull(), "remote");
      const store = new MirroredBlobStore(opts, {
        global: listing.globalVersion,
        keys: new Map(),
        putId: "",
      });
      const writes: BlobWrite[] = [];
      for (const k of localKeys) writes.push({ key: k, value: (await local.get(k)) ?? null });
      await store.put(writes);
      return { store, from: "uploaded" };
    }
    const { intended, confirmed } = record;
    if (listing.globalVersion < confirmed.global) throw rollback();
    if (listing.globalVersion === intended.global) {
      // This device's last put, or another device's write after this one's released state.
      if ((await writer()) !== intended.putId) return make(await pull(), "remote");
      if (!sameKeys(remoteKeys, intended.keys)) throw rollback();
      return make(intended, "in-step");
    }
    if (listing.globalVersion > intended.global) return make(await pull(), "remote");
    // The store is at the released state and the last put reached only this device: write it again.
    if (listing.globalVersion !== confirmed.global || !sameKeys(remoteKeys, confirmed.keys)) throw rollback();
    const writes: SealedWrite[] = [];
    const deletes: { name: string; version: bigint }[] = [];
    for (const [k, v] of intended.keys) {
      const there = confirmed.keys.get(k) ?? 0n;
      if (there === v) continue;
      const value = await local.get(k);
      if (value) writes.push({ name: k, version: there, value });
    }
    for (const [k, there] of confirmed.keys)
      if (!intended.keys.has(k)) deletes.push({ name: k, version: there });
    const store = new MirroredBlobStore(opts, confirmed);
    await store.pushRemote(writes, deletes, intended);
    store.versions = intended;
    return { store, from: "repushed" };
  }

  get = (key: string) => this.opts.local.get(key);
  keys = (prefix: string) => this.opts.local.keys(prefix);

  /** Writes locally, then remotely (waiting out an unreachable server); resolves once both hold the writes. */
  put = (writes: readonly BlobWrite[]): Promise<void> => {
    const run = this.chain.then(() => this.putNow(writes));
    this.chain = run.catch(() => undefined);
    return run;
  };

  /** Stops retrying: a put still waiting for the server fails (the node is stopping). */
  close(): void {
    this.closed = true;
  }

  /** The versions this device last gave the remote store. */
  remoteVersions(): Versions {
    return this.versions;
  }

  private async putNow(writes: readonly BlobWrite[]): Promise<void> {
    const before = this.versions;
    const keys = new Map(before.keys);
    const sealed: SealedWrite[] = [];
    const deletes: { name: string; version: bigint }[] = [];
    for (const w of writes.filter((w) => mirrored(this.opts, w.key))) {
      const version = before.keys.get(w.key);
      if (w.value === null) {
        if (version !== undefined) deletes.push({ name: w.key, version });
        keys.delete(w.key);
      } else {
        sealed.push({ name: w.key, version: version ?? 0n, value: w.value });
        keys.set(w.key, (version ?? 0n) + 1n);
      }
    }
    if (sealed.length === 0 && deletes.length === 0) return this.opts.local.put(writes);
    const after: Versions = { global: before.global + 1n, keys, putId: newPutId() };
    await this.opts.local.put([
      ...writes,
      { key: VERSIONS_KEY, value: encodeRecord({ intended: after, confirmed: before }) },
    ]);
    await this.pushRemote(sealed, deletes, after);
    this.versions = after;
  }

  /** One remote put from `this.versions` to `after`, with the writer record; retried while unreachable. */
  private async pushRemote(
    sealed: readonly SealedWrite[],
    deletes: readonly { name: string; version: bigint }[],
    after: Versions,
  ): Promise<void> {
    const before = this.versions;
    const writer: SealedWrite = {
      name: WRITER_NAME,
      version: -1n,
      value: new TextEncoder().encode(JSON.stringify({ putId: after.putId })),
    };
    let pause = this.opts.retryMs ?? 1000;
    // Whether an earlier attempt may have landed though its answer never came.
    let mayHaveLanded = false;
    for (;;) {
      try {
        await this.opts.remote.put([...sealed, writer], deletes, before.global);
        if (mayHaveLanded) this.opts.onWaiting?.(false);
        return;
      } catch (e) {
        if (!(e instanceof StorageConflict || e instanceof StorageUnavailable)) throw e;
        if (e instanceof StorageConflict) {
          if (!mayHaveLanded) throw new StateTakenOver({ message: TAKEN_OVER_TEXT });
          try {
            // Then the store is at this put exactly if its writer record is this put's.
            const landed = await this.writerIs(after.putId);
            this.opts.onWaiting?.(false);
            if (landed) return;
            throw new StateTakenOver({ message: TAKEN_OVER_TEXT });
          } catch (check) {
            if (!(check instanceof StorageUnavailable)) throw check;
          }
        }
      }
      if (!mayHaveLanded) this.opts.onWaiting?.(true);
      mayHaveLanded = true;
      await sleep(pause);
      if (this.closed) throw new StorageUnavailable({ message: UNREACHABLE_TEXT });
      pause = Math.min(pause * 2, this.opts.maxRetryMs ?? 30_000);
    }
  }

  private async writerIs(putId: string): Promise<boolean> {
    const w = await this.opts.remote.get(WRITER_NAME);
    return !!w && (JSON.parse(new TextDecoder().decode(w.value)) as { putId?: string }).putId === putId;
  }
}

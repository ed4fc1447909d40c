/**
 * The lightning engine's store, durable locally and remotely (ARCHITECTURE.md rules 3 and 9, issues 32 and
 * 42): a `BlobStore` whose `put` resolves only once the writes are in the local store AND on the storage
 * server, so the output commit releases nothing on state that is not in both.
 *
 * - Each put of the node (one tick: the manager with every changed monitor) is one local transaction and one
 *   remote `putObjects`, conditional on each key's version and on the store's `global_version`: the server
 *   takes it whole or not at all, every key's version goes up by one, and a write from any other device in
 *   between makes it fail (`StateTakenOver`: the node must stop).
 * - Every put also writes the store's writer record, sealed like every value: the put's id, the
 *   `global_version` it gives the store, every mirrored key's version after it, and when. The server sees
 *   none of it and cannot make it up, so the versions it lists are checked against what the wallet sealed: a
 *   server cannot invent a higher global version, nor serve an older value of a key under the current one.
 * - The local transaction also records the versions the put gives the keys and the store (`VERSIONS_KEY`),
 *   so the device always knows the newest state it wrote.
 * - While the server cannot be reached the put waits (`onWaiting(true)`), retrying, so channel updates stay
 *   in progress and payments wait; it completes when the server is back.
 * - `open` (this device holds the device lock) reconciles at start. The server at this device's last put:
 *   in step. At the put before it (that put reached only this device): written again. At a newer put of
 *   another device (a writer record this device did not write, at a higher global version, no key older
 *   than this device saw): the remote state replaces the local one. Anything else (an older state, a state
 *   whose listing does not match its writer record, a key older than this device saw) is a server behind
 *   this device: the device goes on from its own newest state, writes all of it to the server again, and
 *   says which state each held (`behind`). No record and no local state: the remote state is brought in (a
 *   restore). Local state but no record: it is uploaded to an empty store.
 */
import {
  badAnswer,
  StateTakenOver,
  StorageConflict,
  StorageUnavailable,
  TAKEN_OVER_TEXT,
  UNREACHABLE_TEXT,
} from "./errors";
import {
  decodeManifest,
  decodeRecord,
  digestOf,
  encodeManifest,
  encodeRecord,
  newPutId,
  sameKeys,
  type Versions,
} from "./manifest";
import type { SealedStore, SealedWrite } from "./sealed";
import type { BlobStore, BlobWrite } from "../lightning/store";

/** The local record of the versions this device last gave the remote store. */
export const VERSIONS_KEY = "storage/ln-versions";
/** Written with every put, sealed: which put of which state the store holds (`Manifest`). */
export const WRITER_NAME = "storage/ln-writer";

/** Which state the device holds and which the server held when it was found behind (numbers of saves). */
export interface ServerBehind {
  readonly device: { readonly global: bigint; readonly at: number };
  /** `forged`: the server's listing does not match the state the wallet sealed there. */
  readonly server: { readonly global: bigint; readonly at: number; readonly forged: boolean };
}

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
  /** The clock a put is dated with (the writer record's `at`). */
  readonly now?: () => number;
}

/** Whether `key` goes to the remote store under `opts`. */
const mirrored = (opts: MirrorOptions, key: string): boolean =>
  key.startsWith(opts.prefix) && !(opts.localOnly ?? []).some((p) => key.startsWith(p));

/** `rewritten`: the server was behind this device (`behind` says how) and now holds this device's state. */
export type OpenedFrom = "in-step" | "remote" | "repushed" | "rewritten" | "uploaded" | "empty";

export interface Opened {
  readonly store: MirroredBlobStore;
  readonly from: OpenedFrom;
  readonly behind?: ServerBehind;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class MirroredBlobStore implements BlobStore {
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly opts: MirrorOptions,
    private versions: Versions,
    /** The SHA-256 of each mirrored key's value as this device last wrote or read it. */
    private readonly digests: Map<string, string>,
  ) {}

  /** Reconciles local and remote (see above) and answers the store and where its state came from. */
  static async open(opts: MirrorOptions): Promise<Opened> {
    const { local, remote, prefix } = opts;
    const record = decodeRecord(await local.get(VERSIONS_KEY));
    const listing = await remote.list();
    const remoteKeys = new Map(
      listing.names.filter((n) => mirrored(opts, n.name)).map((n) => [n.name, n.version]),
    );
    const localKeys = (await local.keys(prefix)).filter((k) => mirrored(opts, k));
    const digests = new Map<string, string>();
    const localValues = new Map<string, Uint8Array>();
    for (const k of localKeys) {
      const v = await local.get(k);
      if (v) {
        localValues.set(k, v);
        digests.set(k, digestOf(v));
      }
    }
    const written = await remote.get(WRITER_NAME);
    const manifest = written ? decodeManifest(written.value) : null;
    // The state the server holds, as the wallet sealed it; null when its listing does not match that.
    const listed: Versions = {
      global: listing.globalVersion,
      keys: remoteKeys,
      putId: manifest?.putId ?? "",
      at: 0,
    };
    const server: Versions | null = !manifest
      ? remoteKeys.size === 0
        ? listed
        : null
      : !manifest.versions
        ? listed
        : manifest.versions.global === listing.globalVersion && sameKeys(manifest.versions.keys, remoteKeys)
          ? manifest.versions
          : null;
    const make = (v: Versions, from: OpenedFrom, d = digests) => ({
      store: new MirroredBlobStore(opts, v, d),
      from,
    });

    /** The remote state replaces the local one; null if a key is older than this device saw released. */
    const pull = async (state: Versions): Promise<Opened | null> => {
      const writes: BlobWrite[] = [];
      const pulled = new Map<string, string>();
      for (const [name, version] of state.keys) {
        const v = await remote.get(name);
        if (!v || v.version !== version) throw new StateTakenOver({ message: TAKEN_OVER_TEXT });
        const digest = digestOf(v.value);
        const sealed = manifest?.digests?.get(name);
        if (sealed !== undefined && sealed !== digest)
          throw badAnswer(`${name} is not the value the store's writer record names`);
        if (record && v.version < (record.confirmed.keys.get(name) ?? 0n)) return null;
        writes.push({ key: name, value: v.value });
        pulled.set(name, digest);
      }
      if (record) for (const k of record.confirmed.keys.keys()) if (!state.keys.has(k)) return null;
      for (const k of localKeys) if (!state.keys.has(k)) writes.push({ key: k, value: null });
      await local.put([
        ...writes,
        { key: VERSIONS_KEY, value: encodeRecord({ intended: state, confirmed: state }) },
      ]);
      return make(state, "remote", pulled);
    };

    /**
     * Writes this device's whole state over the server's (at the versions it lists) and goes on from it.
     * `confirmed` stays the floor a later start holds the server to.
     */
    const rewrite = async (confirmed: Versions): Promise<MirroredBlobStore> => {
      const writes: SealedWrite[] = [];
      const deletes: { name: string; version: bigint }[] = [];
      const keys = new Map<string, bigint>();
      for (const [k, value] of localValues) {
        const there = remoteKeys.get(k) ?? 0n;
        writes.push({ name: k, version: there, value });
        keys.set(k, there + 1n);
      }
      for (const [k, there] of remoteKeys) if (!localValues.has(k)) deletes.push({ name: k, version: there });
      const after: Versions = {
        global: listing.globalVersion + 1n,
        keys,
        putId: newPutId(),
        at: (opts.now ?? Date.now)(),
      };
      await local.put([{ key: VERSIONS_KEY, value: encodeRecord({ intended: after, confirmed }) }]);
      const store = new MirroredBlobStore(opts, listed, digests);
      await store.pushRemote(writes, deletes, after);
      store.versions = after;
      return store;
    };

    if (!record) {
      if (remoteKeys.size > 0 && !server)
        throw badAnswer("its list of your channel state does not match what your wallet sealed there");
      if (localKeys.length === 0) {
        if (remoteKeys.size === 0 || !server) return make(listed, "empty");
        return (await pull(server)) ?? make(listed, "empty");
      }
      // Channel state here but none recorded (a state file imported, or storage configured only now): the
      // store holds every state any device released, so where it has one, it is the newest and replaces
      // this one; otherwise this state goes up to it.
      if (server && remoteKeys.size > 0) {
        const pulled = await pull(server);
        if (pulled) return pulled;
      }
      const store = new MirroredBlobStore(opts, listed, digests);
      const writes: BlobWrite[] = [...localValues].map(([key, value]) => ({ key, value }));
      await store.put(writes);
      return { store, from: "uploaded" };
    }
    const { intended, confirmed } = record;
    if (server) {
      if (server.putId === intended.putId && server.putId !== "") return make(intended, "in-step");
      // The store is at the released state and the last put reached only this device: write it again.
      if (
        server.putId === confirmed.putId &&
        server.global === confirmed.global &&
        sameKeys(server.keys, confirmed.keys)
      )
        return { store: await rewrite(confirmed), from: "repushed" };
      // Another device's put, after this one's released state.
      if (
        server.global > intended.global ||
        (server.global === intended.global && intended.putId !== confirmed.putId)
      ) {
        const pulled = await pull(server);
        if (pulled) return pulled;
      }
    }
    // The server is behind this device, or lists what the wallet did not seal: this device goes on from its
    // own newest state (it holds the device lock) and writes it to the server again.
    const store = await rewrite(confirmed);
    return {
      store,
      from: "rewritten",
      behind: {
        device: { global: intended.global, at: intended.at },
        server: {
          global: server?.global ?? listing.globalVersion,
          at: server?.at ?? 0,
          forged: server === null,
        },
      },
    };
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
    const after: Versions = {
      global: before.global + 1n,
      keys,
      putId: newPutId(),
      at: (this.opts.now ?? Date.now)(),
    };
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
    for (const w of sealed) this.digests.set(w.name, digestOf(w.value));
    for (const d of deletes) this.digests.delete(d.name);
    const writer: SealedWrite = {
      name: WRITER_NAME,
      version: -1n,
      value: encodeManifest(after, this.digests),
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
    return !!w && decodeManifest(w.value).putId === putId;
  }
}

/**
 * The node's state on the wallet's storage server (the `storage` setting; ARCHITECTURE.md rules 3 and 8):
 * before the node starts, this device takes the device lock, then opens the channel store mirrored to the
 * server (local and remote reconciled, never older than a version this device wrote). The node then runs on
 * the mirrored store, so nothing it says to the world goes out before the state is in both.
 */
import { openWalletStores, type SealedStore, StateTakenOver, StorageUnavailable } from "../storage";
import { AlreadyRunning, DEVICE_ID_KEY, DeviceLock, type DeviceLockLost } from "../storage/device-lock";
import type { LightningDeps } from "./live-types";
import { MirroredBlobStore, type OpenedFrom, type ServerBehind } from "../storage/mirrored-store";
import type { FetchFn } from "../http/bounded";
import type { PreparedRequest } from "../storage/vss-client";
import type { Network } from "../../events/types";
import { type BlobStore, LN_PREFIX } from "./store";

export { DEVICE_ID_KEY };
/** The routing graph's cache: megabytes, rebuilt from gossip, never sent to the storage server. */
export const LOCAL_ONLY_PREFIXES: readonly string[] = [`${LN_PREFIX}gossip/`];
/**
 * How long the start keeps trying a server that cannot be reached: the world's embedded database takes up
 * to some 18 s to start on first use; a server still silent after this is an error the owner sees.
 */
export const STORAGE_OPEN_DEADLINE_MS = 90_000;

export interface RemoteOptions {
  /** The storage server's base URL (the `storage` setting). */
  readonly url: string;
  readonly mnemonic: string;
  readonly network: Network;
  /** The device's own store (the `kv` table). */
  readonly local: BlobStore;
  readonly fetch?: FetchFn;
  /** A write waits for the server (`true`), or got through again (`false`): the wallet's banner. */
  readonly onWaiting?: (waiting: boolean) => void;
  readonly deadlineMs?: number;
  readonly retryMs?: number;
  readonly log?: (level: string, message: string) => void;
  /** Another device wrote the channel state since this one did (a write of this one was refused). */
  readonly onTakenOver?: (message: string) => void;
  /** The request that gives the device lock up as this device holds it now, or null (`DeviceLock`). */
  readonly onLockRelease?: (request: PreparedRequest | null) => void;
}

export interface RemoteStorage {
  /** The store the node runs on: every put resolves once it is in the local store and on the server. */
  readonly store: BlobStore;
  /** Where the state it opened on came from. */
  readonly from: OpenedFrom;
  /** The server was behind this device (`from` is `rewritten`): which state each held. */
  readonly behind?: ServerBehind;
  /** The wallet's sealed store on the server (the wallet's log goes there too), and the server's URL. */
  readonly sealed: SealedStore;
  /** The device lock's own store there. */
  readonly lockStore: SealedStore;
  readonly url: string;
  /** Whether this device still holds the lock (not released, abandoned or lost). */
  readonly held: () => boolean;
  /** Keeps the device lock while the node runs; `onLost` once another device took it or it ran out. */
  readonly keep: (onLost: (lost: DeviceLockLost) => void) => void;
  /** Stops retrying the server: a write still waiting for it fails (the node is stopping). */
  readonly stopWrites: () => void;
  /** Gives the lock up once the node stopped, so another device may start at once. */
  readonly release: () => Promise<void>;
  /** Stops writing and refreshing at once, without giving anything up (the lock was lost). */
  readonly abandon: () => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hexId = () =>
  Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

/** This device's id on the storage server, made once and kept in its store. */
export const deviceIdOf = async (local: BlobStore): Promise<string> => {
  const stored = await local.get(DEVICE_ID_KEY);
  if (stored) return new TextDecoder().decode(stored);
  const id = hexId();
  await local.put([{ key: DEVICE_ID_KEY, value: new TextEncoder().encode(id) }]);
  return id;
};

/** Runs `f` again while the server cannot be reached, until `deadline`; any other failure at once. */
const retrying = async <T>(f: () => Promise<T>, deadline: number, retryMs: number): Promise<T> => {
  let pause = retryMs;
  for (;;) {
    try {
      return await f();
    } catch (e) {
      if (!(e instanceof StorageUnavailable) || Date.now() + pause > deadline) throw e;
    }
    await sleep(pause);
    pause = Math.min(pause * 2, 5_000);
  }
};

/**
 * Takes the device lock and opens the mirrored store. Fails with `AlreadyRunning` (another device runs the
 * node: its seconds left), `StorageRollback` (the server answered older state than this device wrote; nothing
 * is loaded), `StateTakenOver`, `StorageRefused`, `StorageBadAnswer`, or `StorageUnavailable` past the deadline.
 */
export const openRemoteStorage = async (opts: RemoteOptions): Promise<RemoteStorage> => {
  const deadline = Date.now() + (opts.deadlineMs ?? STORAGE_OPEN_DEADLINE_MS);
  const retryMs = opts.retryMs ?? 1_000;
  const { store: remote, lock: lockStore } = openWalletStores(
    opts.url,
    opts.mnemonic,
    opts.network,
    opts.fetch,
  );
  const lock = new DeviceLock({
    store: lockStore,
    deviceId: await deviceIdOf(opts.local),
    ...(opts.onLockRelease ? { onRelease: opts.onLockRelease } : {}),
  });
  await retrying(() => lock.acquire(), deadline, retryMs);
  try {
    const { store, from, behind } = await retrying(
      () =>
        MirroredBlobStore.open({
          local: opts.local,
          remote,
          prefix: LN_PREFIX,
          localOnly: LOCAL_ONLY_PREFIXES,
          ...(opts.onWaiting ? { onWaiting: opts.onWaiting } : {}),
        }),
      deadline,
      retryMs,
    );
    opts.log?.("info", `channel state opened from storage (${from})`);
    if (behind)
      opts.log?.(
        "warn",
        `the storage server was behind this device (server ${behind.server.global}${behind.server.forged ? ", not as sealed" : ""}, device ${behind.device.global}): rewritten from this device`,
      );
    let held = true;
    const put: BlobStore["put"] = (writes) =>
      store.put(writes).catch((e: unknown) => {
        if (e instanceof StateTakenOver) {
          held = false;
          lock.stopKeeping();
          opts.onTakenOver?.(e.message);
        }
        throw e;
      });
    return {
      store: { get: store.get, keys: store.keys, put },
      from,
      ...(behind ? { behind } : {}),
      sealed: remote,
      lockStore,
      url: opts.url,
      held: () => held,
      keep: (onLost) =>
        lock.keep((lost) => {
          held = false;
          onLost(lost);
        }),
      stopWrites: () => store.close(),
      release: () => {
        held = false;
        return lock.release().catch((e) => opts.log?.("warn", `device lock release: ${String(e)}`));
      },
      abandon: () => {
        held = false;
        store.close();
        lock.stopKeeping();
      },
    };
  } catch (e) {
    await lock.release().catch(() => undefined);
    throw e;
  }
};

/**
 * The device lock and the mirrored channel store (see `remote.ts`). Another device's lock is told with its
 * seconds left, then fails the start with the spec's "already running" text.
 */
export const openRemote = async (
  deps: Pick<
    LightningDeps,
    | "storage"
    | "mnemonic"
    | "network"
    | "store"
    | "fetch"
    | "onStorageWaiting"
    | "onAlreadyRunning"
    | "onLockRelease"
    | "onServerBehind"
  >,
  log: (level: string, message: string) => void,
) => {
  let lost: ((message: string) => void) | null = null;
  try {
    const storage = await openRemoteStorage({
      url: deps.storage ?? "",
      mnemonic: deps.mnemonic,
      network: deps.network,
      local: deps.store,
      fetch: deps.fetch,
      log,
      onWaiting: (waiting) => deps.onStorageWaiting?.(waiting),
      onTakenOver: (message) => lost?.(message),
      ...(deps.onLockRelease ? { onLockRelease: deps.onLockRelease } : {}),
    });
    if (storage.behind) deps.onServerBehind?.(storage.behind);
    return {
      storage,
      onLost: (f: (message: string) => void) => {
        lost = f;
      },
      abandon: () => storage.abandon(),
    };
  } catch (e) {
    if (e instanceof AlreadyRunning) deps.onAlreadyRunning?.(e.remainingSecs);
    throw e;
  }
};

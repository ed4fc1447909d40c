/**
 * The storage port: a wallet's store on a versioned storage server (LDK's VSS API), opened with the keys of
 * its words. `openSealedStore` is what the wallet uses; `vss-client.ts` is the protocol, `sealed.ts` the
 * encryption and naming, `auth.ts` the signature, `device-lock.ts` one device at a time.
 */
import { signedAuthorization } from "./auth";
import { type AuthPurpose, authSecretFor, type StorageKeys, storageKeysOfWords, storeIdOf } from "./keys";
import { type SealedStore, sealedStore } from "./sealed";
import { type VssClient, vssClient } from "./vss-client";
import type { FetchFn, RequestLimits } from "../http/bounded";

export interface StoreOptions {
  /** The `storage` setting: the server's base URL (`…/storage` on the local world). */
  readonly url: string;
  readonly keys: StorageKeys;
  readonly network: string;
  readonly fetchFn?: FetchFn;
  readonly limits?: Partial<RequestLimits>;
  /** The clock the signatures are dated with. */
  readonly now?: () => number;
  /** Which of the wallet's stores at this server: its own, or the device lock's (default: its own). */
  readonly purpose?: AuthPurpose;
}

export const openVssClient = (opts: StoreOptions): VssClient => {
  // Its own key per server and purpose: a header one server saw opens nothing at another.
  const secret = authSecretFor(opts.keys, opts.url, opts.purpose);
  return vssClient({
    url: opts.url,
    storeId: storeIdOf(opts.keys, opts.network),
    authorization: (nowMs) => signedAuthorization(secret, nowMs),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.fetchFn ? { fetchFn: opts.fetchFn } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
};

export const openSealedStore = (opts: StoreOptions): SealedStore =>
  sealedStore(openVssClient(opts), opts.keys);

/**
 * The device lock's own store at the server, under a key of its own: the header the page holds to give
 * the lock up as it closes reaches the lock and nothing else of the wallet's.
 */
export const openLockStore = (opts: StoreOptions): SealedStore =>
  openSealedStore({ ...opts, purpose: "lock" });

/** The wallet's own store and its device lock's at the server `url`, opened with the keys of its words. */
export const openWalletStores = (
  url: string,
  mnemonic: string,
  network: string,
  fetchFn?: FetchFn | null,
): { readonly store: SealedStore; readonly lock: SealedStore } => {
  const opts: StoreOptions = {
    url,
    keys: storageKeysOfWords(mnemonic),
    network,
    ...(fetchFn ? { fetchFn } : {}),
  };
  return { store: openSealedStore(opts), lock: openLockStore(opts) };
};

export type { SealedStore, SealedValue, SealedWrite } from "./sealed";
export type { StorageKeys } from "./keys";
export { ownerAt, storageKeys, storageKeysOfWords } from "./keys";
export * from "./errors";

/**
 * The storage port: a wallet's store on a versioned storage server (LDK's VSS API), opened with the keys of
 * its words. `openSealedStore` is what the wallet uses; `vss-client.ts` is the protocol, `sealed.ts` the
 * encryption and naming, `auth.ts` the signature, `device-lock.ts` one device at a time.
 */
import { signedAuthorization } from "./auth";
import type { StorageKeys } from "./keys";
import { storeIdOf } from "./keys";
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
}

export const openVssClient = (opts: StoreOptions): VssClient =>
  vssClient({
    url: opts.url,
    storeId: storeIdOf(opts.keys, opts.network),
    authorization: () => signedAuthorization(opts.keys.authSecret, opts.now?.() ?? Date.now()),
    ...(opts.fetchFn ? { fetchFn: opts.fetchFn } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });

export const openSealedStore = (opts: StoreOptions): SealedStore =>
  sealedStore(openVssClient(opts), opts.keys);

export type { SealedStore, SealedValue, SealedWrite } from "./sealed";
export type { StorageKeys } from "./keys";
export { storageKeys, storageKeysOfWords } from "./keys";
export * from "./errors";

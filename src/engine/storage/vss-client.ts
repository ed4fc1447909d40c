/**
 * The storage port's protocol adapter: LDK's Versioned Storage Service (lightningdevkit/vss-server) over
 * HTTP. Each call is a POST of one protobuf message to `<base>/getObject`, `/putObjects`, `/deleteObject` or
 * `/listKeyVersions`; a 200 answer carries the call's answer message, any other status an `ErrorResponse`.
 * Every exchange goes through the bounded request helper (deadline, byte cap) and every answer is checked
 * before it is believed. Keys and values here are what the server sees: `sealed.ts` names and encrypts them.
 *
 * Versions follow the protocol: a key's first write is conditional on version 0, every later one on the
 * version read or last written (the server stores version + 1); -1 writes without a check. A put's items
 * and deletes, and its optional `globalVersion`, succeed or fail together.
 */
import { create, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import {
  AnswerTooLarge,
  boundedFetch,
  type FetchFn,
  globalFetch,
  type RequestLimits,
  RequestTimedOut,
} from "../http/bounded";
import { badAnswer, StorageConflict, StorageRefused, unavailable } from "./errors";
import {
  DeleteObjectRequestSchema,
  ErrorCode,
  ErrorResponseSchema,
  GLOBAL_VERSION_KEY,
  KeyValueSchema,
  VSS_CALLS,
  type VssCall,
  type VssRequest,
  type VssResponse,
} from "./vss-proto";

/** A stored value as the server holds it. */
export interface StoredItem {
  readonly key: string;
  readonly version: bigint;
  readonly value: Uint8Array;
}

/** A key and the version a write or delete is conditional on (0: must not exist; -1: no check). */
export interface KeyVersion {
  readonly key: string;
  readonly version: bigint;
}

export interface PutRequest {
  readonly items: readonly StoredItem[];
  readonly deletes?: readonly KeyVersion[];
  /** The store's version this write is conditional on (the server then increments it). */
  readonly globalVersion?: bigint;
}

export interface KeyListing {
  readonly keys: readonly KeyVersion[];
  /** The store's version, read before the keys (0 if never written). */
  readonly globalVersion: bigint;
}

export interface VssClientOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:3002/storage` (the calls' names are appended). */
  readonly url: string;
  readonly storeId: string;
  /** The `Authorization` header's value for the next request (a fresh signature each time). */
  /**
   * The `Authorization` header, dated `nowMs` (the wallet's clock set to the server's: see `clock`).
   */
  readonly authorization: (nowMs: number) => string;
  /** The wallet's clock (ms since the epoch). */
  readonly now?: () => number;
  readonly fetchFn?: FetchFn;
  readonly limits?: Partial<RequestLimits>;
}

/** A channel manager of a busy node is a few MB; the deadline covers a slow upload of one. */
export const STORAGE_LIMITS: RequestLimits = { timeoutMs: 30_000, maxBytes: 32 * 1024 * 1024 };
/** vss-server's own limit on the items of one put. */
export const MAX_PUT_ITEMS = 1000;
/** A listing that pages on past this many pages is a server that never ends it. */
const MAX_PAGES = 1000;

/**
 * A request made ready to send later, by whoever holds it, without this client: the page's last request
 * as it closes (`fetch(url, {method: "POST", headers, body, keepalive: true})`). Its signature is dated
 * when it was made, and the server takes it for a day.
 */
export interface PreparedRequest {
  readonly url: string;
  readonly headers: { readonly [name: string]: string };
  readonly body: Uint8Array;
}

export interface VssClient {
  /** The item under `key`, or null if the store has none. */
  readonly getObject: (key: string) => Promise<StoredItem | null>;
  readonly putObjects: (put: PutRequest) => Promise<void>;
  /** Deletes `key` if its version matches (or with -1, whatever it is); deleting nothing is not an error. */
  readonly deleteObject: (kv: KeyVersion) => Promise<void>;
  /** Every key (after `prefix`) with its version, newest first, across all pages. */
  readonly listKeyVersions: (prefix?: string) => Promise<KeyListing>;
  /** `deleteObject(kv)`, signed now and made ready for another to send (conditional on its version). */
  readonly deleteRequest: (kv: KeyVersion) => PreparedRequest;
}

const MAX_KEY = 600;
/** A difference of clocks the wallet does not correct (`Date` has whole seconds; the window is minutes). */
const CLOCK_TOLERANCE_MS = 30_000;
/** The furthest the wallet follows a server's clock from its own (a server cannot move it further). */
const MAX_CLOCK_OFFSET_MS = 24 * 60 * 60 * 1000;
const MAX_STORE_ID = 120;

const checkKey = (key: string) => {
  if (key.length === 0 || key.length > MAX_KEY || key === GLOBAL_VERSION_KEY)
    throw new StorageRefused({
      message: `A storage key must be 1 to ${MAX_KEY} characters`,
      code: "invalid",
    });
};

export const vssClient = (opts: VssClientOptions): VssClient => {
  if (opts.storeId.length === 0 || opts.storeId.length > MAX_STORE_ID)
    throw new StorageRefused({
      message: `A store id must be 1 to ${MAX_STORE_ID} characters`,
      code: "invalid",
    });
  const base = opts.url.replace(/\/+$/, "");
  const fetchFn = boundedFetch(opts.fetchFn ?? globalFetch, {
    ...STORAGE_LIMITS,
    ...opts.limits,
  });

  // How far the server's clock is ahead of the wallet's, learnt from its answers' `Date`: a header is
  // dated by the server's clock, since the server takes it for minutes only.
  const now = opts.now ?? Date.now;
  let offsetMs = 0;
  const learnClock = (res: Response) => {
    const date = Date.parse(res.headers.get("date") ?? "");
    if (!Number.isFinite(date)) return false;
    const offset = date - now();
    // `Date` has whole seconds: a difference under half a window is no reason to move.
    if (Math.abs(offset - offsetMs) < CLOCK_TOLERANCE_MS) return false;
    offsetMs = Math.max(-MAX_CLOCK_OFFSET_MS, Math.min(MAX_CLOCK_OFFSET_MS, offset));
    return true;
  };
  const headers = () => ({
    "content-type": "application/octet-stream",
    authorization: opts.authorization(now() + offsetMs),
  });
  const deleteOf = (kv: KeyVersion) =>
    create(DeleteObjectRequestSchema, {
      storeId: opts.storeId,
      keyValue: create(KeyValueSchema, { key: kv.key, version: kv.version }),
    });

  const call = async <C extends VssCall>(
    path: C,
    q: MessageInitShape<GenMessage<VssRequest<C>>>,
  ): Promise<VssResponse<C>> => {
    const { request, response } = VSS_CALLS[path];
    const send = async (): Promise<{ res: Response; body: Uint8Array }> => {
      try {
        const res = await fetchFn(`${base}/${path}`, {
          method: "POST",
          headers: headers(),
          body: toBinary(request, create(request, q)),
        });
        return { res, body: new Uint8Array(await res.arrayBuffer()) };
      } catch (e) {
        if (e instanceof RequestTimedOut) throw unavailable();
        if (e instanceof AnswerTooLarge) throw badAnswer(`an answer over ${e.maxBytes} bytes`);
        throw unavailable();
      }
    };
    let { res, body } = await send();
    // A signature refused while the clocks disagree: once more, dated by the server's clock.
    if (learnClock(res) && res.status === 401) ({ res, body } = await send());
    if (res.status === 200) {
      try {
        return fromBinary(response, body);
      } catch {
        throw badAnswer(`${path} did not answer with the protocol's message`);
      }
    }
    const err = errorOf(res.status, body);
    if (err instanceof NoSuchKey && path !== "getObject") throw badAnswer(`${path} answered "no such key"`);
    throw err;
  };

  return {
    getObject: async (key) => {
      checkKey(key);
      try {
        const a = await call("getObject", { storeId: opts.storeId, key });
        if (!a.value) throw badAnswer("getObject answered no value");
        if (a.value.key !== key) throw badAnswer("getObject answered another key than asked for");
        if (a.value.version < 0n) throw badAnswer("getObject answered a negative version");
        return { key, version: a.value.version, value: a.value.value };
      } catch (e) {
        if (e instanceof NoSuchKey) return null;
        throw e;
      }
    },
    putObjects: async (put) => {
      const deletes = put.deletes ?? [];
      const keys = [...put.items.map((i) => i.key), ...deletes.map((d) => d.key)];
      for (const k of keys) checkKey(k);
      if (new Set(keys).size !== keys.length)
        throw new StorageRefused({ message: "A put names a key twice", code: "invalid" });
      if (keys.length > MAX_PUT_ITEMS)
        throw new StorageRefused({ message: `A put holds at most ${MAX_PUT_ITEMS} items`, code: "invalid" });
      await call("putObjects", {
        storeId: opts.storeId,
        ...(put.globalVersion !== undefined ? { globalVersion: put.globalVersion } : {}),
        transactionItems: put.items.map((i) => create(KeyValueSchema, i)),
        deleteItems: deletes.map((d) => create(KeyValueSchema, { key: d.key, version: d.version })),
      });
    },
    deleteObject: async (kv) => {
      checkKey(kv.key);
      await call("deleteObject", deleteOf(kv));
    },
    deleteRequest: (kv) => {
      checkKey(kv.key);
      return {
        url: `${base}/deleteObject`,
        headers: headers(),
        body: toBinary(DeleteObjectRequestSchema, deleteOf(kv)),
      };
    },
    listKeyVersions: async (prefix) => {
      const keys: KeyVersion[] = [];
      let globalVersion: bigint | undefined;
      let token: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const a = await call("listKeyVersions", {
          storeId: opts.storeId,
          ...(prefix ? { keyPrefix: prefix } : {}),
          ...(token !== undefined ? { pageToken: token } : {}),
        });
        if (page === 0) globalVersion = a.globalVersion ?? 0n;
        for (const kv of a.keyVersions) {
          if (prefix && !kv.key.startsWith(prefix))
            throw badAnswer("listKeyVersions answered a key outside the prefix");
          if (kv.key === GLOBAL_VERSION_KEY) continue;
          keys.push({ key: kv.key, version: kv.version });
        }
        const next = a.nextPageToken ?? "";
        if (next === "") return { keys, globalVersion: globalVersion ?? 0n };
        if (next === token) throw badAnswer("listKeyVersions answered the same page token twice");
        token = next;
      }
      throw badAnswer(`listKeyVersions did not end within ${MAX_PAGES} pages`);
    },
  };
};

/** A getObject's "no such key", which the client answers as null rather than an error. */
class NoSuchKey extends Error {}

const errorOf = (status: number, body: Uint8Array): Error => {
  let code: ErrorCode = ErrorCode.UNKNOWN;
  let text = "";
  try {
    const e = fromBinary(ErrorResponseSchema, body);
    code = e.errorCode;
    text = e.message.slice(0, 200);
  } catch {
    // A proxy's or a plain-text error page: the status decides.
  }
  switch (code) {
    case ErrorCode.NO_SUCH_KEY_EXCEPTION:
      return new NoSuchKey();
    case ErrorCode.CONFLICT_EXCEPTION:
      return new StorageConflict({ message: "The stored version changed since it was read." });
    case ErrorCode.AUTH_EXCEPTION:
      return new StorageRefused({
        message: `The storage server refused this wallet's signature${text ? `: ${text}` : ""}`,
        code: "auth",
      });
    case ErrorCode.INVALID_REQUEST_EXCEPTION:
      return new StorageRefused({
        message: `The storage server refused the request${text ? `: ${text}` : ""}`,
        code: "invalid",
      });
    case ErrorCode.INTERNAL_SERVER_EXCEPTION:
      return unavailable(status);
  }
  if (status >= 500 || status === 429 || status === 408) return unavailable(status);
  if (status === 401 || status === 403)
    return new StorageRefused({
      message: "The storage server refused this wallet's signature",
      code: "auth",
    });
  if (status === 409)
    return new StorageConflict({ message: "The stored version changed since it was read." });
  return badAnswer(`status ${status}`);
};

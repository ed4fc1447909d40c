/**
 * The storage server's key-value store: the queries of vss-server's PostgreSQL backend
 * (rust/impls/src/postgres_store.rs) on one table keyed by (owner, store id, key).
 *
 * - put: every item and delete of one call, and the store's `global_version` when given, in one
 *   transaction; any of them changing no row (a stale version) rolls all of it back as a conflict.
 *   Version 0 inserts only if the key is absent; -1 upserts without a check; any other version updates only
 *   if the stored version is that one. A written key's version becomes version + 1 (1 for 0 and -1).
 * - get: the key's value and version; `global_version` reads as version 0 until first written.
 * - delete: conditional on the version (or not, with -1), and not an error when nothing matched.
 * - list: keys and versions, newest first, 100 a page, the page token being the last row's sort order; the
 *   first page carries the store's `global_version`, read before the keys.
 */
import type { Sql, SqlDb } from "./db";

export const GLOBAL_VERSION_KEY = "global_version";
export const INITIAL_RECORD_VERSION = 1n;
export const LIST_KEY_VERSIONS_MAX_PAGE_SIZE = 100;
export const MAX_PUT_REQUEST_ITEM_COUNT = 1000;

export interface Item {
  readonly key: string;
  readonly version: bigint;
  readonly value: Uint8Array;
}

export type StoreError =
  | { readonly code: "conflict"; readonly message: string }
  | { readonly code: "no_such_key"; readonly message: string }
  | { readonly code: "invalid"; readonly message: string };

export class StoreFailure extends Error {
  constructor(readonly error: StoreError) {
    super(error.message);
  }
}

const fail = (code: StoreError["code"], message: string): never => {
  throw new StoreFailure({ code, message });
};

const big = (v: unknown): bigint => BigInt(String(v));
const bytes = (v: unknown): Uint8Array => (v instanceof Uint8Array ? new Uint8Array(v) : new Uint8Array());

const checkNames = (storeId: string, keys: readonly string[]) => {
  if (storeId.length > 120) fail("invalid", "store_id is longer than 120 characters");
  for (const k of keys)
    if (k.length === 0 || k.length > 600) fail("invalid", "A key must be 1 to 600 characters");
};

const putOne = async (tx: Sql, owner: string, storeId: string, item: Item): Promise<number> => {
  const now = new Date();
  if (item.version === -1n) {
    const r = await tx.query(
      `INSERT INTO vss_db (user_token, store_id, key, value, version, created_at, last_updated_at)
       VALUES ($1, $2, $3, $4, 1, $5, $6)
       ON CONFLICT (user_token, store_id, key) DO UPDATE
       SET value = EXCLUDED.value, version = 1, last_updated_at = EXCLUDED.last_updated_at`,
      [owner, storeId, item.key, item.value, now, now],
    );
    return r.affected;
  }
  if (item.version === 0n) {
    const r = await tx.query(
      `INSERT INTO vss_db (user_token, store_id, key, value, version, created_at, last_updated_at)
       VALUES ($1, $2, $3, $4, 1, $5, $6) ON CONFLICT DO NOTHING`,
      [owner, storeId, item.key, item.value, now, now],
    );
    return r.affected;
  }
  const r = await tx.query(
    `UPDATE vss_db SET value = $1, version = $2, last_updated_at = $3
     WHERE user_token = $4 AND store_id = $5 AND key = $6 AND version = $7`,
    [item.value, String(item.version + 1n), now, owner, storeId, item.key, String(item.version)],
  );
  return r.affected;
};

const deleteOne = async (tx: Sql, owner: string, storeId: string, key: string, version: bigint) =>
  version === -1n
    ? (
        await tx.query("DELETE FROM vss_db WHERE user_token = $1 AND store_id = $2 AND key = $3", [
          owner,
          storeId,
          key,
        ])
      ).affected
    : (
        await tx.query(
          "DELETE FROM vss_db WHERE user_token = $1 AND store_id = $2 AND key = $3 AND version = $4",
          [owner, storeId, key, String(version)],
        )
      ).affected;

export interface KvStore {
  readonly get: (owner: string, storeId: string, key: string) => Promise<Item>;
  readonly put: (
    owner: string,
    storeId: string,
    items: readonly Item[],
    deletes: readonly { key: string; version: bigint }[],
    globalVersion?: bigint,
  ) => Promise<void>;
  readonly delete: (owner: string, storeId: string, key: string, version: bigint) => Promise<void>;
  readonly list: (
    owner: string,
    storeId: string,
    opts: { prefix?: string; pageSize?: number; pageToken?: string },
  ) => Promise<{ keys: { key: string; version: bigint }[]; nextPageToken: string; globalVersion?: bigint }>;
}

export const kvStore = (db: SqlDb): KvStore => {
  const get: KvStore["get"] = async (owner, storeId, key) => {
    const r = await db.query<{ key: string; value: unknown; version: unknown }>(
      "SELECT key, value, version FROM vss_db WHERE user_token = $1 AND store_id = $2 AND key = $3",
      [owner, storeId, key],
    );
    const row = r.rows[0];
    if (row) return { key: row.key, value: bytes(row.value), version: big(row.version) };
    if (key === GLOBAL_VERSION_KEY) return { key, value: new Uint8Array(), version: 0n };
    return fail("no_such_key", "Requested key not found.");
  };
  return {
    get,
    put: async (owner, storeId, items, deletes, globalVersion) => {
      if (items.length + deletes.length > MAX_PUT_REQUEST_ITEM_COUNT)
        fail(
          "invalid",
          `Number of write items per request should be less than equal to ${MAX_PUT_REQUEST_ITEM_COUNT}`,
        );
      checkNames(storeId, [...items.map((i) => i.key), ...deletes.map((d) => d.key)]);
      const puts = [...items];
      if (globalVersion !== undefined)
        puts.push({ key: GLOBAL_VERSION_KEY, value: new Uint8Array(), version: globalVersion });
      await db.transaction(async (tx) => {
        const results: number[] = [];
        for (const item of puts) results.push(await putOne(tx, owner, storeId, item));
        for (const d of deletes) results.push(await deleteOne(tx, owner, storeId, d.key, d.version));
        if (results.some((n) => n === 0))
          fail("conflict", "Transaction could not be completed due to a possible conflict");
      });
    },
    delete: async (owner, storeId, key, version) => {
      checkNames(storeId, [key]);
      await db.transaction((tx) => deleteOne(tx, owner, storeId, key, version));
    },
    list: async (owner, storeId, { prefix = "", pageSize, pageToken }) => {
      const globalVersion =
        pageToken === undefined ? (await get(owner, storeId, GLOBAL_VERSION_KEY)).version : undefined;
      const size = pageSize ?? 2 ** 31 - 1;
      if (size <= 0)
        return { keys: [], nextPageToken: "", ...(globalVersion !== undefined ? { globalVersion } : {}) };
      const limit = Math.min(size, LIST_KEY_VERSIONS_MAX_PAGE_SIZE);
      let after: string | null = null;
      if (pageToken !== undefined) {
        if (!/^\d{1,18}$/.test(pageToken)) fail("invalid", "Invalid page token");
        after = pageToken;
      }
      // vss-server matches the prefix with LIKE; here it is matched literally, so `_` and `%` in keys are plain.
      const r = await db.query<{ key: string; version: unknown; sort_order: unknown }>(
        `SELECT key, version, sort_order FROM vss_db
         WHERE user_token = $1 AND store_id = $2 AND left(key, length($3)) = $3 AND key != $4
           AND ($5::bigint IS NULL OR sort_order < $5::bigint)
         ORDER BY sort_order DESC LIMIT $6`,
        [owner, storeId, prefix, GLOBAL_VERSION_KEY, after, limit + 1],
      );
      const more = r.rows.length > limit;
      const rows = r.rows.slice(0, limit);
      return {
        keys: rows.map((row) => ({ key: row.key, version: big(row.version) })),
        nextPageToken: more ? String(rows[rows.length - 1]?.sort_order) : "",
        ...(globalVersion !== undefined ? { globalVersion } : {}),
      };
    },
  };
};

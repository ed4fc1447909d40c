/**
 * The world's storage server: LDK's Versioned Storage Service API (lightningdevkit/vss-server) under
 * `/storage` — `POST /storage/getObject`, `/putObjects`, `/deleteObject`, `/listKeyVersions`, each a protobuf
 * request answered by its protobuf answer (200) or an `ErrorResponse` (404 no such key, 409 conflict, 400
 * invalid, 401 refused signature, 500). Requests are authorised as vss-server's signature authorizer does
 * (see src/engine/storage/auth.ts): each owner's stores are its own.
 *
 * The database starts on the first request (PGlite takes seconds to start), so a world whose tests never
 * store anything never pays for it; `DATABASE_URL` puts it on a real PostgreSQL instead.
 */
import type { IncomingHttpHeaders } from "node:http";
import { create, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { verifyAuthorization } from "../../src/engine/storage/auth";
import {
  ErrorCode,
  ErrorResponseSchema,
  KeyValueSchema,
  VSS_CALLS,
  type VssCall,
  type VssRequest,
  type VssResponse,
} from "../../src/engine/storage/vss-proto";
import type { Reply, RouteTable } from "../http";
import { openStorageDb, type SqlDb } from "./db";
import { type KvStore, kvStore, StoreFailure } from "./store";

export interface StorageService {
  /** Answers one call (`getObject`, ...) of `body` with `headers`; what the HTTP route serves. */
  readonly handle: (call: string, body: Uint8Array, headers: IncomingHttpHeaders) => Promise<Reply>;
  readonly routes: RouteTable;
  /** The database, started on first use. */
  readonly db: () => Promise<SqlDb>;
  readonly stop: () => Promise<void>;
}

export interface StorageOptions {
  /** A PostgreSQL connection string; PGlite when absent. */
  readonly databaseUrl?: string;
  /** Where PGlite keeps its files (without `databaseUrl`); in memory when absent. */
  readonly dataDir?: string;
  /** The most bytes of values one owner may keep; unlimited when absent. */
  readonly quotaBytes?: number;
  /** Told of each failure answered as a server error (the answer itself says nothing of it). */
  readonly onError?: (e: unknown) => void;
  /** The server's clock, for the signature's time window. */
  readonly now?: () => number;
}

/** vss-server's protocol version, on every answer: LDK's VSS clients refuse an answer without it. */
export const PROTOCOL_VERSION_HEADER = "vss-protocol-version";
export const PROTOCOL_VERSION = "0.1.0";

/** A body that is not the call's protobuf message (vss-server answers it 400 in plain text). */
class BadRequest extends Error {}

const errorReply = (status: number, errorCode: ErrorCode, message: string): Reply => ({
  status,
  bytes: Buffer.from(toBinary(ErrorResponseSchema, create(ErrorResponseSchema, { errorCode, message }))),
});

/** The answer of `call`, made of `init`. */
const ok = <C extends VssCall>(call: C, init: MessageInitShape<GenMessage<VssResponse<C>>>): Reply => {
  const schema = VSS_CALLS[call].response;
  return { bytes: Buffer.from(toBinary(schema, create(schema, init))) };
};

export const startStorage = (opts: StorageOptions = {}): StorageService => {
  let opened: Promise<{ db: SqlDb; store: KvStore }> | null = null;
  const open = () => {
    opened ??= openStorageDb(opts.databaseUrl, opts.dataDir).then((db) => ({ db, store: kvStore(db) }));
    opened.catch(() => {
      opened = null;
    });
    return opened;
  };

  const answer = async (call: string, body: Uint8Array, owner: string): Promise<Reply> => {
    const { store } = await open();
    const decode = <C extends VssCall>(call: C): VssRequest<C> => {
      try {
        return fromBinary(VSS_CALLS[call].request, body);
      } catch {
        throw new BadRequest();
      }
    };
    switch (call) {
      case "getObject": {
        const q = decode("getObject");
        const item = await store.get(owner, q.storeId, q.key);
        return ok("getObject", { value: create(KeyValueSchema, item) });
      }
      case "putObjects": {
        const q = decode("putObjects");
        if (opts.quotaBytes !== undefined) {
          const { db } = await open();
          const adding = q.transactionItems.reduce((n, i) => n + i.value.length, 0);
          const kept = await db.query<{ n: string }>(
            "SELECT coalesce(sum(octet_length(value)), 0)::text AS n FROM vss_db WHERE user_token=$1 AND NOT (store_id=$2 AND key = ANY($3))",
            [owner, q.storeId, q.transactionItems.map((i) => i.key)],
          );
          if (Number(kept.rows[0]?.n ?? 0) + adding > opts.quotaBytes)
            return errorReply(
              413,
              ErrorCode.INVALID_REQUEST_EXCEPTION,
              `Storage quota of ${opts.quotaBytes} bytes per key reached`,
            );
        }
        await store.put(
          owner,
          q.storeId,
          q.transactionItems.map((i) => ({ key: i.key, version: i.version, value: i.value })),
          q.deleteItems.map((d) => ({ key: d.key, version: d.version })),
          q.globalVersion,
        );
        return ok("putObjects", {});
      }
      case "deleteObject": {
        const q = decode("deleteObject");
        if (!q.keyValue)
          return errorReply(
            400,
            ErrorCode.INVALID_REQUEST_EXCEPTION,
            "key_value missing in DeleteObjectRequest",
          );
        await store.delete(owner, q.storeId, q.keyValue.key, q.keyValue.version);
        return ok("deleteObject", {});
      }
      case "listKeyVersions": {
        const q = decode("listKeyVersions");
        const page = await store.list(owner, q.storeId, {
          ...(q.keyPrefix !== undefined ? { prefix: q.keyPrefix } : {}),
          ...(q.pageSize !== undefined ? { pageSize: q.pageSize } : {}),
          ...(q.pageToken !== undefined ? { pageToken: q.pageToken } : {}),
        });
        return ok("listKeyVersions", {
          keyVersions: page.keys.map((k) => create(KeyValueSchema, k)),
          nextPageToken: page.nextPageToken,
          ...(page.globalVersion !== undefined ? { globalVersion: page.globalVersion } : {}),
        });
      }
      default:
        return { status: 400, text: "Invalid request path." };
    }
  };

  const handle: StorageService["handle"] = async (call, body, headers) => {
    const header = headers.authorization;
    const auth = verifyAuthorization(Array.isArray(header) ? header[0] : header, opts.now?.() ?? Date.now());
    if ("refused" in auth) return errorReply(401, ErrorCode.AUTH_EXCEPTION, auth.refused);
    try {
      return await answer(call, body, auth.owner);
    } catch (e) {
      if (e instanceof StoreFailure) {
        const { code, message } = e.error;
        if (code === "conflict") return errorReply(409, ErrorCode.CONFLICT_EXCEPTION, message);
        if (code === "no_such_key") return errorReply(404, ErrorCode.NO_SUCH_KEY_EXCEPTION, message);
        return errorReply(400, ErrorCode.INVALID_REQUEST_EXCEPTION, message);
      }
      if (e instanceof BadRequest) return { status: 400, text: "Error parsing request" };
      opts.onError?.(e);
      return errorReply(500, ErrorCode.INTERNAL_SERVER_EXCEPTION, "Unknown Server Error occurred.");
    }
  };

  return {
    handle,
    routes: [
      [
        "POST",
        /^\/storage\/(getObject|putObjects|deleteObject|listKeyVersions)$/,
        async (m, _body, headers, _query, raw) => ({
          ...(await handle(m[1] ?? "", raw ?? new Uint8Array(), headers ?? {})),
          headers: { [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION },
        }),
      ],
    ],
    db: async () => (await open()).db,
    stop: async () => {
      const o = opened;
      opened = null;
      if (o) await (await o.catch(() => null))?.db.close();
    },
  };
};

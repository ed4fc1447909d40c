/**
 * The world's lying storage server: the honest one (`harness/storage/`) behind a front that answers as a
 * scope's hostile mode says (`HOSTILE_MODES.storage`), under `/hostile/<scope>/storage/<call>`. Kept out of the
 * storage server's own code: an operator's server never lies.
 *
 * - `hang`: takes every request and never answers.
 * - `garbage`: answers every call 200 with bytes that are no protocol message.
 * - `huge-answer`: answers every call 200 with 40 MB.
 * - `refuse-writes`: answers every `putObjects` 409 (a conflict), reads honestly.
 * - `rollback`: the server is put back to the state `save` kept (the rows of every store seen through this
 *   scope), once, at the first request after the mode was set; honest after (a restore from an old backup).
 * - `invented-versions`: the same, and from then on every listing names a global version `by` (1,000 unless
 *   the option says) above the true one, every conditional put on it taken as on the true one: an older
 *   state under an invented, higher version.
 *
 *   POST /hostile {"service": "storage", "scope": "t1", "mode": "rollback"}
 *   POST /hostile/t1/storage-save       → keeps the state to go back to
 */
import type { IncomingHttpHeaders } from "node:http";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { verifyAuthorization } from "../src/engine/storage/auth";
import {
  ErrorCode,
  ErrorResponseSchema,
  ListKeyVersionsResponseSchema,
  PutObjectRequestSchema,
} from "../src/engine/storage/vss-proto";
import type { HostileSetting, Hostility } from "./hostile";
import type { Reply, RouteTable } from "./server";
import type { StorageService } from "../services/storage/service";

export const HUGE_ANSWER_BYTES = 40 * 1024 * 1024;

interface Row {
  readonly user_token: string;
  readonly store_id: string;
  readonly key: string;
  readonly value: Uint8Array | null;
  readonly version: string;
}

interface Scope {
  /** The stores' owners seen through this scope (verified headers). */
  readonly owners: Set<string>;
  /** The state `save` kept, to go back to. */
  saved: Row[] | null;
  /** The setting the saved state was last put back for (once per setting). */
  restoredFor: HostileSetting | null;
}

export interface LyingStorage {
  /** Answers one call through `scope`'s mode (honestly without one). */
  readonly handle: (
    scope: string,
    call: string,
    body: Uint8Array,
    headers: IncomingHttpHeaders,
  ) => Promise<Reply>;
  /** Keeps the state of every store seen through `scope`, for `rollback` and `invented-versions`. */
  readonly save: (scope: string) => Promise<void>;
  /** `/hostile/<scope>/storage/<call>` and `/hostile/<scope>/storage-save`. */
  readonly routes: RouteTable;
}

const conflict = (): Reply => ({
  status: 409,
  bytes: Buffer.from(
    toBinary(
      ErrorResponseSchema,
      create(ErrorResponseSchema, {
        errorCode: ErrorCode.CONFLICT_EXCEPTION,
        message: "Conflict: the version did not match",
      }),
    ),
  ),
});

export const lyingStorage = (honest: StorageService, hostility: Hostility): LyingStorage => {
  const scopes = new Map<string, Scope>();
  const scopeOf = (name: string): Scope => {
    let s = scopes.get(name);
    if (!s) {
      s = { owners: new Set(), saved: null, restoredFor: null };
      scopes.set(name, s);
    }
    return s;
  };
  const rowsOf = async (owners: readonly string[]): Promise<Row[]> => {
    if (owners.length === 0) return [];
    const db = await honest.db();
    return (
      await db.query<Row>(
        "SELECT user_token, store_id, key, value, version::text AS version FROM vss_db WHERE user_token = ANY($1)",
        [owners],
      )
    ).rows;
  };
  const restore = async (s: Scope) => {
    const db = await honest.db();
    const saved = s.saved ?? [];
    await db.transaction(async (tx) => {
      await tx.query("DELETE FROM vss_db WHERE user_token = ANY($1)", [[...s.owners]]);
      for (const r of saved)
        await tx.query(
          "INSERT INTO vss_db (user_token, store_id, key, value, version) VALUES ($1, $2, $3, $4, $5)",
          [r.user_token, r.store_id, r.key, r.value, r.version],
        );
    });
  };

  const handle: LyingStorage["handle"] = async (scope, call, body, headers) => {
    const s = scopeOf(scope);
    const header = headers.authorization;
    const auth = verifyAuthorization(Array.isArray(header) ? header[0] : header);
    if ("owner" in auth) s.owners.add(auth.owner);
    const setting = hostility.of("storage", scope);
    const honestly = () => honest.handle(call, body, headers);
    if (!setting) return honestly();
    switch (setting.mode) {
      case "hang":
        return new Promise<Reply>(() => undefined);
      case "garbage":
        return { bytes: Buffer.from("<html>this is not a protocol message</html>\u0000\u00ff\u0013") };
      case "huge-answer":
        return { bytes: Buffer.alloc(HUGE_ANSWER_BYTES, 0x41) };
      case "refuse-writes":
        return call === "putObjects" ? conflict() : honestly();
      case "rollback":
      case "invented-versions": {
        if (s.restoredFor !== setting && s.saved) {
          s.restoredFor = setting;
          await restore(s);
        }
        if (setting.mode === "rollback") return honestly();
        const by = BigInt(Number(setting.options.by ?? 1000));
        if (call === "putObjects") {
          const q = fromBinary(PutObjectRequestSchema, body);
          if (q.globalVersion !== undefined) {
            if (q.globalVersion < by) return conflict();
            q.globalVersion -= by;
          }
          return honest.handle(call, toBinary(PutObjectRequestSchema, q), headers);
        }
        const reply = await honestly();
        if (call !== "listKeyVersions" || (reply.status ?? 200) !== 200 || !reply.bytes) return reply;
        const a = fromBinary(ListKeyVersionsResponseSchema, reply.bytes);
        if (a.globalVersion !== undefined) a.globalVersion += by;
        return { bytes: Buffer.from(toBinary(ListKeyVersionsResponseSchema, a)) };
      }
      default:
        return honestly();
    }
  };

  const save: LyingStorage["save"] = async (scope) => {
    const s = scopeOf(scope);
    s.saved = await rowsOf([...s.owners]);
    s.restoredFor = null;
  };

  return {
    handle,
    save,
    routes: [
      [
        "POST",
        /^\/hostile\/([a-z0-9-]{1,40})\/storage\/(getObject|putObjects|deleteObject|listKeyVersions)$/,
        (m, _body, headers, _query, raw) =>
          handle(m[1] ?? "", m[2] ?? "", raw ?? new Uint8Array(), headers ?? {}),
      ],
      [
        "POST",
        /^\/hostile\/([a-z0-9-]{1,40})\/storage-save$/,
        async (m) => {
          await save(m[1] ?? "");
          return { json: { saved: true } };
        },
      ],
    ],
  };
};

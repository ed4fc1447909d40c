/**
 * The storage server's conformance suite, spoken by the wallet's own client: the same cases on the embedded
 * database (PGlite) and on PostgreSQL (when `STORAGE_POSTGRES_URL` names a role that may create databases;
 * `npm test` installs and starts Debian's PostgreSQL for it, see scripts/postgres.mjs).
 */
import type { Server } from "node:http";
import { create, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { randomBytes } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signedAuthorization } from "../../src/engine/storage/auth";
import { StorageConflict, StorageRefused } from "../../src/engine/storage/errors";
import { openSealedStore, openVssClient } from "../../src/engine/storage/index";
import { authSecretFor, ownerAt, type StorageKeys, storageKeys } from "../../src/engine/storage/keys";
import { storeIdOf } from "../../src/engine/storage/keys";
import { vssClient } from "../../src/engine/storage/vss-client";
import {
  ErrorCode,
  ErrorResponseSchema,
  KeyValueSchema,
  VSS_CALLS,
  type VssCall,
  type VssRequest,
} from "../../src/engine/storage/vss-proto";
import { serveStorage } from "./serve";
import { ownPostgresDatabase } from "./testing";
import { type StorageService, startStorage } from "./service";
import { rejection } from "../testing/rejection";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
const newKeys = (): StorageKeys => storageKeys(randomBytes(32), randomBytes(32));

const postgresUrl = process.env.STORAGE_POSTGRES_URL;

type Backend = {
  name: string;
  databaseUrl?: () => string;
  setup?: () => Promise<void>;
  teardown?: () => Promise<void>;
};

const pgBackend = (): Backend => {
  const db = ownPostgresDatabase(postgresUrl ?? "", "vss_conformance");
  return { name: "PostgreSQL", databaseUrl: () => db.url, setup: db.create, teardown: db.drop };
};

const backends: Backend[] = [{ name: "PGlite" }, ...(postgresUrl ? [pgBackend()] : [])];
if (!postgresUrl)
  console.log("STORAGE_POSTGRES_URL is not set: the storage suite runs on PGlite only (npm test sets it).");

describe.each(backends)("the storage server on $name", (backend) => {
  let service: StorageService;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    await backend.setup?.();
    service = startStorage(backend.databaseUrl ? { databaseUrl: backend.databaseUrl() } : {});
    ({ server, url } = await serveStorage(service));
    await service.db();
  });
  afterAll(async () => {
    server?.close();
    await service?.stop();
    await backend.teardown?.();
  });

  const wallet = (keys = newKeys(), network = "regtest") => ({
    keys,
    raw: openVssClient({ url, keys, network }),
    sealed: openSealedStore({ url, keys, network }),
  });

  test("a key is written at version 0, then only at the version last written; a stale write changes nothing", async () => {
    const { raw } = wallet();
    expect(await raw.getObject("k")).toBeNull();
    await raw.putObjects({ items: [{ key: "k", version: 0n, value: bytes("one") }] });
    expect(await raw.getObject("k")).toMatchObject({ version: 1n, value: bytes("one") });
    expect(
      await rejection(raw.putObjects({ items: [{ key: "k", version: 0n, value: bytes("again") }] })),
    ).toBeInstanceOf(StorageConflict);
    await raw.putObjects({ items: [{ key: "k", version: 1n, value: bytes("two") }] });
    expect(
      await rejection(raw.putObjects({ items: [{ key: "k", version: 1n, value: bytes("stale") }] })),
    ).toBeInstanceOf(StorageConflict);
    expect(await raw.getObject("k")).toMatchObject({ version: 2n, value: bytes("two") });
    // -1 writes whatever is there and resets the version to 1.
    await raw.putObjects({ items: [{ key: "k", version: -1n, value: bytes("forced") }] });
    expect(await raw.getObject("k")).toMatchObject({ version: 1n, value: bytes("forced") });
  });

  test("one stale item refuses the whole put, writes and deletes alike", async () => {
    const { raw } = wallet();
    await raw.putObjects({
      items: [
        { key: "a", version: 0n, value: bytes("a1") },
        { key: "b", version: 0n, value: bytes("b1") },
        { key: "c", version: 0n, value: bytes("c1") },
      ],
    });
    const e = await rejection(
      raw.putObjects({
        items: [
          { key: "a", version: 1n, value: bytes("a2") },
          { key: "new", version: 0n, value: bytes("n") },
          { key: "b", version: 7n, value: bytes("b2") },
        ],
        deletes: [{ key: "c", version: 1n }],
      }),
    );
    expect(e).toBeInstanceOf(StorageConflict);
    expect(text((await raw.getObject("a"))?.value)).toBe("a1");
    expect(await raw.getObject("new")).toBeNull();
    expect(await raw.getObject("c")).not.toBeNull();
    // A delete at a wrong version refuses the put as well.
    expect(
      await rejection(
        raw.putObjects({
          items: [{ key: "a", version: 1n, value: bytes("a2") }],
          deletes: [{ key: "c", version: 5n }],
        }),
      ),
    ).toBeInstanceOf(StorageConflict);
    await raw.putObjects({
      items: [{ key: "a", version: 1n, value: bytes("a2") }],
      deletes: [{ key: "c", version: 1n }],
    });
    expect(await raw.getObject("a")).toMatchObject({ version: 2n });
    expect(await raw.getObject("c")).toBeNull();
  });

  test("global_version: a put conditional on it succeeds once per version, atomically with its items", async () => {
    const { raw } = wallet();
    expect((await raw.listKeyVersions()).globalVersion).toBe(0n);
    await raw.putObjects({ items: [{ key: "x", version: 0n, value: bytes("1") }], globalVersion: 0n });
    expect((await raw.listKeyVersions()).globalVersion).toBe(1n);
    expect(
      await rejection(
        raw.putObjects({ items: [{ key: "y", version: 0n, value: bytes("2") }], globalVersion: 0n }),
      ),
    ).toBeInstanceOf(StorageConflict);
    expect(await raw.getObject("y")).toBeNull();
    await raw.putObjects({ items: [{ key: "y", version: 0n, value: bytes("2") }], globalVersion: 1n });
    const listing = await raw.listKeyVersions();
    expect(listing.globalVersion).toBe(2n);
    expect(listing.keys.map((k) => k.key)).toEqual(["y", "x"]);
  });

  test("delete: conditional on the version or not, never an error when nothing matched", async () => {
    const { raw } = wallet();
    await raw.putObjects({ items: [{ key: "d", version: 0n, value: bytes("v") }] });
    await raw.deleteObject({ key: "d", version: 5n });
    expect(await raw.getObject("d")).not.toBeNull();
    await raw.deleteObject({ key: "d", version: 1n });
    expect(await raw.getObject("d")).toBeNull();
    await raw.deleteObject({ key: "d", version: 1n });
    await raw.putObjects({ items: [{ key: "d", version: 0n, value: bytes("v") }] });
    await raw.deleteObject({ key: "d", version: -1n });
    expect(await raw.getObject("d")).toBeNull();
  });

  test("list pages through every key, newest first, and filters by prefix", async () => {
    const { raw } = wallet();
    const items = Array.from({ length: 230 }, (_, i) => ({
      key: `p/${String(i).padStart(3, "0")}`,
      version: 0n,
      value: bytes(`${i}`),
    }));
    await raw.putObjects({ items });
    await raw.putObjects({ items: [{ key: "q_other", version: 0n, value: bytes("q") }] });
    const all = await raw.listKeyVersions();
    expect(all.keys).toHaveLength(231);
    expect(all.keys[0]).toEqual({ key: "q_other", version: 1n });
    const p = await raw.listKeyVersions("p/");
    expect(p.keys.map((k) => k.key).sort()).toEqual(items.map((i) => i.key));
    expect(new Set(p.keys.map((k) => k.version))).toEqual(new Set([1n]));
  });

  test("another wallet neither reads nor overwrites a store, and a forged or stale signature is refused", async () => {
    const alice = wallet();
    const mallory = wallet();
    await alice.sealed.put([{ name: "manager", version: 0n, value: bytes("alice's channels") }]);
    // Same store id, another key: the server keeps each owner's stores apart.
    const aliceStoreAsMallory = openVssClient({
      url,
      keys: { ...alice.keys, authSecret: mallory.keys.authSecret },
      network: "regtest",
    });
    const [aliceKey] = (await alice.raw.listKeyVersions()).keys;
    expect(aliceKey).toBeDefined();
    expect(await aliceStoreAsMallory.getObject(aliceKey?.key ?? "")).toBeNull();
    await aliceStoreAsMallory.putObjects({
      items: [{ key: aliceKey?.key ?? "", version: 0n, value: bytes("mallory") }],
    });
    expect(text((await alice.sealed.get("manager"))?.value)).toBe("alice's channels");
    // Alice's public key with Mallory's signature, and Alice's own signature from ten minutes ago.
    const aliceHeader = signedAuthorization(authSecretFor(alice.keys, url));
    const malloryHeader = signedAuthorization(authSecretFor(mallory.keys, url));
    const forged = `${aliceHeader.slice(0, 66)}${malloryHeader.slice(66)}`;
    const stale = signedAuthorization(authSecretFor(alice.keys, url), Date.now() - 10 * 60 * 1000);
    for (const header of [forged, stale, "", "not a signature"]) {
      const client = vssClient({ url, storeId: "s", authorization: () => header });
      const e = await rejection(client.getObject(aliceKey?.key ?? ""));
      expect(e).toBeInstanceOf(StorageRefused);
      expect((e as StorageRefused).code).toBe("auth");
    }
  });

  test("the server holds only opaque names and sealed values", async () => {
    const w = wallet();
    await w.sealed.put([
      { name: "monitors/abcdef_0", version: 0n, value: bytes("balance 123456 sats with peer 02ff") },
    ]);
    const db = await service.db();
    const rows = (
      await db.query<{ key: string; value: Uint8Array }>(
        "SELECT key, value FROM vss_db WHERE user_token = $1",
        [ownerAt(w.keys, url)],
      )
    ).rows;
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row?.key).not.toContain("monitors");
    expect(Buffer.from(row?.value ?? []).toString("latin1")).not.toContain("sats");
    expect(await w.sealed.list()).toMatchObject({ names: [{ name: "monitors/abcdef_0", version: 1n }] });
    expect(text((await w.sealed.get("monitors/abcdef_0"))?.value)).toContain("123456");
  });

  test("two writers racing for a new key: exactly one wins", async () => {
    const keys = newKeys();
    const writers = Array.from({ length: 6 }, () => openVssClient({ url, keys, network: "regtest" }));
    const results = await Promise.allSettled(
      writers.map((w, i) => w.putObjects({ items: [{ key: "race", version: 0n, value: bytes(`w${i}`) }] })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(StorageConflict);
  });

  test("speaks vss-server's answers on the wire: page sizes, page tokens, limits, missing fields", async () => {
    const keys = newKeys();
    const w = wallet(keys);
    await w.raw.putObjects({
      items: Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, version: 0n, value: bytes("v") })),
    });
    /** `call` asked with the message `init` makes, as the wire carries it: its status, answer or error. */
    const post = async <C extends VssCall>(call: C, init: MessageInitShape<GenMessage<VssRequest<C>>>) => {
      const { request, response: schema } = VSS_CALLS[call];
      const r = await fetch(`${url}/${call}`, {
        method: "POST",
        headers: { authorization: signedAuthorization(authSecretFor(keys, url)) },
        body: toBinary(request, create(request, init)),
      });
      const raw = new Uint8Array(await r.arrayBuffer());
      return {
        status: r.status,
        answer: r.status === 200 ? fromBinary(schema, raw) : undefined,
        error: r.status === 200 ? undefined : fromBinary(ErrorResponseSchema, raw),
      };
    };
    const storeId = storeIdOf(keys, "regtest");
    const list = (q: Partial<{ pageSize: number; pageToken: string }>) =>
      post("listKeyVersions", { storeId, ...q });
    // Page size 0: only the store's version. Two a page: a token until the last page, whose token is "".
    const none = await list({ pageSize: 0 });
    expect(none.answer?.keyVersions).toHaveLength(0);
    expect(none.answer?.globalVersion).toBe(0n);
    const first = await list({ pageSize: 2 });
    expect(first.answer?.keyVersions.map((k) => k.key)).toEqual(["k4", "k3"]);
    const second = await list({ pageSize: 2, pageToken: first.answer?.nextPageToken ?? "" });
    expect(second.answer?.keyVersions.map((k) => k.key)).toEqual(["k2", "k1"]);
    // Only the first page carries the global version.
    expect(second.answer?.globalVersion).toBeUndefined();
    const last = await list({ pageSize: 2, pageToken: second.answer?.nextPageToken ?? "" });
    expect(last.answer?.keyVersions.map((k) => k.key)).toEqual(["k0"]);
    expect(last.answer?.nextPageToken).toBe("");
    const badToken = await list({ pageToken: "-3" });
    expect([badToken.status, badToken.error?.errorCode]).toEqual([400, ErrorCode.INVALID_REQUEST_EXCEPTION]);
    // A missing key is a 404 NO_SUCH_KEY; global_version reads as version 0 before any write of it.
    const get = (key: string) => post("getObject", { storeId, key });
    const missing = await get("nope");
    expect([missing.status, missing.error?.errorCode]).toEqual([404, ErrorCode.NO_SUCH_KEY_EXCEPTION]);
    expect((await get("global_version")).answer?.value?.version).toBe(0n);
    // Over 1000 items in one put, and a delete without its key, are invalid requests.
    const tooMany = await post("putObjects", {
      storeId,
      transactionItems: Array.from({ length: 1001 }, (_, i) =>
        create(KeyValueSchema, { key: `x${i}`, version: 0n }),
      ),
    });
    expect([tooMany.status, tooMany.error?.errorCode]).toEqual([400, ErrorCode.INVALID_REQUEST_EXCEPTION]);
    const noKey = await post("deleteObject", { storeId });
    expect([noKey.status, noKey.error?.errorCode]).toEqual([400, ErrorCode.INVALID_REQUEST_EXCEPTION]);
    // A conflict is a 409 CONFLICT_EXCEPTION.
    const stale = await post("putObjects", {
      storeId,
      transactionItems: [create(KeyValueSchema, { key: "k0", version: 0n })],
    });
    expect([stale.status, stale.error?.errorCode]).toEqual([409, ErrorCode.CONFLICT_EXCEPTION]);
  });

  test("a body that is not the call's message is refused", async () => {
    const keys = newKeys();
    const r = await fetch(`${url}/putObjects`, {
      method: "POST",
      headers: { authorization: signedAuthorization(authSecretFor(keys, url)) },
      body: new Uint8Array([0xff, 0xff, 0xff]),
    });
    expect(r.status).toBe(400);
  });
});

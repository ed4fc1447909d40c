/**
 * What a storage `Authorization` header the wallet sent is worth to whoever saw it (issue 42 item 3): a key of
 * its own per server, so a header one server saw opens nothing of the wallet's at another; minutes, dated by
 * the server's clock; and the page's copy (the device lock's release) reaches the lock alone.
 */
import type { Server } from "node:http";
import { randomBytes } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storageForTests } from "../../../services/storage/testing";
import { serveStorage } from "../../../services/storage/serve";
import { DeviceLock } from "./device-lock";
import { openLockStore, openSealedStore, openVssClient } from "./index";
import { authSecretFor, ownerAt, storageKeys, storageKeysOfWords, storeIdOf } from "./keys";
import type { PreparedRequest } from "./vss-client";
import { vssClient } from "./vss-client";

const storage = storageForTests();
/** The same server software at another address: to the wallet, another server. */
let other: { url: string; server: Server } | undefined;
beforeAll(async () => {
  other = await serveStorage(storage.service);
});
afterAll(() => other?.server.close());
const otherUrl = () => other?.url ?? "";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);
const WORDS = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

/** A fetch that keeps every `Authorization` header it carries, as a server (or a broken TLS) would see them. */
const seeing = () => {
  const seen: string[] = [];
  const fetchFn = (input: string | URL | Request, init?: RequestInit) => {
    const h = new Headers(init?.headers).get("authorization");
    if (h) seen.push(h);
    return fetch(input, init);
  };
  return { seen, fetchFn };
};

describe("a storage header", () => {
  test("is signed by a key of its own per server, from the words and the server alone", () => {
    const keys = storageKeysOfWords(WORDS);
    const a = ownerAt(keys, "https://storage.example.com/vss");
    expect(ownerAt(storageKeysOfWords(WORDS), "https://STORAGE.example.com:443/vss/")).toBe(a);
    expect(ownerAt(keys, "https://storage.example.com/other")).not.toBe(a);
    expect(ownerAt(keys, "https://storage.example.org/vss")).not.toBe(a);
    expect(ownerAt(keys, "https://storage.example.com/vss", "lock")).not.toBe(a);
    expect(a).not.toBe(Buffer.from(keys.authPubkey).toString("hex"));
  });

  test("one server saw opens, lists, writes and deletes nothing of the wallet's at another", async () => {
    const keys = storageKeys(randomBytes(32), randomBytes(32));
    const there = seeing();
    // The wallet used server A once (it saw the wallet's headers), and keeps its channels on server B.
    await openSealedStore({ url: storage.url, keys, network: "regtest", fetchFn: there.fetchFn }).list();
    const b = openSealedStore({ url: otherUrl(), keys, network: "regtest" });
    await b.put([{ name: "ln/manager", version: 0n, value: bytes("channels") }]);
    const header = there.seen[0] ?? "";
    expect(header).not.toBe("");
    // Server A replays what it saw at B, on the wallet's store id.
    const replay = vssClient({
      url: otherUrl(),
      storeId: storeIdOf(keys, "regtest"),
      authorization: () => header,
    });
    expect((await replay.listKeyVersions()).keys).toEqual([]);
    const mine = (await openVssClient({ url: otherUrl(), keys, network: "regtest" }).listKeyVersions()).keys;
    expect(mine).toHaveLength(1);
    const key = mine[0]?.key ?? "";
    expect(await replay.getObject(key)).toBeNull();
    await replay.deleteObject({ key, version: -1n });
    await replay.putObjects({ items: [{ key, version: -1n, value: bytes("not yours") }] });
    expect(text((await b.get("ln/manager"))?.value)).toBe("channels");
    expect((await b.list()).names.map((n) => n.name)).toEqual(["ln/manager"]);
  });

  test("is dated by the server's clock: a wallet whose clock is an hour off still gets through", async () => {
    const keys = storageKeys(randomBytes(32), randomBytes(32));
    const off = openSealedStore({
      url: storage.url,
      keys,
      network: "regtest",
      now: () => Date.now() - 3600_000,
    });
    await off.put([{ name: "a", version: 0n, value: bytes("v") }]);
    expect(text((await off.get("a"))?.value)).toBe("v");
  });

  test("the page's copy (the device lock's release) reaches the lock and nothing else", async () => {
    const keys = storageKeys(randomBytes(32), randomBytes(32));
    const opts = { url: storage.url, keys, network: "regtest" };
    const store = openSealedStore(opts);
    await store.put([{ name: "ln/manager", version: 0n, value: bytes("channels") }]);
    let release: PreparedRequest | null = null;
    const lock = new DeviceLock({
      store: openLockStore(opts),
      deviceId: "phone",
      onRelease: (r) => {
        release = r;
      },
    });
    await lock.acquire();
    const header = (release as PreparedRequest | null)?.headers.authorization ?? "";
    expect(header).not.toBe("");
    const stolen = vssClient({
      url: storage.url,
      storeId: storeIdOf(keys, "regtest"),
      authorization: () => header,
    });
    const [manager] = (await openVssClient(opts).listKeyVersions()).keys;
    // It lists the lock alone.
    const listed = (await stolen.listKeyVersions()).keys;
    expect(listed).toHaveLength(1);
    expect(listed[0]?.key).not.toBe(manager?.key);
    expect(await stolen.getObject(manager?.key ?? "")).toBeNull();
    await stolen.deleteObject({ key: manager?.key ?? "", version: -1n });
    expect(text((await store.get("ln/manager"))?.value)).toBe("channels");
    // What it is for: sent as the page closes, it gives the lock up.
    const r = release as PreparedRequest | null;
    if (!r) throw new Error("no release request");
    await fetch(r.url, { method: "POST", headers: r.headers, body: r.body as BodyInit });
    expect(await openLockStore(opts).get("device_lock")).toBeNull();
  });

  test("the key of a server is not the words' root key", () => {
    const keys = storageKeysOfWords(WORDS);
    expect(authSecretFor(keys, "https://a.example/")).not.toEqual(keys.authSecret);
  });
});

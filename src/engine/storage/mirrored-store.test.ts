import { randomBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { storageForTests } from "../../../services/storage/testing";
import { MANAGER_KEY, MemoryBlobStore, MONITOR_PREFIX } from "../lightning/store";
import { StateTakenOver, StorageBadAnswer } from "./errors";
import { openSealedStore } from "./index";
import { ownerAt, type StorageKeys, storageKeys } from "./keys";
import { MirroredBlobStore } from "./mirrored-store";
import { rejection } from "../../../services/testing/rejection";

const storage = storageForTests();

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);
const MONITOR = `${MONITOR_PREFIX}aa_0`;

/** A device of the wallet with `keys`: its own local store, client and network. */
const device = (keys: StorageKeys) => {
  const local = new MemoryBlobStore();
  const net = { up: true };
  const waiting: boolean[] = [];
  const fetchFn = (input: string | URL | Request, init?: RequestInit) =>
    net.up ? fetch(input, init) : Promise.reject(new TypeError("fetch failed"));
  const remote = openSealedStore({ url: storage.url, keys, network: "regtest", fetchFn });
  const open = () =>
    MirroredBlobStore.open({
      local,
      remote,
      prefix: "ln/",
      retryMs: 10,
      maxRetryMs: 50,
      onWaiting: (w) => waiting.push(w),
    });
  return { local, net, waiting, remote, open };
};

const newWallet = () => storageKeys(randomBytes(32), randomBytes(32));

type Db = Awaited<ReturnType<typeof storage.service.db>>;
type Row = { store_id: string; key: string; value: Uint8Array; version: string };
const rowsOf = async (db: Db, owner: string) =>
  (
    await db.query<Row>(
      "SELECT store_id, key, value, version::text AS version FROM vss_db WHERE user_token = $1",
      [owner],
    )
  ).rows;
/** The server's rows of `owner` replaced by `rows`; its global version raised by `raise`. */
const putBack = (db: Db, owner: string, rows: readonly Row[], raise = 0n) =>
  db.transaction(async (tx) => {
    await tx.query("DELETE FROM vss_db WHERE user_token = $1", [owner]);
    for (const r of rows)
      await tx.query(
        "INSERT INTO vss_db (user_token, store_id, key, value, version) VALUES ($1, $2, $3, $4, $5)",
        [
          owner,
          r.store_id,
          r.key,
          r.value,
          r.key === "global_version" ? String(BigInt(r.version) + raise) : r.version,
        ],
      );
  });

/** A new wallet (`keys`) whose phone wrote "m1", with the server's database and the wallet's rows' owner there. */
const phoneThatWroteM1 = async () => {
  const keys = newWallet();
  const phone = device(keys);
  const { store } = await phone.open();
  await store.put([{ key: MANAGER_KEY, value: bytes("m1") }]);
  const db = await storage.service.db();
  return { keys, phone, store, db, owner: ownerAt(keys, storage.url) };
};

describe("the mirrored lightning store", () => {
  test("every put is on the server at increasing versions before it resolves; a new device restores it", async () => {
    const keys = newWallet();
    const phone = device(keys);
    const { store, from } = await phone.open();
    expect(from).toBe("empty");
    await store.put([
      { key: MANAGER_KEY, value: bytes("manager 1") },
      { key: MONITOR, value: bytes("monitor 1") },
    ]);
    await store.put([{ key: MANAGER_KEY, value: bytes("manager 2") }]);
    await store.put([{ key: MANAGER_KEY, value: bytes("manager 3") }]);
    const listing = await phone.remote.list();
    expect(listing.globalVersion).toBe(3n);
    expect(
      Object.fromEntries(
        listing.names.filter((n) => n.name.startsWith("ln/")).map((n) => [n.name, n.version]),
      ),
    ).toEqual({
      [MANAGER_KEY]: 3n,
      [MONITOR]: 1n,
    });
    expect(text(await store.get(MANAGER_KEY))).toBe("manager 3");

    const laptop = device(keys);
    const restored = await laptop.open();
    expect(restored.from).toBe("remote");
    expect(text(await laptop.local.get(MANAGER_KEY))).toBe("manager 3");
    expect(text(await laptop.local.get(MONITOR))).toBe("monitor 1");
    // The phone reopened is in step with the server.
    expect((await phone.open()).from).toBe("in-step");
  });

  test("while the server is unreachable a put waits and says so, and completes once it is back", async () => {
    const phone = device(newWallet());
    const { store } = await phone.open();
    await store.put([{ key: MANAGER_KEY, value: bytes("m1") }]);
    phone.net.up = false;
    let done = false;
    const put = store.put([{ key: MANAGER_KEY, value: bytes("m2") }]).then(() => {
      done = true;
    });
    while (phone.waiting.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect(phone.waiting).toEqual([true]);
    expect(done).toBe(false);
    // Locally written already, remotely not: nothing may count on it yet.
    expect(text(await phone.local.get(MANAGER_KEY))).toBe("m2");
    phone.net.up = true;
    await put;
    expect(phone.waiting).toEqual([true, false]);
    expect((await phone.remote.get(MANAGER_KEY))?.version).toBe(2n);
  });

  test("a put that reached only this device before it stopped is written again at the next start", async () => {
    const keys = newWallet();
    const phone = device(keys);
    const first = await phone.open();
    await first.store.put([{ key: MANAGER_KEY, value: bytes("m1") }]);
    phone.net.up = false;
    const cut = first.store.put([
      { key: MANAGER_KEY, value: bytes("m2") },
      { key: MONITOR, value: bytes("mon") },
    ]);
    while (phone.waiting.length === 0) await new Promise((r) => setTimeout(r, 10));
    first.store.close();
    await rejection(cut);
    phone.net.up = true;
    const again = await phone.open();
    expect(again.from).toBe("repushed");
    const laptop = device(keys);
    await laptop.open();
    expect(text(await laptop.local.get(MANAGER_KEY))).toBe("m2");
    expect(text(await laptop.local.get(MONITOR))).toBe("mon");
    expect((await phone.remote.list()).globalVersion).toBe(2n);
  });

  test("another device's write stops this one's next put; reopened, it takes the newer state", async () => {
    const keys = newWallet();
    const phone = device(keys);
    const p = await phone.open();
    await p.store.put([{ key: MANAGER_KEY, value: bytes("phone 1") }]);
    const laptop = device(keys);
    const l = await laptop.open();
    await l.store.put([{ key: MANAGER_KEY, value: bytes("laptop 2") }]);
    expect(await rejection(p.store.put([{ key: MANAGER_KEY, value: bytes("phone 2") }]))).toBeInstanceOf(
      StateTakenOver,
    );
    // The phone's unreleased "phone 2" is in its local store; the laptop's released state wins at its next start.
    expect((await phone.open()).from).toBe("remote");
    expect(text(await phone.local.get(MANAGER_KEY))).toBe("laptop 2");
  });

  test("a server gone back to an older state is found behind: the device goes on from its own and the server catches up", async () => {
    const { keys, phone, store, db, owner } = await phoneThatWroteM1();
    const rows = await rowsOf(db, owner);
    await store.put([{ key: MANAGER_KEY, value: bytes("m2") }]);
    await store.put([{ key: MANAGER_KEY, value: bytes("m3") }]);
    // The server goes back to the state after the first put.
    await putBack(db, owner, rows);
    const again = await phone.open();
    expect(again.from).toBe("rewritten");
    expect(again.behind).toEqual({
      device: { global: 3n, at: expect.any(Number) },
      server: { global: 1n, at: expect.any(Number), forged: false },
    });
    // Nothing was loaded: the device keeps the newest state it wrote, and goes on from it.
    expect(text(await phone.local.get(MANAGER_KEY))).toBe("m3");
    await again.store.put([{ key: MANAGER_KEY, value: bytes("m4") }]);
    // The server holds it now: another device restores it, and the phone reopens in step.
    const laptop = device(keys);
    expect((await laptop.open()).from).toBe("remote");
    expect(text(await laptop.local.get(MANAGER_KEY))).toBe("m4");
  });

  test("an older value under an invented higher global version is never loaded; back on the honest server the wallet goes on", async () => {
    const { keys, phone, store, db, owner } = await phoneThatWroteM1();
    await store.put([{ key: MANAGER_KEY, value: bytes("m2") }]);
    const atM2 = await rowsOf(db, owner);
    await store.put([{ key: MANAGER_KEY, value: bytes("m3") }]);
    const honest = await rowsOf(db, owner);
    // A lying server: the put before the last one, under a global version far above any the wallet wrote.
    await putBack(db, owner, atM2, 1000n);
    const onLiar = await phone.open();
    expect(onLiar.from).toBe("rewritten");
    expect(onLiar.behind?.server).toEqual({ global: 1002n, at: 0, forged: true });
    expect(text(await phone.local.get(MANAGER_KEY))).toBe("m3");
    await onLiar.store.put([{ key: MANAGER_KEY, value: bytes("m4") }]);
    // Pointed back at the honest server (still at m3): found behind, caught up from the device.
    await putBack(db, owner, honest);
    const back = await phone.open();
    expect(back.from).toBe("rewritten");
    expect(back.behind?.server).toMatchObject({ global: 3n, forged: false });
    expect(text(await phone.local.get(MANAGER_KEY))).toBe("m4");
    expect((await phone.open()).from).toBe("in-step");
    const laptop = device(keys);
    await laptop.open();
    expect(text(await laptop.local.get(MANAGER_KEY))).toBe("m4");
  });

  test("an old value served under a new version does not open", async () => {
    const { keys, store, db, owner } = await phoneThatWroteM1();
    const old = (
      await db.query<{ key: string; value: Uint8Array }>(
        "SELECT key, value FROM vss_db WHERE user_token = $1 AND version = 1 AND key <> 'global_version'",
        [owner],
      )
    ).rows;
    await store.put([{ key: MANAGER_KEY, value: bytes("m2") }]);
    for (const r of old)
      await db.query("UPDATE vss_db SET value = $1 WHERE user_token = $2 AND key = $3", [
        r.value,
        owner,
        r.key,
      ]);
    expect(await rejection(device(keys).open())).toBeInstanceOf(StorageBadAnswer);
  });
});

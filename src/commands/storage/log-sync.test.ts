/**
 * The wallet's log synced with the storage server (`log-sync.ts`), two devices' databases against the
 * world's server: each gets the other's events once, a restoring device keeps its own creation to itself,
 * and a server serving an older journal than a device saw is refused with nothing merged.
 */
import { randomBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { storageForTests } from "../../../services/storage/testing";
import { rejection } from "../../../services/testing/rejection";
import { openSealedStore, type SealedStore } from "../../engine/storage";
import { StorageRollback } from "../../engine/storage/errors";
import { COMPACT_AFTER_APPENDS, JOURNAL_CHUNK_PREFIX, JOURNAL_HEAD } from "../../engine/storage/journal";
import { storageKeys } from "../../engine/storage/keys";
import { MemoryBlobStore } from "../../engine/lightning/store";
import { WalletDb } from "../../events/db";
import { appendEvents, readEvents } from "../../events/log";
import { newEvent, stamp } from "../../events/make";
import { logInStep, syncLog } from "./log-sync";
import { DeviceLock } from "../../engine/storage/device-lock";

const storage = storageForTests();
let n = 0;

/** A new wallet's sealed store on the server at `url` (by default the test's storage server). */
const newWallet = (url = storage.url) =>
  openSealedStore({ url, keys: storageKeys(randomBytes(32), randomBytes(32)), network: "regtest" });

/** A wallet made on a device (or `restored` on it). */
const created = (walletId: string, restored = false): Parameters<typeof newEvent> => [
  "wallet.created",
  { walletId, network: "regtest", restored },
];

const device = (name: string, store: SealedStore) => {
  const db = new WalletDb(`${name}-${++n}`);
  const local = new MemoryBlobStore();
  let id = 0;
  const record = (...events: Parameters<typeof newEvent>[]) =>
    appendEvents(
      db,
      stamp(
        events.map((e) => newEvent(...e)),
        { uuid: () => `${name}-${++id}`, now: () => 1_000 + id, device: name },
      ),
    );
  const sync = (over: SealedStore = store) =>
    syncLog({ db, local, store: over, url: storage.url, merge: (events) => appendEvents(db, events) });
  const types = async () => (await readEvents(db)).map((e) => `${e.device}:${e.type}`);
  const inStep = () => logInStep(local, { store, lock: store }, storage.url);
  return { db, record, sync, types, inStep };
};

/** A new wallet made on a phone, its creation synced to the server. */
const syncedPhone = async () => {
  const store = newWallet();
  const phone = device("phone", store);
  await phone.record(created("w"));
  await phone.sync();
  return { store, phone };
};

describe("the wallet's log on the storage server", () => {
  test("each device gets the other's events once; a restore keeps its own creation to itself", async () => {
    const store = newWallet();
    const phone = device("phone", store);
    await phone.record(created("w-phone"), ["wallet.backed_up", {}]);
    expect(await phone.sync()).toEqual({ pulled: 0, pushed: 2, first: true });

    const laptop = device("laptop", store);
    await laptop.record(created("w-laptop", true));
    expect(await laptop.sync()).toEqual({ pulled: 2, pushed: 0, first: true });
    await laptop.record(["wallet.safe_mode_set", { enabled: true }]);
    expect(await laptop.sync()).toEqual({ pulled: 0, pushed: 1, first: false });

    expect(await phone.sync()).toEqual({ pulled: 1, pushed: 0, first: false });
    expect(await phone.types()).toEqual([
      "phone:wallet.created",
      "phone:wallet.backed_up",
      "laptop:wallet.safe_mode_set",
    ]);
    // In step: nothing goes either way again.
    expect(await phone.sync()).toEqual({ pulled: 0, pushed: 0, first: false });
    expect(await laptop.sync()).toEqual({ pulled: 0, pushed: 0, first: false });
  }, 120_000);

  test("a journal older than the one this device saw is refused, and nothing of it is merged", async () => {
    const { store, phone } = await syncedPhone();
    const oldHead = await store.get(JOURNAL_HEAD);
    await phone.record(["wallet.backed_up", {}]);
    await phone.sync();
    // A server answering the head as it was before the last append.
    const stale: SealedStore = {
      ...store,
      get: async (name) => (name === JOURNAL_HEAD ? oldHead : store.get(name)),
    };
    await phone.record(["wallet.safe_mode_set", { enabled: true }]);
    expect(await rejection(phone.sync(stale))).toBeInstanceOf(StorageRollback);
    // The real server still takes what the refusal held back.
    expect(await phone.sync()).toEqual({ pulled: 0, pushed: 1, first: false });
  }, 120_000);

  test("a device syncing after every commit leaves few objects on the server, and a restore gets every event", async () => {
    const { store, phone } = await syncedPhone();
    const bursts = COMPACT_AFTER_APPENDS * 2 + 3;
    for (let i = 0; i < bursts; i++) {
      await phone.record(["wallet.safe_mode_set", { enabled: i % 2 === 0 }]);
      expect((await phone.sync()).pushed).toBe(1);
    }
    const chunks = (await store.list()).names.filter((n) => n.name.startsWith(JOURNAL_CHUNK_PREFIX));
    // One chunk per burst without compaction; the appends since the last compaction at most with it.
    expect(chunks.length).toBeLessThan(COMPACT_AFTER_APPENDS);
    const laptop = device("laptop", store);
    expect(await laptop.sync()).toEqual({ pulled: bursts + 1, pushed: 0, first: true });
    expect(await laptop.types()).toEqual(await phone.types());
  }, 180_000);

  test("a device is in step with the server while it has all the journal holds and no other device runs", async () => {
    const store = newWallet();
    const phone = device("phone", store);
    await phone.record(created("w"));
    // A wallet made here, the server's journal still empty.
    expect(await phone.inStep()).toBe(true);
    await phone.sync();
    expect(await phone.inStep()).toBe(true);
    const laptop = device("laptop", store);
    await laptop.record(created("w2", true));
    // Restored, the history not brought in yet.
    expect(await laptop.inStep()).toBe(false);
    await laptop.sync();
    expect(await laptop.inStep()).toBe(true);
    // The phone recorded more since: the laptop is behind until it syncs again.
    await phone.record(["wallet.backed_up", {}]);
    await phone.sync();
    expect(await laptop.inStep()).toBe(false);
    await laptop.sync();
    expect(await laptop.inStep()).toBe(true);
    // Another device runs (it holds the device lock): it may record at any moment.
    const tablet = new DeviceLock({ store, deviceId: "tablet" });
    await tablet.acquire();
    expect(await laptop.inStep()).toBe(false);
    await tablet.release();
    expect(await laptop.inStep()).toBe(true);
    // A server that cannot be reached is not in step.
    const away = newWallet("http://127.0.0.1:1/storage");
    expect(
      await logInStep(new MemoryBlobStore(), { store: away, lock: away }, "http://127.0.0.1:1/storage"),
    ).toBe(false);
  }, 120_000);
});

import { randomBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { storageForTests } from "../../../services/storage/testing";
import {
  AlreadyRunning,
  DEVICE_LOCK_NAME,
  DeviceLock,
  DeviceLockLost,
  LOCK_WAIT_FALLBACK_SECS,
} from "./device-lock";
import { StorageConflict, StorageUnavailable } from "./errors";
import { openSealedStore } from "./index";
import { storageKeys } from "./keys";
import { rejection } from "../../../services/testing/rejection";
import type { PreparedRequest } from "./vss-client";

const storage = storageForTests();

/** Two devices of one wallet, on one clock (ms) the test moves. */
const wallet = () => {
  const keys = storageKeys(randomBytes(32), randomBytes(32));
  const clock = { t: 1_800_000_000_000 };
  const device = (deviceId: string) =>
    new DeviceLock({
      store: openSealedStore({ url: storage.url, keys, network: "regtest" }),
      deviceId,
      now: () => clock.t,
    });
  return { keys, clock, device };
};

describe("the device lock", () => {
  test("two devices racing for it: exactly one wins, the other is told how long to wait", async () => {
    const w = wallet();
    const devices = ["phone", "laptop", "tablet"].map((id) => w.device(id));
    const results = await Promise.allSettled(devices.map((d) => d.acquire()));
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const r of results) {
      if (r.status !== "rejected") continue;
      expect(r.reason).toBeInstanceOf(AlreadyRunning);
      expect((r.reason as AlreadyRunning).remainingSecs).toBe(60);
      expect((r.reason as AlreadyRunning).message).toMatch(/^Mutiny is already running/);
    }
    const winner = devices[results.findIndex((r) => r.status === "fulfilled")];
    const loser = devices.find((d) => d !== winner);
    expect(winner?.holds()).toBe(true);
    w.clock.t += 25_000;
    expect(await loser?.remainingSecs()).toBe(35);
    expect(await winner?.remainingSecs()).toBe(0);
  });

  test("the holder keeps it by refreshing; after it runs out another takes over and the first is told", async () => {
    const w = wallet();
    const phone = w.device("phone");
    const laptop = w.device("laptop");
    await phone.acquire();
    for (let i = 0; i < 3; i++) {
      w.clock.t += 30_000;
      await phone.refresh();
      expect(await rejection(laptop.acquire())).toBeInstanceOf(AlreadyRunning);
      expect(await laptop.remainingSecs()).toBe(60);
    }
    // The phone stops refreshing (closed without releasing, or offline): its lock runs out.
    w.clock.t += 59_000;
    expect(await laptop.remainingSecs()).toBe(1);
    w.clock.t += 1_000;
    expect(await laptop.remainingSecs()).toBe(0);
    await laptop.acquire();
    const lost = await rejection(phone.refresh());
    expect(lost).toBeInstanceOf(DeviceLockLost);
    expect((lost as DeviceLockLost).reason).toBe("taken");
    expect(phone.holds()).toBe(false);
    // The phone, opened again, now waits for the laptop.
    expect(await phone.remainingSecs()).toBe(60);
    expect(await rejection(phone.acquire())).toBeInstanceOf(AlreadyRunning);
  });

  test("a release lets the next device start at once; reopening on the same device takes its own lock", async () => {
    const w = wallet();
    const phone = w.device("phone");
    await phone.acquire();
    const phoneAgain = w.device("phone");
    await phoneAgain.acquire();
    expect(await rejection(phone.refresh())).toBeInstanceOf(DeviceLockLost);
    await phoneAgain.release();
    const laptop = w.device("laptop");
    expect(await laptop.remainingSecs()).toBe(0);
    await laptop.acquire();
    expect(laptop.holds()).toBe(true);
  });

  test("keep() refreshes on its interval and tells the holder once it was taken over", async () => {
    const w = wallet();
    const fast = (id: string) =>
      new DeviceLock({
        store: openSealedStore({ url: storage.url, keys: w.keys, network: "regtest" }),
        deviceId: id,
        now: () => w.clock.t,
        refreshSecs: 0.05,
      });
    const phone = fast("phone");
    await phone.acquire();
    const lost = new Promise<DeviceLockLost>((resolve) => phone.keep(resolve));
    // Another device writes the lock over the phone's (as after an expiry): the next refresh sees it.
    const store = openSealedStore({ url: storage.url, keys: w.keys, network: "regtest" });
    const laptopLock = new TextEncoder().encode(
      JSON.stringify({ device: "laptop", session: "s", at: w.clock.t }),
    );
    // The phone refreshes meanwhile: write at the version read until no refresh came between.
    for (;;) {
      const current = await store.get(DEVICE_LOCK_NAME);
      try {
        await store.put([{ name: DEVICE_LOCK_NAME, version: current?.version ?? 0n, value: laptopLock }]);
        break;
      } catch (e) {
        if (!(e instanceof StorageConflict)) throw e;
      }
    }
    expect((await lost).reason).toBe("taken");
    expect(phone.holds()).toBe(false);
  });

  test("an unreachable server: the countdown falls back to 60 s, and a holder that cannot refresh in time loses it", async () => {
    const w = wallet();
    const net = { up: true };
    const fetchFn = (input: string | URL | Request, init?: RequestInit) =>
      net.up ? fetch(input, init) : Promise.reject(new TypeError("fetch failed"));
    const device = (id: string) =>
      new DeviceLock({
        store: openSealedStore({ url: storage.url, keys: w.keys, network: "regtest", fetchFn }),
        deviceId: id,
        now: () => w.clock.t,
      });
    const phone = device("phone");
    const laptop = device("laptop");
    await phone.acquire();
    net.up = false;
    expect(await laptop.remainingSecs()).toBe(LOCK_WAIT_FALLBACK_SECS);
    expect(await rejection(laptop.acquire())).toBeInstanceOf(StorageUnavailable);
    // While its lock lasts the phone sees a storage error and still holds it; then it has lost it.
    w.clock.t += 30_000;
    expect(await rejection(phone.refresh())).toBeInstanceOf(StorageUnavailable);
    expect(phone.holds()).toBe(true);
    w.clock.t += 30_000;
    const lost = await rejection(phone.refresh());
    expect(lost).toBeInstanceOf(DeviceLockLost);
    expect((lost as DeviceLockLost).reason).toBe("expired");
    expect(phone.holds()).toBe(false);
    net.up = true;
    await laptop.acquire();
  });
});

describe("the device lock's release made ready for a closing page", () => {
  /** Two devices of one wallet as above, the first telling `requests` each release it made ready. */
  const closingWallet = () => {
    const keys = storageKeys(randomBytes(32), randomBytes(32));
    const clock = { t: 1_800_000_000_000 };
    const store = () => openSealedStore({ url: storage.url, keys, network: "regtest" });
    const requests: (PreparedRequest | null)[] = [];
    const phone = new DeviceLock({
      store: store(),
      deviceId: "phone",
      now: () => clock.t,
      onRelease: (r) => requests.push(r),
    });
    const laptop = new DeviceLock({ store: store(), deviceId: "laptop", now: () => clock.t });
    return { clock, phone, laptop, requests, store: store() };
  };
  /** Sends it as the page would, with the platform's fetch and nothing of the wallet's. */
  const send = async (r: PreparedRequest | null | undefined) => {
    if (!r) throw new Error("no request made ready");
    const res = await fetch(r.url, {
      method: "POST",
      headers: r.headers,
      body: r.body as BodyInit,
      keepalive: true,
    });
    expect(res.status).toBe(200);
  };

  test("sent after the holder is gone, gives the lock up: another device takes it at once", async () => {
    const w = closingWallet();
    await w.phone.acquire();
    expect(w.requests).toHaveLength(1);
    expect(await rejection(w.laptop.acquire())).toBeInstanceOf(AlreadyRunning);
    // The tab closes: the phone's worker is gone, only the page's request goes out.
    await send(w.requests.at(-1));
    expect(await w.store.get(DEVICE_LOCK_NAME)).toBeNull();
    expect(await w.laptop.remainingSecs()).toBe(0);
    await w.laptop.acquire();
    expect(w.laptop.holds()).toBe(true);
  });

  test("follows each refresh; one made before a refresh releases nothing", async () => {
    const w = closingWallet();
    await w.phone.acquire();
    const before = w.requests.at(-1);
    w.clock.t += 15_000;
    await w.phone.refresh();
    expect(w.requests).toHaveLength(2);
    await send(before);
    expect(await w.store.get(DEVICE_LOCK_NAME)).not.toBeNull();
    expect(await rejection(w.laptop.acquire())).toBeInstanceOf(AlreadyRunning);
    await send(w.requests.at(-1));
    expect(await w.store.get(DEVICE_LOCK_NAME)).toBeNull();
  });

  test("never gives up a lock another device took over, and is withdrawn once this one lost or released it", async () => {
    const w = closingWallet();
    await w.phone.acquire();
    const held = w.requests.at(-1);
    // The phone went quiet past its lock's life: the laptop takes over.
    w.clock.t += 61_000;
    await w.laptop.acquire();
    await send(held);
    expect(await w.laptop.remainingSecs()).toBe(0);
    expect(await rejection(w.phone.acquire())).toBeInstanceOf(AlreadyRunning);
    // The phone learns it lost the lock: its page has nothing to send any more.
    expect(await rejection(w.phone.refresh())).toBeInstanceOf(DeviceLockLost);
    expect(w.requests.at(-1)).toBeNull();
    // A clean release withdraws it as well.
    const again = closingWallet();
    await again.phone.acquire();
    await again.phone.release();
    expect(again.requests.map((r) => r === null)).toEqual([false, true]);
  });
});

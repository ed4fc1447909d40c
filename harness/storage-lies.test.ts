/**
 * The world's lying storage modes (`storage-lies.ts`), each with what the wallet does about it: a hang is a
 * server that cannot be reached, garbage and huge answers are bad answers, a server refusing every write is
 * named as such (not a lock held elsewhere), and a server gone back or inventing versions is found behind
 * the device, which goes on from its own state and brings the server back up to it.
 */
import { randomBytes } from "@noble/hashes/utils.js";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MANAGER_KEY, MemoryBlobStore } from "../src/engine/lightning/store";
import { openRemoteStorage } from "../src/engine/lightning/remote";
import { AlreadyRunning, DeviceLock, StorageRefusesWrites } from "../src/engine/storage/device-lock";
import { StorageBadAnswer, StorageUnavailable } from "../src/engine/storage/errors";
import { openLockStore, openSealedStore } from "../src/engine/storage/index";
import { type StorageKeys, storageKeys } from "../src/engine/storage/keys";
import { MirroredBlobStore } from "../src/engine/storage/mirrored-store";
import { Hostility, type HostileMode } from "./hostile";
import { rejection } from "../services/testing/rejection";
import { serveStorage } from "../services/storage/serve";
import { storageForTests } from "../services/storage/testing";
import { lyingStorage } from "./storage-lies";

const storage = storageForTests();
const hostility = new Hostility();
let served: { url: string; server: Server } | undefined;
let lies: ReturnType<typeof lyingStorage> | undefined;
const SCOPE = "t1";
beforeAll(async () => {
  lies = lyingStorage(storage.service, hostility);
  const front = lies;
  served = await serveStorage({
    ...storage.service,
    handle: (call, body, headers) => front.handle(SCOPE, call, body, headers),
  });
});
afterAll(() => served?.server.close());
/** The lying server's address: the wallet knows it as any other storage server. */
const url = () => served?.url ?? "";
const lie = (mode: HostileMode<"storage"> | null) => hostility.set("storage", SCOPE, mode);

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);
const newWallet = () => storageKeys(randomBytes(32), randomBytes(32));
const WORDS = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

const device = (keys: StorageKeys, local = new MemoryBlobStore()) => {
  const remote = openSealedStore({ url: url(), keys, network: "regtest", limits: { timeoutMs: 2_000 } });
  const open = () => MirroredBlobStore.open({ local, remote, prefix: "ln/", retryMs: 10, maxRetryMs: 50 });
  return { local, remote, open };
};

describe("the world's lying storage server", () => {
  test("hang: the server cannot be reached, within the request's bound", async () => {
    const { remote } = device(newWallet());
    lie("hang");
    try {
      expect(await rejection(remote.list())).toBeInstanceOf(StorageUnavailable);
    } finally {
      lie(null);
    }
  });

  test("garbage and huge answers are bad answers, read no further than the cap", async () => {
    // The default bound on time: a busy machine may take seconds over 40 MB.
    const remote = openSealedStore({ url: url(), keys: newWallet(), network: "regtest" });
    for (const mode of ["garbage", "huge-answer"] as const) {
      lie(mode);
      try {
        expect(await rejection(remote.list())).toBeInstanceOf(StorageBadAnswer);
        expect(await rejection(remote.get("ln/manager"))).toBeInstanceOf(StorageBadAnswer);
      } finally {
        lie(null);
      }
    }
  });

  test("refuse-writes: the node does not start, and the wallet says the server refuses, not another device", async () => {
    const local = new MemoryBlobStore();
    const told: number[] = [];
    lie("refuse-writes");
    try {
      const e = await rejection(
        openRemoteStorage({
          url: url(),
          mnemonic: WORDS,
          network: "regtest",
          local,
          retryMs: 10,
          deadlineMs: 5_000,
        }).catch((x: unknown) => {
          if (x instanceof AlreadyRunning) told.push(x.remainingSecs);
          throw x;
        }),
      );
      expect(e).toBeInstanceOf(StorageRefusesWrites);
      expect((e as StorageRefusesWrites).message).toMatch(/refuses every write/);
      expect(told).toEqual([]);
    } finally {
      lie(null);
    }
    // A lock another device holds is still told as one, with its countdown.
    const keys = newWallet();
    const opts = { url: url(), keys, network: "regtest" };
    await new DeviceLock({ store: openLockStore(opts), deviceId: "laptop" }).acquire();
    const e = await rejection(new DeviceLock({ store: openLockStore(opts), deviceId: "phone" }).acquire());
    expect(e).toBeInstanceOf(AlreadyRunning);
  });

  test("rollback: the device goes on from its own newest state and the server catches up", async () => {
    const keys = newWallet();
    const phone = device(keys);
    const { store } = await phone.open();
    await store.put([{ key: MANAGER_KEY, value: bytes("m1") }]);
    await lies?.save(SCOPE);
    await store.put([{ key: MANAGER_KEY, value: bytes("m2") }]);
    await store.put([{ key: MANAGER_KEY, value: bytes("m3") }]);
    lie("rollback");
    try {
      const again = await phone.open();
      expect(again.from).toBe("rewritten");
      expect(again.behind).toMatchObject({ device: { global: 3n }, server: { global: 1n, forged: false } });
      expect(text(await phone.local.get(MANAGER_KEY))).toBe("m3");
      const fresh = device(keys);
      expect((await fresh.open()).from).toBe("remote");
      expect(text(await fresh.local.get(MANAGER_KEY))).toBe("m3");
    } finally {
      lie(null);
    }
  });

  test("invented versions: an older state under a higher version is never loaded; honest again, the server catches up", async () => {
    const keys = newWallet();
    const phone = device(keys);
    const { store } = await phone.open();
    await store.put([{ key: MANAGER_KEY, value: bytes("m1") }]);
    await store.put([{ key: MANAGER_KEY, value: bytes("m2") }]);
    await lies?.save(SCOPE);
    await store.put([{ key: MANAGER_KEY, value: bytes("m3") }]);
    lie("invented-versions");
    try {
      const onLiar = await phone.open();
      expect(onLiar.from).toBe("rewritten");
      expect(onLiar.behind?.server).toMatchObject({ global: 1002n, forged: true });
      expect(text(await phone.local.get(MANAGER_KEY))).toBe("m3");
      await onLiar.store.put([{ key: MANAGER_KEY, value: bytes("m4") }]);
    } finally {
      lie(null);
    }
    // Honest again: its versions are far below what the device recorded, so it is behind, and caught up.
    const back = await phone.open();
    expect(back.from).toBe("rewritten");
    expect(text(await phone.local.get(MANAGER_KEY))).toBe("m4");
    expect((await phone.open()).from).toBe("in-step");
    const fresh = device(keys);
    await fresh.open();
    expect(text(await fresh.local.get(MANAGER_KEY))).toBe("m4");
  });
});

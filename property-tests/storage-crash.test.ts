import { randomBytes } from "@noble/hashes/utils.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storageForTests } from "../services/storage/testing";
import { MANAGER_KEY, MemoryBlobStore, MONITOR_PREFIX } from "../src/engine/lightning/store";
import { openSealedStore } from "../src/engine/storage/index";
import { ownerAt, type StorageKeys, storageKeys } from "../src/engine/storage/keys";
import { MirroredBlobStore } from "../src/engine/storage/mirrored-store";

const RUNS = Number(process.env.STORAGE_CRASH_RUNS ?? 30);
const SEED = process.env.STORAGE_CRASH_SEED ? Number(process.env.STORAGE_CRASH_SEED) : undefined;

const storage = storageForTests(180_000);

type Fault = "ok" | "refused" | "unsent" | "answer-lost" | "hang" | "crash-unsent" | "crash-sent";
const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Fault>("ok") },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Fault>(
      "refused",
      "unsent",
      "answer-lost",
      "hang",
      "crash-unsent",
      "crash-sent",
    ),
  },
);

/** A put writes the manager and, now and then, a monitor (a channel's) or deletes one. */
const putArb = fc.record({
  monitor: fc.constantFrom<"none" | "write" | "delete">("none", "none", "write", "delete"),
});

const scenarioArb = fc.record({
  puts: fc.array(putArb, { minLength: 1, maxLength: 6 }),
  faults: fc.array(faultArb, { minLength: 0, maxLength: 40 }),
  /** After which acknowledged put the server's state is saved, to be put back at the end (a rollback). */
  rollbackTo: fc.option(fc.nat({ max: 5 }), { nil: undefined }),
});

const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);
const bytes = (s: string) => new TextEncoder().encode(s);
const MONITOR = `${MONITOR_PREFIX}cafe_0`;

/** A network that meets `faults` one request after another once armed (the device's start is sound). */
const faultyFetch = (faults: readonly Fault[], onCrash: () => void) => {
  let at = 0;
  let armed = false;
  let crashed = false;
  const arm = () => {
    armed = true;
  };
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (crashed) throw new TypeError("the tab is gone");
    if (!armed) return fetch(input, init);
    const fault = faults[at++] ?? "ok";
    switch (fault) {
      case "ok":
        return fetch(input, init);
      case "refused":
        return new Response("Unknown Server Error occurred.", { status: 500 });
      case "unsent":
        throw new TypeError("fetch failed");
      case "answer-lost":
        await fetch(input, init);
        throw new TypeError("fetch failed");
      case "hang":
        return new Promise((_, reject) =>
          init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
        );
      case "crash-unsent":
      case "crash-sent":
        if (fault === "crash-sent") await fetch(input, init).catch(() => undefined);
        crashed = true;
        onCrash();
        throw new TypeError("the tab is gone");
    }
  };
  return { fetchFn, arm };
};

const snapshotOf = async (keys: StorageKeys) => {
  const db = await storage.service.db();
  const owner = ownerAt(keys, storage.url);
  const rows = (
    await db.query<{ store_id: string; key: string; value: Uint8Array; version: string }>(
      "SELECT store_id, key, value, version::text AS version FROM vss_db WHERE user_token = $1",
      [owner],
    )
  ).rows;
  return async () =>
    db.transaction(async (tx) => {
      await tx.query("DELETE FROM vss_db WHERE user_token = $1", [owner]);
      for (const r of rows)
        await tx.query(
          "INSERT INTO vss_db (user_token, store_id, key, value, version) VALUES ($1, $2, $3, $4, $5)",
          [owner, r.store_id, r.key, r.value, r.version],
        );
    });
};

describe("the mirrored lightning store under storage faults and crashes", () => {
  it("never starts on a state older than one it acknowledged, never refuses to start, and leaves the server holding what it starts on", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ puts, faults, rollbackTo }) => {
        const keys = storageKeys(randomBytes(32), randomBytes(32));
        const local = new MemoryBlobStore();
        const open = (fetchFn?: typeof fetch) =>
          MirroredBlobStore.open({
            local,
            remote: openSealedStore({
              url: storage.url,
              keys,
              network: "regtest",
              // A hanging request is given up after a second (the faulty network only); a sound one has the default.
              ...(fetchFn ? { fetchFn, limits: { timeoutMs: 1000 } } : {}),
            }),
            prefix: "ln/",
            retryMs: 2,
            maxRetryMs: 10,
          });
        let crashed = false;
        let store: MirroredBlobStore | null = null;
        const net = faultyFetch(faults, () => {
          crashed = true;
          store?.close();
        });
        // The device's first start, on a sound network; then the faults begin.
        store = (await open(net.fetchFn)).store;
        net.arm();
        let acknowledged = 0;
        let restore: (() => Promise<void>) | null = null;
        for (let i = 0; i < puts.length && !crashed; i++) {
          const monitor = puts[i]?.monitor;
          const writes = [
            { key: MANAGER_KEY, value: bytes(`state ${i + 1}`) },
            ...(monitor === "write" ? [{ key: MONITOR, value: bytes(`monitor ${i + 1}`) }] : []),
            ...(monitor === "delete" ? [{ key: MONITOR, value: null }] : []),
          ];
          try {
            await store?.put(writes);
            acknowledged = i + 1;
            if (rollbackTo === acknowledged) restore = await snapshotOf(keys);
          } catch {
            break;
          }
        }
        store?.close();
        // The server goes back to an older state of the store, if the scenario says so.
        const rolledBack = restore !== null && (rollbackTo ?? 0) < acknowledged;
        if (restore && rolledBack) await restore();
        const stateOf = (v: string | undefined) => Number(v?.replace("state ", "") ?? 0);
        // Never refused: a server gone back is behind this device, which goes on from its own state.
        const opened = await open();
        expect(opened.from === "rewritten").toBe(rolledBack && opened.behind !== undefined);
        const started = stateOf(text(await local.get(MANAGER_KEY)));
        expect(started).toBeGreaterThanOrEqual(acknowledged);
        // Never a state from the future: at most the put under way when it stopped.
        expect(started).toBeLessThanOrEqual(Math.min(puts.length, acknowledged + 1));
        // The server now holds exactly that state: a new device restores it.
        const fresh = new MemoryBlobStore();
        await MirroredBlobStore.open({
          local: fresh,
          remote: openSealedStore({ url: storage.url, keys, network: "regtest" }),
          prefix: "ln/",
        });
        expect(text(await fresh.get(MANAGER_KEY))).toBe(text(await local.get(MANAGER_KEY)));
        expect(text(await fresh.get(MONITOR))).toBe(text(await local.get(MONITOR)));
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
  }, 600_000);
});

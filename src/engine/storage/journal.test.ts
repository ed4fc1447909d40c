/**
 * The wallet's log on the storage server (`journal.ts`), against the world's server: appends in order, read
 * from any point, two devices appending at once never lose an entry, a head older than one seen is a
 * rollback, and compaction merges the bursts' small chunks without losing or reordering an entry, whatever
 * runs beside it.
 */
import { randomBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { storageForTests } from "../../../services/storage/testing";
import { rejection } from "../../../services/testing/rejection";
import { StorageConflict, StorageRollback } from "./errors";
import { openSealedStore } from "./index";
import { storageKeys } from "./keys";
import {
  appendJournal,
  COMPACTED_CHUNK_ENTRIES,
  compactJournal,
  JOURNAL_CHUNK_ENTRIES,
  JOURNAL_CHUNK_PREFIX,
  readHead,
  readJournal,
} from "./journal";
import type { SealedStore } from "./sealed";

const storage = storageForTests();
const newStore = () =>
  openSealedStore({
    url: storage.url,
    keys: storageKeys(randomBytes(32), randomBytes(32)),
    network: "regtest",
  });
const entries = (from: number, n: number) => Array.from({ length: n }, (_, i) => `e${from + i}`);

describe("the log on the storage server", () => {
  test("appends in order and reads back from any point, across chunks", async () => {
    const store = newStore();
    expect(await readJournal(store, 0)).toEqual({ head: { count: 0, version: 0n }, entries: [] });
    let head = await appendJournal(store, await readHead(store), entries(0, 3));
    head = await appendJournal(store, head, entries(3, JOURNAL_CHUNK_ENTRIES + 5));
    const count = 3 + JOURNAL_CHUNK_ENTRIES + 5;
    expect(head.count).toBe(count);
    expect((await readJournal(store, 0)).entries).toEqual(entries(0, count));
    expect((await readJournal(store, 2)).entries).toEqual(entries(2, count - 2));
    expect((await readJournal(store, 205)).entries).toEqual(entries(205, count - 205));
    expect((await readJournal(store, count)).entries).toEqual([]);
  }, 120_000);

  test("of two devices appending at the same head one gets through; the other reads and appends again", async () => {
    const store = newStore();
    const head = await appendJournal(store, await readHead(store), ["a"]);
    const results = await Promise.allSettled([
      appendJournal(store, head, ["phone"]),
      appendJournal(store, head, ["laptop"]),
    ]);
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(StorageConflict);
    const won = (await readJournal(store, 0)).entries;
    expect(won).toHaveLength(2);
    const lost = won[1] === "phone" ? "laptop" : "phone";
    await appendJournal(store, await readHead(store), [lost]);
    expect(new Set((await readJournal(store, 0)).entries)).toEqual(new Set(["a", "phone", "laptop"]));
  }, 120_000);

  test("a head below the count this device saw is a rollback", async () => {
    const store = newStore();
    await appendJournal(store, await readHead(store), ["a", "b"]);
    expect(await rejection(readJournal(store, 3, 3))).toBeInstanceOf(StorageRollback);
  }, 120_000);
});

describe("compacting the log on the storage server", () => {
  /** `bursts` appends of one to three entries each, as syncs after a commit make them; answers every entry. */
  const burst = async (store: SealedStore, bursts: number, tag: string) => {
    const all: string[] = [];
    for (let b = 0; b < bursts; b++) {
      const more = Array.from({ length: 1 + (b % 3) }, (_, i) => `${tag}${b}.${i}`);
      await appendJournal(store, await readHead(store), more);
      all.push(...more);
    }
    return all;
  };
  const chunkCount = async (store: SealedStore) =>
    (await store.list()).names.filter((n) => n.name.startsWith(JOURNAL_CHUNK_PREFIX)).length;

  test("many bursts are read back from a few objects, every entry in its place", async () => {
    const store = newStore();
    const first = await burst(store, 30, "a");
    expect(await chunkCount(store)).toBe(30);
    const seen = (await readHead(store)).count;
    expect(await compactJournal(store, seen)).toBe(29);
    expect(await chunkCount(store)).toBe(1);
    expect((await readHead(store)).count).toBe(seen);
    expect((await readJournal(store, 0, seen)).entries).toEqual(first);
    expect((await readJournal(store, 17, seen)).entries).toEqual(first.slice(17));
    // More bursts after it: compacted again, onto the same chunk while it has room.
    const second = await burst(store, 10, "b");
    expect(await compactJournal(store)).toBe(10);
    expect(await chunkCount(store)).toBe(1);
    expect((await readJournal(store, 0)).entries).toEqual([...first, ...second]);
    expect((await readJournal(store, seen)).entries).toEqual(second);
    // Nothing to merge: nothing written.
    const version = (await readHead(store)).version;
    expect(await compactJournal(store)).toBe(0);
    expect((await readHead(store)).version).toBe(version);
  }, 180_000);

  test("a compacted chunk never grows past its limit; full chunks are left alone", async () => {
    const store = newStore();
    const big = entries(0, COMPACTED_CHUNK_ENTRIES - 1);
    let head = await appendJournal(store, await readHead(store), big);
    head = await appendJournal(store, head, ["x", "y"]);
    head = await appendJournal(store, head, ["z"]);
    expect(await chunkCount(store)).toBe(Math.ceil(big.length / JOURNAL_CHUNK_ENTRIES) + 2);
    await compactJournal(store);
    // The first thousand entries make one chunk; what does not fit starts the next.
    expect(await chunkCount(store)).toBe(2);
    expect((await readJournal(store, 0)).entries).toEqual([...big, "x", "y", "z"]);
  }, 180_000);

  test("an append and a compaction at once, or two compactions, never lose an entry", async () => {
    const store = newStore();
    const expected = await burst(store, 6, "c");
    for (let round = 0; round < 4; round++) {
      const head = await readHead(store);
      const mine = [`phone${round}`];
      const [appended, compacted, other] = await Promise.allSettled([
        appendJournal(store, head, mine),
        compactJournal(store),
        compactJournal(store),
      ]);
      for (const r of [appended, compacted, other])
        if (r.status === "rejected") expect(r.reason).toBeInstanceOf(StorageConflict);
      // The append that lost reads the head again and appends once more.
      if (appended.status === "rejected") await appendJournal(store, await readHead(store), mine);
      expected.push(...mine);
      await burst(store, 2, `d${round}.`).then((more) => expected.push(...more));
      expect((await readJournal(store, 0)).entries).toEqual(expected);
    }
    await compactJournal(store);
    expect(await chunkCount(store)).toBe(1);
    expect((await readJournal(store, 0)).entries).toEqual(expected);
  }, 180_000);

  test("a read whose listing a compaction changed under it reads again and gets every entry", async () => {
    const store = newStore();
    const all = await burst(store, 8, "e");
    const before = await store.list();
    await compactJournal(store);
    let calls = 0;
    const lagging: SealedStore = {
      ...store,
      list: async () => (calls++ === 0 ? before : store.list()),
    };
    // The stale listing names a chunk the compaction merged away (bursts of 1, 2, 3, 1: one starts at 7).
    expect((await readJournal(lagging, 7)).entries).toEqual(all.slice(7));
    expect(calls).toBe(2);
  }, 180_000);

  test("a head below what this device saw is still a rollback, for a compaction as for a read", async () => {
    const store = newStore();
    await burst(store, 5, "f");
    const count = (await readHead(store)).count;
    expect(await rejection(compactJournal(store, count + 1))).toBeInstanceOf(StorageRollback);
    expect(await chunkCount(store)).toBe(5);
    await compactJournal(store, count);
    expect(await rejection(readJournal(store, count + 1, count + 1))).toBeInstanceOf(StorageRollback);
  }, 180_000);
});

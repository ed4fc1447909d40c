/**
 * The wallet's log on the storage server (`journal.ts`), against the world's server: appends in order, read
 * from any point, two devices appending at once never lose an entry, and a head older than one seen is a
 * rollback.
 */
import { randomBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { storageForTests } from "../../../harness/storage/testing";
import { rejection } from "../../../harness/rejection";
import { StorageConflict, StorageRollback } from "./errors";
import { openSealedStore } from "./index";
import { storageKeys } from "./keys";
import { appendJournal, JOURNAL_CHUNK_ENTRIES, readHead, readJournal } from "./journal";

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

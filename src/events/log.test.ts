import Dexie from "dexie";
import { describe, expect, it } from "vitest";
import { CHUNK_EVENTS, ID_BUCKETS, idBucket } from "./chunks";
import { WalletDb } from "./db";
import { appendChecked, appendEvents, clearLog, countEvents, readEvents } from "./log";
import type { WalletEvent } from "./types";

let n = 0;
const dbName = () => `log-test-${++n}-${Math.random()}`;
const event = (i: number, id = `id-${i}-${Math.random()}`): WalletEvent =>
  ({
    id,
    type: "onchain.address_issued",
    v: 1,
    at: 1_700_000_000_000 + i,
    device: "ab",
    payload: { address: `bcrt1q${i}`, keychain: "external", index: i, labels: [] },
  }) as WalletEvent;
const many = (count: number, from = 0) => Array.from({ length: count }, (_, i) => event(from + i));
const plain = (events: readonly WalletEvent[]) => events.map(({ seq: _s, ...e }) => e);

describe("the event log", () => {
  it("gives back every event appended, in order, numbered from 1, across many rows", async () => {
    const db = new WalletDb(dbName());
    const first = many(3 * CHUNK_EVENTS + 7);
    const stored = await appendEvents(db, first);
    expect(stored.map((e) => e.seq)).toEqual(first.map((_, i) => i + 1));
    // Small appends after a large one fill the last row, then start new ones.
    const later: WalletEvent[] = [];
    for (let i = 0; i < CHUNK_EVENTS + 3; i++) {
      const e = event(10_000 + i);
      later.push(e);
      expect((await appendEvents(db, [e]))[0]?.seq).toBe(first.length + i + 1);
    }
    const all = await readEvents(db);
    expect(plain(all)).toEqual(plain([...first, ...later]));
    expect(all.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(await countEvents(db)).toBe(all.length);
    // No row holds more than its share, and the rows are few.
    const rows = await db.log.toArray();
    expect(Math.max(...rows.map((r) => r.events.length))).toBeLessThanOrEqual(CHUNK_EVENTS);
    expect(rows.length).toBe(Math.ceil(all.length / CHUNK_EVENTS));
  });

  it("reads from any point of the log", async () => {
    const db = new WalletDb(dbName());
    await appendEvents(db, many(2 * CHUNK_EVENTS + 5));
    const all = await readEvents(db);
    for (const after of [0, 1, CHUNK_EVENTS - 1, CHUNK_EVENTS, CHUNK_EVENTS + 1, all.length - 1, all.length])
      expect(await readEvents(db, after)).toEqual(all.slice(after));
  });

  it("skips events already in the log, whether appended one by one or in bulk, and within one append", async () => {
    const db = new WalletDb(dbName());
    const events = many(600);
    await appendEvents(db, events.slice(0, 300));
    // A bulk append that repeats some: only the new ones are numbered and stored.
    const fresh = await appendChecked(db, [...events.slice(250, 600), events[599] as WalletEvent]);
    expect(fresh.map((e) => e.id)).toEqual(events.slice(300).map((e) => e.id));
    // A single repeat, from the start, the middle and the end of the log: nothing.
    for (const i of [0, 299, 599]) expect(await appendEvents(db, [events[i] as WalletEvent])).toEqual([]);
    expect(plain(await readEvents(db))).toEqual(plain(events));
    // Every id is filed in its bucket once.
    const ids = (await db.logIds.toArray()).flatMap((b) => b.ids.map((id) => [b.bucket, id] as const));
    expect(ids).toHaveLength(600);
    for (const [bucket, id] of ids) expect(idBucket(id)).toBe(bucket);
  });

  it("spreads ids over the buckets", () => {
    const counts = new Array<number>(ID_BUCKETS).fill(0);
    for (let i = 0; i < 100 * ID_BUCKETS; i++) counts[idBucket(crypto.randomUUID())]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(40);
    expect(Math.max(...counts)).toBeLessThan(180);
  });

  it("an append that fails writes nothing", async () => {
    const db = new WalletDb(dbName());
    await appendEvents(db, many(10));
    const before = await readEvents(db);
    await expect(
      db.transaction("rw", db.log, db.logIds, db.kv, async () => {
        await appendChecked(db, many(CHUNK_EVENTS + 1, 100), [{ key: "k", value: 1 }]);
        throw new Error("later step failed");
      }),
    ).rejects.toThrow("later step failed");
    expect(await readEvents(db)).toEqual(before);
    expect(await db.kv.get("k")).toBeUndefined();
    expect((await db.logIds.toArray()).flatMap((b) => b.ids)).toHaveLength(10);
  });

  it("starts again from 1 once cleared", async () => {
    const db = new WalletDb(dbName());
    await appendEvents(db, many(5));
    await clearLog(db);
    expect(await readEvents(db)).toEqual([]);
    const again = many(2, 50);
    expect((await appendEvents(db, again)).map((e) => e.seq)).toEqual([1, 2]);
  });

  it("moves a log written one row per event (version 1) into the new layout, every event and number kept", async () => {
    const name = dbName();
    const old = new Dexie(name);
    old.version(1).stores({ events: "++seq, &id, type", kv: "key", snapshots: "name" });
    const events = many(2 * CHUNK_EVENTS + 40);
    await old.table("events").bulkAdd(events.slice(0, 100));
    // A gap in the numbers, as a version-1 log can have, is kept as it is.
    await old.table("events").bulkAdd(events.slice(101).map((e, i) => ({ ...e, seq: 200 + i })));
    await old.table("kv").put({ key: "seed", value: { mnemonic: "words" } });
    const written = await old.table("events").toArray();
    old.close();

    const db = new WalletDb(name);
    const read = await readEvents(db);
    expect(read).toEqual(written);
    expect(read.at(-1)?.seq).toBe(200 + events.length - 102);
    expect(await db.kv.get("seed")).toEqual({ key: "seed", value: { mnemonic: "words" } });
    expect([...db.backendDB().objectStoreNames].sort()).toEqual(["kv", "log", "logIds", "snapshots"]);
    // The migrated log is idempotent and appends after its last number.
    expect(await appendEvents(db, [events[5] as WalletEvent])).toEqual([]);
    const next = await appendEvents(db, [events[100] as WalletEvent]);
    expect(next.map((e) => e.seq)).toEqual([(read.at(-1)?.seq ?? 0) + 1]);
    expect(plain(await readEvents(db))).toEqual(
      plain([...events.slice(0, 100), ...events.slice(101), events[100]!]),
    );
    db.close();
    // Opened again: nothing is migrated twice.
    const again = new WalletDb(name);
    expect(await countEvents(again)).toBe(events.length);
    again.close();
  });

  it("opens an empty version-1 database", async () => {
    const name = dbName();
    const old = new Dexie(name);
    old.version(1).stores({ events: "++seq, &id, type", kv: "key", snapshots: "name" });
    await old.open();
    old.close();
    const db = new WalletDb(name);
    expect(await readEvents(db)).toEqual([]);
    expect((await appendEvents(db, many(1))).map((e) => e.seq)).toEqual([1]);
  });
});

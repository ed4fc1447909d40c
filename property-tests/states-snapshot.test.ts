import * as A from "@automerge/automerge/slim";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openFromSnapshot, SnapshotKeeper, STATES_SNAPSHOT } from "../src/commands/host/snapshot";
import { WalletDb } from "../src/events/db";
import { appendEvents, clearLog, readEvents } from "../src/events/log";
import { deriveViews, foldEvent, foldEvents, initialStates, type States } from "../src/projections";
import { eventLog } from "./arbitraries";

let dbCount = 0;
const freshDb = () => new WalletDb(`states-snapshot-${++dbCount}`);
const ready = Promise.resolve();

/** Every fold's state, the document as its plain contents: what a start from the snapshot must give. */
const comparable = (s: States) => ({ ...s, crdt: s.crdt ? A.toJS(s.crdt) : null });

/** Appends events as commands do, folding the new ones; the keeper is told as the host tells it. */
const appendAll = async (
  db: WalletDb,
  states: { s: States },
  keeper: SnapshotKeeper,
  events: Parameters<typeof appendEvents>[1],
) => {
  const fresh = await appendEvents(db, events);
  for (const e of fresh) states.s = foldEvent(states.s, e);
  keeper.changed(fresh);
};

/** A keeper of `held`'s states that writes only when told (its delay is longer than any run). */
const keeperOf = (db: WalletDb, held: { s: States }) =>
  new SnapshotKeeper(
    db,
    () => held.s,
    (f) => f(),
    null,
    60_000,
  );

describe("the snapshot of the folded log", () => {
  it("the snapshot and the events after it fold to what the whole log folds to", async () => {
    await fc.assert(
      fc.asyncProperty(eventLog(30), fc.nat(), fc.integer({ min: 1, max: 4 }), async (events, cut, batch) => {
        const db = freshDb();
        const held = { s: initialStates() };
        const keeper = keeperOf(db, held);
        const at = cut % (events.length + 1);
        for (let i = 0; i < at; i += batch)
          await appendAll(db, held, keeper, events.slice(i, Math.min(at, i + batch)));
        await keeper.write();
        // Events after the snapshot: folded at the start from it.
        await appendAll(db, held, keeper, events.slice(at));
        const whole = foldEvents(await readEvents(db));
        const resumed = await openFromSnapshot(db, ready);
        if (at === 0) {
          // Nothing was folded when it was taken (or the log was empty): there is no snapshot to start from.
          expect(resumed).toBeNull();
        } else {
          expect(resumed).not.toBeNull();
          const states = (resumed as { states: States }).states;
          expect(comparable(states)).toEqual(comparable(whole));
          expect(deriveViews(states)).toEqual(deriveViews(whole));
          expect(resumed?.last).toBe((await readEvents(db)).at(-1)?.id);
        }
        // Stopping writes the snapshot still waiting: it then covers the whole log.
        await keeper.stop();
        const atEnd = await openFromSnapshot(db, ready);
        expect(comparable((atEnd as { states: States }).states)).toEqual(comparable(whole));
        db.close();
        await db.delete();
      }),
      { numRuns: 40 },
    );
  });

  it("a snapshot that does not fit the log on disk is never used", async () => {
    await fc.assert(
      fc.asyncProperty(eventLog(12), eventLog(12), async (first, second) => {
        const db = freshDb();
        const held = { s: initialStates() };
        const keeper = keeperOf(db, held);
        await appendAll(db, held, keeper, first);
        await keeper.write();
        expect(await openFromSnapshot(db, ready)).not.toBeNull();
        // Another log written where this one was (its snapshot left behind): the event it ends with is gone.
        await db.transaction("rw", db.log, db.logIds, () => clearLog(db));
        await appendEvents(
          db,
          second.map((e) => ({ ...e, id: `other-${e.id}` })),
        );
        expect(await openFromSnapshot(db, ready)).toBeNull();
        // Made by other code of the folds: never read.
        const row = await db.snapshots.get(STATES_SNAPSHOT);
        await db.snapshots.put({
          name: STATES_SNAPSHOT,
          seq: row?.seq ?? 1,
          state: { ...(row?.state as object), fold: "other" },
        });
        expect(await openFromSnapshot(db, ready)).toBeNull();
        db.close();
        await db.delete();
      }),
      { numRuns: 15 },
    );
  });
});

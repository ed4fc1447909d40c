import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WalletDb } from "../src/events/db";
import { appendEvents, readEvents } from "../src/events/log";
import { deriveViews, foldEvent, foldEvents, initialStates } from "../src/projections";
import { eventLog } from "./arbitraries";

let dbCount = 0;
const freshDb = () => new WalletDb(`replay-${++dbCount}`);

describe("replay", () => {
  it("folding a log in one go gives the views the live fold showed", () => {
    fc.assert(
      fc.property(eventLog(), fc.nat(), (events, cut) => {
        // Live: views derived after every event, as the worker pushes them.
        let live = initialStates();
        for (const e of events) {
          live = foldEvent(live, e);
          deriveViews(live);
        }
        const replayed = foldEvents(events);
        expect(deriveViews(replayed)).toEqual(deriveViews(live));
        // Resuming from any point gives the same as folding from scratch.
        const at = cut % (events.length + 1);
        const resumed = foldEvents(events.slice(at), foldEvents(events.slice(0, at)));
        expect(deriveViews(resumed)).toEqual(deriveViews(replayed));
      }),
      { numRuns: 150 },
    );
  });

  it("the log read back from IndexedDB folds to the views of the events appended", async () => {
    await fc.assert(
      fc.asyncProperty(eventLog(25), fc.integer({ min: 1, max: 5 }), async (events, batch) => {
        const db = freshDb();
        let live = initialStates();
        for (let i = 0; i < events.length; i += batch) {
          const fresh = await appendEvents(db, events.slice(i, i + batch));
          for (const e of fresh) live = foldEvent(live, e);
        }
        // Appending again is a no-op: the log is idempotent by id.
        expect(await appendEvents(db, events)).toEqual([]);
        const replayed = foldEvents(await readEvents(db));
        expect(deriveViews(replayed)).toEqual(deriveViews(live));
        db.close();
        await db.delete();
      }),
      { numRuns: 40 },
    );
  });
});

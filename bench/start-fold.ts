// A returning wallet's start in its worker: the whole log folded, beside the snapshot of the folded log
// with the events after it (src/commands/host/snapshot.ts). Node and fake IndexedDB; prints figures.
import "fake-indexeddb/auto";
import * as A from "@automerge/automerge/slim";
import { base64 } from "@scure/base";
import { openLog } from "../src/commands/host/open";
import { SnapshotKeeper } from "../src/commands/host/snapshot";
import { emptyDoc, type WalletDoc } from "../src/crdt/doc";
import { initCrdtNode } from "../src/crdt/node";
import { WalletDb } from "../src/events/db";
import { appendEvents, readEvents } from "../src/events/log";
import { stamp } from "../src/events/make";
import { foldEvents } from "../src/projections";
import { bigContact, custodianEvents } from "./big-wallet";
import { busyLog } from "./replay";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * 5,000 on-chain payments (address, payment, confirmation each), 1,000 contacts each added by its own
 * change of the owner's document (as the contacts screen adds them), 3 custodians joined.
 */
const bigLog = () => {
  const log = busyLog(5000 * 3 + 1);
  let n = 0;
  const s = { uuid: () => `big-${++n}`, now: () => 1_800_000_000_000 + n, device: "bb" };
  // One change after another on one document of this device: the changes a contact at a time makes.
  let doc = A.clone(emptyDoc(), { actor: "bb" });
  const changes: string[] = [];
  for (let i = 0; i < 1000; i++) {
    doc = A.change(doc, (d: WalletDoc) => {
      d.contacts[`contact-${i}`] = bigContact(i);
    });
    changes.push(base64.encode(A.getLastLocalChange(doc) as Uint8Array));
  }
  const more = stamp(
    [
      ...changes.map((change) => ({ type: "crdt.change" as const, payload: { change } })),
      ...custodianEvents(3),
    ],
    s,
  );
  return [...log, ...more];
};

export const benchStartFold = async (runs = 5) => {
  await initCrdtNode();
  const events = bigLog();
  const db = new WalletDb(`bench-start-fold-${Date.now()}`);
  await appendEvents(db, events);
  const deps = { db, config: {} as never, cipher: {} as never, onViews: () => undefined };
  const whole: number[] = [];
  const resumed: number[] = [];
  for (let r = 0; r < runs; r++) {
    await db.snapshots.clear();
    let t0 = performance.now();
    const full = await openLog(deps);
    whole.push(performance.now() - t0);
    const keeper = new SnapshotKeeper(
      db,
      () => full.states,
      (f) => f(),
      full.last,
    );
    t0 = performance.now();
    await keeper.write();
    const writeMs = performance.now() - t0;
    t0 = performance.now();
    const again = await openLog(deps);
    resumed.push(performance.now() - t0);
    if (!again.fromSnapshot) throw new Error("the start did not use the snapshot");
    if (r === 0)
      console.log(`start: the snapshot of ${events.length} events written in ${writeMs.toFixed(0)} ms`);
  }
  const check = foldEvents(await readEvents(db));
  if (check.seq !== events.length) throw new Error("the log did not fold whole");
  console.log(
    `start of a wallet of ${events.length.toLocaleString("en")} events (5,000 payments, 1,000 contacts each its own change, 3 custodians), log read and folded in the worker: whole log ${median(whole).toFixed(0)} ms; from its snapshot ${median(resumed).toFixed(0)} ms (medians of ${runs}; Node, fake IndexedDB)`,
  );
  db.close();
  await db.delete();
};

if (import.meta.url === `file://${process.argv[1]}`) await benchStartFold();

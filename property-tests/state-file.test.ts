import { Effect, Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importState, importStateEvents } from "../src/commands/wallet/state-file";
import { stateFileOf, weakStateCipher } from "../src/commands/wallet/state-file.testing";
import { impossibleHoldings } from "../src/commands/wallet/state-bounds";
import { WalletDb } from "../src/events/db";
import { appendEvents, readEvents } from "../src/events/log";
import { KV } from "../src/events/storage-keys";
import { deriveViews, foldEvents } from "../src/projections";
import { eventLog, toEvents } from "./arbitraries";

const cipher = weakStateCipher;
const SEED = {
  key: KV.seed,
  value: {
    mnemonic: "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
  },
};
let n = 0;
const freshDb = () => new WalletDb(`state-file-${++n}`);

const walletDb = async (events = toEvents([])) => {
  const db = freshDb();
  await appendEvents(db, events, [SEED]);
  return db;
};

const exportOf = stateFileOf;

const snapshot = async (db: WalletDb) => ({
  events: (await readEvents(db)).map((e) => JSON.stringify(e)),
  kv: (await db.kv.toArray()).map((r) => JSON.stringify(r)),
});

const dispose = async (...dbs: WalletDb[]) => {
  for (const db of dbs) {
    db.close();
    await db.delete();
  }
};

describe("state file", () => {
  it("export then import into an empty database gives identical views", async () => {
    await fc.assert(
      // Logs of a wallet that can exist: what they hold adds up to at most 21 million bitcoin.
      fc.asyncProperty(
        eventLog(30).filter((e) => impossibleHoldings(foldEvents(e), e) === null),
        async (events) => {
          const source = await walletDb(events);
          const { json } = await exportOf(source);
          const target = freshDb();
          const r = await Effect.runPromise(importStateEvents(target, json, "pw", "regtest", null, cipher));
          const onDisk = deriveViews(foldEvents(await readEvents(target)));
          expect(onDisk).toEqual(deriveViews(foldEvents(events)));
          // The fold the import hands the wallet (made while checking the file) is the fold of the log written.
          expect(r.folded && deriveViews(r.folded)).toEqual(onDisk);
          expect(await target.kv.get(KV.seed)).toEqual(SEED);
          await dispose(source, target);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("importing the same wallet's export again merges: nothing is duplicated", async () => {
    const db = await walletDb(
      toEvents([{ k: "tx", received: 5000n, sent: 0n, fee: 0n, outgoing: false, label: "" }]),
    );
    const { json } = await exportOf(db);
    const before = await snapshot(db);
    const r = await Effect.runPromise(importState(db, json, "pw", "regtest", "wallet-1", cipher));
    expect(r.imported).toBe(0);
    expect((await snapshot(db)).events).toEqual(before.events);
    await dispose(db);
  });

  it("a mutated file either imports or is refused with a clear error, and a refusal changes nothing", async () => {
    const source = await walletDb(
      toEvents([
        { k: "tx", received: 5000n, sent: 0n, fee: 0n, outgoing: false, label: "x" },
        { k: "backup" },
      ]),
    );
    const { json } = await exportOf(source);
    const file = JSON.parse(json);
    const plain = JSON.parse(JSON.stringify(await cipher.open(file.sealed, "pw")));

    // Mutations of the readable file, and of the sealed contents re-sealed with the right password.
    const textMutation = fc.tuple(
      fc.nat({ max: json.length - 1 }),
      fc.string({ maxLength: 3 }),
      fc.nat({ max: 3 }),
    );
    const pathInto = (obj: unknown, pick: number): [Record<string, unknown>, string] | null => {
      const spots: [Record<string, unknown>, string][] = [];
      const walk = (o: unknown) => {
        if (o && typeof o === "object")
          for (const k of Object.keys(o)) {
            spots.push([o as Record<string, unknown>, k]);
            walk((o as Record<string, unknown>)[k]);
          }
      };
      walk(obj);
      return spots.length ? spots[pick % spots.length]! : null;
    };
    const contentMutation = fc.tuple(
      fc.nat(),
      fc.oneof(
        fc.constant(undefined),
        fc.constant(null),
        fc.integer(),
        fc.string({ maxLength: 5 }),
        fc.constant([]),
        fc.constant({}),
      ),
    );

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          textMutation.map((m) => ({ kind: "text" as const, m })),
          contentMutation.map((m) => ({ kind: "content" as const, m })),
        ),
        async (mutation) => {
          let text: string;
          if (mutation.kind === "text") {
            const [at, insert, del] = mutation.m;
            text = json.slice(0, at) + insert + json.slice(at + del);
          } else {
            const contents = structuredClone(plain);
            const spot = pathInto(contents, mutation.m[0]);
            if (spot) {
              if (mutation.m[1] === undefined) delete spot[0][spot[1]];
              else spot[0][spot[1]] = mutation.m[1];
            }
            text = JSON.stringify({ ...file, sealed: await cipher.seal(contents, "pw") });
          }
          const target = await walletDb(toEvents([{ k: "fiat", code: "EUR" }], 7));
          const before = await snapshot(target);
          const r = await Effect.runPromise(
            Effect.result(importState(target, text, "pw", "regtest", "wallet-7", cipher)),
          );
          if (Result.isFailure(r)) {
            expect(["ImportRejected", "WrongPassword", "PasswordRequired", "InvalidInput"]).toContain(
              r.failure._tag,
            );
            expect(r.failure.message.length).toBeGreaterThan(5);
            expect(await snapshot(target)).toEqual(before);
          } else {
            // An accepted file is a wallet that folds.
            deriveViews(foldEvents(await readEvents(target)));
          }
          await dispose(target);
        },
      ),
      { numRuns: 150 },
    );
    await dispose(source);
  });
});

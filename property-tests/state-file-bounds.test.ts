/**
 * A state file's sums must be possible: each amount in it is within 21 million bitcoin, but what they add up
 * to at a custodian, across custodians, or merged into this device's log must be too, and ecash is only held
 * at a mint the wallet joined. Whatever the split of amounts, a file beyond that is refused and changes
 * nothing; one within it imports.
 */
import { Effect, Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importState } from "../src/commands/wallet/state-file";
import { stateFileOf, weakStateCipher } from "../src/commands/wallet/state-file.testing";
import { WalletDb } from "../src/events/db";
import { appendEvents, readEvents } from "../src/events/log";
import { newEvent, stamp } from "../src/events/make";
import { KV } from "../src/events/storage-keys";
import type { WalletEvent } from "../src/events/types";
import { MAX_MONEY_SATS } from "../src/money";
import { foldEvents } from "../src/projections";
import { toEvents } from "./arbitraries";
import { dropDbs } from "../src/events/events.testing";

const cipher = weakStateCipher;
const SEED = { key: KV.seed, value: { mnemonic: "abandon ".repeat(11).concat("about") } };
const MINTS = ["https://a.example/cashu", "https://b.example/cashu", "https://c.example/cashu"];
let n = 0;

const walletDb = async (events: WalletEvent[]) => {
  const db = new WalletDb(`state-bounds-${++n}`);
  await appendEvents(db, events, [SEED]);
  return db;
};

const exportOf = async (db: WalletDb) => (await stateFileOf(db)).json;

const snapshot = async (db: WalletDb) => ({
  events: (await readEvents(db)).map((e) => JSON.stringify(e)),
  kv: (await db.kv.toArray()).map((r) => JSON.stringify(r)),
});

/** One receive of ecash: `amount` at mint number `mint`. */
const move = fc.record({
  mint: fc.nat({ max: MINTS.length - 1 }),
  amount: fc.oneof(
    fc.bigInt({ min: 0n, max: MAX_MONEY_SATS }),
    fc.bigInt({ min: MAX_MONEY_SATS / 4n, max: MAX_MONEY_SATS }),
    fc.bigInt({ min: 0n, max: 100_000n }),
  ),
});

const ecashLog = (
  joined: readonly boolean[],
  moves: readonly { mint: number; amount: bigint }[],
  from = 0,
) => {
  let i = from;
  const stampWith = { uuid: () => `e-${++i}`, now: () => 1_700_000_000_000 + i, device: "d" };
  return stamp(
    [
      ...MINTS.flatMap((mint, k) =>
        joined[k]
          ? [
              newEvent("ecash.joined", {
                mint,
                kind: "cashu",
                name: `m${k}`,
                welcome: "",
                expires_at: null,
                invite: mint,
              }),
            ]
          : [],
      ),
      ...moves.map((m) =>
        newEvent("ecash.received", {
          op: `op-${++i}`,
          mint: MINTS[m.mint]!,
          amount: m.amount.toString(),
          fee: "0",
          via: "token",
          payment_hash: null,
        }),
      ),
    ],
    stampWith,
  );
};

/** Whether a wallet holding `moves` at the mints `joined` says is possible. */
const possible = (joined: readonly boolean[], moves: readonly { mint: number; amount: bigint }[]) => {
  const at = MINTS.map(() => 0n);
  for (const m of moves) {
    if (!joined[m.mint]) return false;
    at[m.mint]! += m.amount;
  }
  return at.every((a) => a <= MAX_MONEY_SATS) && at.reduce((a, b) => a + b, 0n) <= MAX_MONEY_SATS;
};

describe("a state file's balances", () => {
  it("import into an empty device: refused, changing nothing, exactly when the sums are impossible", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: MINTS.length, maxLength: MINTS.length }),
        fc.array(move, { minLength: 1, maxLength: 6 }),
        async (joined, moves) => {
          const source = await walletDb([...toEvents([]), ...ecashLog(joined, moves)]);
          const json = await exportOf(source);
          const target = new WalletDb(`state-bounds-${++n}`);
          const before = await snapshot(target);
          const r = await Effect.runPromise(
            Effect.result(importState(target, json, "pw", "regtest", null, cipher)),
          );
          if (possible(joined, moves)) expect(Result.isSuccess(r)).toBe(true);
          else {
            expect(Result.isFailure(r) && r.failure).toMatchObject({ _tag: "ImportRejected" });
            expect(await snapshot(target)).toEqual(before);
          }
          await dropDbs(source, target);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("merged into this device's log: the sums of both are checked, and a refusal changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(move, { minLength: 1, maxLength: 4 }),
        fc.array(move, { minLength: 1, maxLength: 4 }),
        async (mine, theirs) => {
          const all = [true, true, true];
          const base = toEvents([]);
          // The same wallet on two devices: each has its own receives besides the common start.
          const device = await walletDb([...base, ...ecashLog(all, mine)]);
          const other = await walletDb([...base, ...ecashLog(all, theirs, 1_000)]);
          const json = await exportOf(other);
          const before = await snapshot(device);
          const walletId = foldEvents(base).wallet.walletId;
          const r = await Effect.runPromise(
            Effect.result(importState(device, json, "pw", "regtest", walletId, cipher)),
          );
          if (possible(all, [...mine, ...theirs]) || !possible(all, theirs)) {
            // Either fine, or refused for the file alone (checked by the property above).
            if (possible(all, [...mine, ...theirs])) expect(Result.isSuccess(r)).toBe(true);
          } else {
            expect(Result.isFailure(r) && r.failure).toMatchObject({ _tag: "ImportRejected" });
            expect(await snapshot(device)).toEqual(before);
          }
          await dropDbs(device, other);
        },
      ),
      { numRuns: 25 },
    );
  });
});

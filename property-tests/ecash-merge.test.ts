/**
 * Importing another device's state file merges the ecash each device holds at the same mint: whatever the
 * two proof sets are (overlapping, disjoint, one empty, with operations on their way), every proof of either
 * is kept exactly once, the total is the sum of the distinct proofs, nothing this device is spending comes
 * back, counters never go back, and merging is idempotent. The proofs the file brought are then checked at
 * the mint (NUT-07) before they are trusted (`unchecked`); the live drop of spent ones is proven against the
 * world's mint in src/commands/federations.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeState,
  emptyState,
  encodeState,
  mergeBlob,
  mergeCounters,
  mergeStates,
  type MintState,
  type PendingOp,
  type StoredProof,
  stateKey,
  sumProofs,
  COUNTERS_KEY,
} from "../src/engine/ecash/cashu/state";
import { utf8 } from "@scure/base";

const KEYSETS = ["00ad268c4d1f5826", "009a1f293253e41e"];

/** A pool of distinct proofs; each device holds some of them (the same secret is the same proof). */
const pool = fc.uniqueArray(
  fc.record({
    id: fc.constantFrom(...KEYSETS),
    amount: fc.constantFrom(1n, 2n, 4n, 8n, 64n, 1024n, 2n ** 40n).map((a) => a.toString()),
    secret: fc.stringMatching(/^[0-9a-f]{8,16}$/),
    C: fc.constant(`02${"ab".repeat(32)}`),
  }),
  { selector: (p) => p.secret, maxLength: 40 },
);

const counters = fc.dictionary(fc.constantFrom(...KEYSETS), fc.nat({ max: 10_000 }));

const pendingOf = (inputs: StoredProof[], op: string): PendingOp => ({
  kind: "swap",
  op,
  inputs,
  own: true,
  ranges: [],
  via: "token",
});

/** Two devices' stores drawn from one pool: proofs held, counters, and maybe a send on its way. */
const twoStates = pool.chain((proofs) =>
  fc
    .record({
      a: fc.subarray(proofs),
      b: fc.subarray(proofs),
      aPending: fc.subarray(proofs, { maxLength: Math.min(3, proofs.length) }),
      bPending: fc.subarray(proofs, { maxLength: Math.min(3, proofs.length) }),
      withA: fc.boolean(),
      withB: fc.boolean(),
      ca: counters,
      cb: counters,
    })
    .map(({ a, b, aPending, bPending, withA, withB, ca, cb }) => {
      const device: MintState = { ...emptyState(), counters: ca };
      const file: MintState = { ...emptyState(), counters: cb };
      const pendA = withA ? aPending.filter((p) => !a.includes(p)) : [];
      const pendB = withB ? bPending.filter((p) => !b.includes(p)) : [];
      device.proofs = a;
      file.proofs = b;
      if (pendA.length > 0) device.pending = pendingOf(pendA, "op-a");
      if (pendB.length > 0) file.pending = pendingOf(pendB, "op-b");
      return { device, file };
    }),
);

const secrets = (ps: readonly StoredProof[]) => ps.map((p) => p.secret);

describe("merging ecash from another device's state file", () => {
  it("keeps every proof of either device exactly once, none this device is spending, and the sum of the distinct proofs", () => {
    fc.assert(
      fc.property(twoStates, ({ device, file }) => {
        const merged = mergeStates(device, file);
        const out = secrets(merged.proofs);
        // None double-counted.
        expect(new Set(out).size).toBe(out.length);
        const spending = new Set(secrets(device.pending?.inputs ?? []));
        const expected = new Map<string, StoredProof>();
        for (const p of [...device.proofs, ...file.proofs, ...(file.pending?.inputs ?? [])])
          if (!spending.has(p.secret) || device.proofs.includes(p)) expected.set(p.secret, p);
        // None lost: every proof either device holds (or the file was spending) is there.
        expect(new Set(out)).toEqual(new Set(expected.keys()));
        expect(sumProofs(merged.proofs)).toBe(sumProofs([...expected.values()]));
        // This device's proofs come first, in their order.
        expect(out.slice(0, device.proofs.length)).toEqual(secrets(device.proofs));
        // The operation on its way here is kept; the file's proofs new here are checked at the mint first.
        expect(merged.pending).toEqual(device.pending ?? file.pending);
        const brought = out.some((s) => !device.proofs.some((p) => p.secret === s));
        expect(merged.unchecked === true).toBe(brought);
      }),
      { numRuns: 300 },
    );
  });

  it("never lowers a NUT-13 counter, so no secret is made twice", () => {
    fc.assert(
      fc.property(counters, counters, (a, b) => {
        const m = mergeCounters(a, b);
        for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
          expect(m[k]).toBe(Math.max(a[k] ?? 0, b[k] ?? 0));
      }),
    );
  });

  it("is idempotent, and the blobs merge as the states do", () => {
    fc.assert(
      fc.property(twoStates, ({ device, file }) => {
        const once = mergeStates(device, file);
        const twice = mergeStates(once, file);
        expect(secrets(twice.proofs)).toEqual(secrets(once.proofs));
        expect(twice.counters).toEqual(once.counters);
        const blob = mergeBlob(stateKey("http://m"), encodeState(device), encodeState(file));
        expect(blob && secrets(decodeState(blob).proofs)).toEqual(secrets(once.proofs));
        const c = mergeBlob(
          COUNTERS_KEY,
          utf8.decode(JSON.stringify(device.counters)),
          utf8.decode(JSON.stringify(file.counters)),
        );
        expect(c && JSON.parse(utf8.encode(c))).toEqual(mergeCounters(device.counters, file.counters));
        expect(mergeBlob("ln/manager", encodeState(device), encodeState(file))).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHANGE_DUST,
  estimateVsize,
  feeFor,
  P2WPKH_SCRIPT_LEN,
  selectCoins,
  sweepCoins,
} from "./coin-select";

const coin = fc.bigInt({ min: 1n, max: 5_000_000_000n }).map((value) => ({ value }));
const coins = fc.array(coin, { minLength: 0, maxLength: 30 });
const amount = fc.bigInt({ min: 1n, max: 20_000_000_000n });
const rate = fc.bigInt({ min: 1000n, max: 500_000n });
const destLen = fc.constantFrom(22, 23, 25, 34);

const sum = (cs: readonly { value: bigint }[]) => cs.reduce((s, c) => s + c.value, 0n);

describe("selectCoins", () => {
  it("balances: inputs = amount + change + fee, and never spends coins it was not given", () => {
    fc.assert(
      fc.property(coins, amount, destLen, rate, (cs, amt, len, r) => {
        const res = selectCoins(cs, amt, len, r);
        if (!res.ok) return;
        const s = res.selection;
        expect(sum(s.inputs)).toBe(s.amount + s.change + s.fee);
        expect(s.amount).toBe(amt);
        for (const input of s.inputs) expect(cs).toContain(input);
        expect(new Set(s.inputs).size).toBe(s.inputs.length);
      }),
    );
  });

  it("respects the feerate and makes change only above dust", () => {
    fc.assert(
      fc.property(coins, amount, destLen, rate, (cs, amt, len, r) => {
        const res = selectCoins(cs, amt, len, r);
        if (!res.ok) return;
        const s = res.selection;
        const outs = s.change > 0n ? [len, P2WPKH_SCRIPT_LEN] : [len];
        expect(s.vsize).toBe(estimateVsize(s.inputs.length, outs));
        expect(s.fee).toBeGreaterThanOrEqual(feeFor(s.vsize, r));
        if (s.change > 0n) {
          expect(s.change).toBeGreaterThanOrEqual(CHANGE_DUST);
          expect(s.fee).toBe(feeFor(s.vsize, r));
        } else {
          // What went to the fee beyond the rate was too small to be change.
          const withChange = feeFor(estimateVsize(s.inputs.length, [len, P2WPKH_SCRIPT_LEN]), r);
          expect(sum(s.inputs) - amt - withChange).toBeLessThan(CHANGE_DUST);
        }
      }),
    );
  });

  it("refuses only when no set of the coins could pay", () => {
    fc.assert(
      fc.property(coins, amount, destLen, rate, (cs, amt, len, r) => {
        const res = selectCoins(cs, amt, len, r);
        if (res.ok) return;
        const sorted = [...cs].sort((a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0));
        let total = 0n;
        sorted.forEach((c, i) => {
          total += c.value;
          // The best set of i + 1 coins is the i + 1 largest; even it falls short.
          expect(total - amt).toBeLessThan(feeFor(estimateVsize(i + 1, [len]), r));
        });
      }),
    );
  });
});

describe("sweepCoins", () => {
  it("spends every coin and pays the rest after the fee", () => {
    fc.assert(
      fc.property(coins, destLen, rate, (cs, len, r) => {
        const res = sweepCoins(cs, len, r, 546n);
        if (!res.ok) {
          expect(cs.length === 0 || sum(cs) - feeFor(estimateVsize(cs.length, [len]), r) < 546n).toBe(true);
          return;
        }
        const s = res.selection;
        expect(s.inputs.length).toBe(cs.length);
        expect(s.change).toBe(0n);
        expect(sum(s.inputs)).toBe(s.amount + s.fee);
        expect(s.fee).toBe(feeFor(estimateVsize(cs.length, [len]), r));
        expect(s.amount).toBeGreaterThanOrEqual(546n);
      }),
    );
  });
});

describe("size estimate", () => {
  it("matches a one-input, two-output P2WPKH spend (141 vB at most)", () => {
    expect(estimateVsize(1, [22, 22])).toBe(141n);
    expect(feeFor(141n, 1000n)).toBe(141n);
    expect(feeFor(141n, 2500n)).toBe(353n);
  });
});

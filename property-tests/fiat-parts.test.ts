/**
 * The balance card's fiat rows: each part of the balance in fiat, rounded so the rows add up to the total
 * the card shows (largest-remainder rounding), and each within one minor unit of its own exact value.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDecimal, satsToFiat, satsToFiatParts } from "../src/engine/amount";

/** A plain decimal with `digits` fraction digits as minor units ("1195.56" → 119556n). */
const minor = (text: string, digits: number): bigint => {
  const d = parseDecimal(text);
  if (d === null) throw new Error(`not a decimal: ${text}`);
  return d.units * 10n ** BigInt(digits - d.scale);
};

const price = fc.oneof(
  fc.constantFrom("98765.43", "100000", "1", "0.5", "13456789.123"),
  fc.integer({ min: 1, max: 10_000_000 }).map(String),
);
const parts = fc.array(fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n }), { minLength: 0, maxLength: 8 });
const digits = fc.constantFrom(0, 2, 3, 8);

describe("fiat parts of a balance", () => {
  it("add up to the fiat value of the whole, and each is its own value rounded up or down", () => {
    fc.assert(
      fc.property(parts, price, digits, (sats, p, d) => {
        const { whole, parts: shown } = satsToFiatParts(sats, p, d);
        expect(whole).toBe(
          satsToFiat(
            sats.reduce((a, b) => a + b, 0n),
            p,
            d,
          ),
        );
        expect(shown).toHaveLength(sats.length);
        expect(shown.reduce((sum, x) => sum + minor(x, d), 0n)).toBe(minor(whole, d));
        sats.forEach((s, i) => {
          // Within one minor unit of the part's own rounding: never more than a cent off.
          const own = minor(satsToFiat(s, p, d), d);
          const got = minor(shown[i] ?? "", d);
          expect(got - own <= 1n && own - got <= 1n).toBe(true);
        });
      }),
      { numRuns: 500 },
    );
  });

  it("rows that, each rounded alone, make a cent less than the total add up to it", () => {
    // Two parts whose own roundings each drop almost half a cent.
    const p = "100000";
    const sats = [541_184n, 644_384n, 10_000n];
    const { whole, parts: shown } = satsToFiatParts(sats, p, 2);
    expect(sats.map((s) => satsToFiat(s, p, 2))).toEqual(["541.18", "644.38", "10.00"]);
    expect(whole).toBe("1195.57");
    expect(shown.reduce((sum, x) => sum + minor(x, 2), 0n)).toBe(minor(whole, 2));
  });
});

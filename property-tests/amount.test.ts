import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  btcStringToSats,
  fiatToSats,
  InvalidPrice,
  normaliseFiatInput,
  normaliseSatsInput,
  parseDecimal,
  satsToBtcString,
  satsToFiat,
} from "../src/engine/amount";
import { FIAT_CURRENCIES } from "../src/engine/price/currencies";

/** Every amount the wallet can hold, up to the spec's maximum threshold and a little past it. */
const sats = fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n });
/** Fraction digits a currency can have: those of the offered currencies, and BTC's 8. */
const digits = fc.constantFrom(...new Set([...FIAT_CURRENCIES.map((c) => c.maxFractionalDigits), 8]));
/** A price as an exact decimal string: `units / 10^scale`, from 10^-10 up to 10^15 fiat per BTC. */
const price = fc
  .record({ units: fc.bigInt({ min: 1n, max: 10n ** 15n }), scale: fc.integer({ min: 0, max: 10 }) })
  .map(({ units, scale }) => {
    const text = units.toString().padStart(scale + 1, "0");
    return { units, scale, text: scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}` };
  });
/** What someone might type or paste into an amount field. */
const typed = fc.oneof(fc.string({ unit: fc.constantFrom(..."0123456789..,,- $€abcE") }), fc.string());

/** How often the exact cases of the round trips came up, so a change of arbitraries cannot hide them. */
let exactSatsRuns = 0;
let exactFiatRuns = 0;

const abs = (n: bigint) => (n < 0n ? -n : n);
const pow10 = (n: number) => 10n ** BigInt(n);
/** Minor units (10^-digits) in a plain fiat decimal string. */
const minorUnits = (fiat: string, d: number): bigint => {
  const [whole = "0", fraction = ""] = fiat.split(".");
  return BigInt(whole || "0") * pow10(d) + BigInt(fraction.padEnd(d, "0") || "0");
};

describe("amount input normalisation (spec 1 §5)", () => {
  it("sats: digits only, no leading zeros, idempotent, same number", () => {
    fc.assert(
      fc.property(typed, (raw) => {
        const out = normaliseSatsInput(raw);
        expect(out).toMatch(/^(0|[1-9]\d*)?$/);
        expect(normaliseSatsInput(out)).toBe(out);
        const kept = raw.replace(/\D/g, "");
        expect(out === "").toBe(kept === "");
        if (kept !== "") expect(BigInt(out)).toBe(BigInt(kept));
      }),
    );
  });

  it("fiat: digits and at most one point, no more fraction digits than the currency has, idempotent", () => {
    fc.assert(
      fc.property(typed, digits, (raw, d) => {
        const out = normaliseFiatInput(raw, d);
        const shape = d === 0 ? /^(0|[1-9]\d*)?$/ : new RegExp(`^((0|[1-9]\\d*)(\\.\\d{0,${d}})?)?$`);
        expect(out).toMatch(shape);
        expect(normaliseFiatInput(out, d)).toBe(out);
      }),
    );
  });

  it("fiat: a typed decimal keeps its value, truncated to the currency's digits", () => {
    const digitString = fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 12 });
    fc.assert(
      fc.property(digitString, digitString, fc.integer({ min: 1, max: 8 }), (whole, fraction, d) => {
        const out = normaliseFiatInput(`${whole}.${fraction}`, d);
        const truncated = fraction.slice(0, d);
        expect(out).toBe(`${normaliseSatsInput(whole) || "0"}.${truncated}`);
        expect(minorUnits(out, d)).toBe(BigInt(whole || "0") * pow10(d) + BigInt(truncated.padEnd(d, "0")));
      }),
    );
  });
});

describe("sats and fiat", () => {
  it("satsToFiat writes exactly `digits` fraction digits, never NaN, exponent or float noise", () => {
    fc.assert(
      fc.property(sats, price, digits, (s, p, d) => {
        const fiat = satsToFiat(s, p.text, d);
        expect(fiat).toMatch(d === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${d}}$`));
        // Exactly the nearest minor unit, halves up: |fiat·10^(8+scale) − s·units·10^d| ≤ half a minor unit.
        const exact = s * p.units * pow10(d);
        const shown = minorUnits(fiat, d) * pow10(8 + p.scale);
        expect(2n * abs(shown - exact) <= pow10(8 + p.scale)).toBe(true);
        expect(typeof fiatToSats(fiat, p.text, d)).toBe("bigint");
      }),
    );
  });

  it("more sats are never worth less fiat", () => {
    fc.assert(
      fc.property(sats, sats, price, digits, (a, b, p, d) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(minorUnits(satsToFiat(lo, p.text, d), d) <= minorUnits(satsToFiat(hi, p.text, d), d)).toBe(
          true,
        );
      }),
    );
  });

  /*
   * With step = sats one minor unit is worth = 10^(8+scale−digits) / units:
   * sats → fiat → sats comes back within (step + 1) / 2 sats, and exactly when step < 1 (a minor unit
   * is worth less than a sat); it never loses more than the fiat's own rounding can hide.
   */
  it("sats → fiat → sats stays within half a minor unit's worth (plus half a sat), exact below a sat", () => {
    fc.assert(
      fc.property(sats, price, digits, (s, p, d) => {
        const back = fiatToSats(satsToFiat(s, p.text, d), p.text, d);
        const stepNumerator = pow10(8 + p.scale); // step = stepNumerator / (units · 10^d)
        const perMinor = p.units * pow10(d);
        expect(2n * abs(back - s) * perMinor <= stepNumerator + perMinor).toBe(true);
        if (perMinor > stepNumerator) {
          exactSatsRuns++;
          expect(back).toBe(s);
        }
      }),
    );
  });

  /*
   * fiat → sats → fiat comes back within (1/step + 1) / 2 minor units, and exactly when step > 1 (a sat is
   * worth less than a minor unit): every amount the owner types in fiat is one the wallet can pay.
   */
  it("fiat → sats → fiat stays within half a sat's worth (plus half a minor unit), exact above a sat", () => {
    const minor = fc.bigInt({ min: 0n, max: 10n ** 14n });
    fc.assert(
      fc.property(minor, price, digits, (m, p, d) => {
        const fiat = d === 0 ? m.toString() : `${m / pow10(d)}.${(m % pow10(d)).toString().padStart(d, "0")}`;
        const typedMinor = minorUnits(fiat, d);
        const back = minorUnits(satsToFiat(fiatToSats(fiat, p.text, d), p.text, d), d);
        const satScale = pow10(8 + p.scale);
        const perMinor = p.units * pow10(d);
        expect(2n * abs(back - typedMinor) * satScale <= perMinor + satScale).toBe(true);
        if (perMinor < satScale) {
          exactFiatRuns++;
          expect(back).toBe(typedMinor);
        }
      }),
    );
  });

  it("the exact cases of both round trips were exercised", () => {
    expect(exactSatsRuns).toBeGreaterThan(0);
    expect(exactFiatRuns).toBeGreaterThan(0);
  });

  it("at price 1 with 8 digits, fiat is the exact BTC amount both ways", () => {
    fc.assert(
      fc.property(sats, (s) => {
        expect(satsToFiat(s, "1", 8)).toBe(satsToBtcString(s));
        expect(fiatToSats(satsToBtcString(s), "1", 8)).toBe(s);
      }),
    );
  });

  it("fiatToSats of anything typed is a non-negative bigint", () => {
    fc.assert(
      fc.property(typed, price, digits, (raw, p, d) => {
        const out = fiatToSats(raw, p.text, d);
        expect(typeof out).toBe("bigint");
        expect(out >= 0n).toBe(true);
      }),
    );
  });

  it("an unusable price is InvalidPrice, nothing else; a usable one (number too) gives a decimal", () => {
    const anyPrice = fc.oneof(
      fc.string(),
      fc.double(),
      price.map((p) => p.text),
    );
    fc.assert(
      fc.property(sats, anyPrice, digits, (s, p, d) => {
        const parsed = parseDecimal(p);
        if (parsed === null || parsed.units === 0n) {
          expect(() => satsToFiat(s, p, d)).toThrow(InvalidPrice);
          expect(() => fiatToSats("1", p, d)).toThrow(InvalidPrice);
        } else {
          expect(satsToFiat(s, p, d)).toMatch(/^\d+(\.\d+)?$/);
          expect(typeof fiatToSats("1", p, d)).toBe("bigint");
        }
      }),
    );
  });
});

describe("BTC strings", () => {
  it("satsToBtcString has eight digits and reads back exactly", () => {
    fc.assert(
      fc.property(sats, (s) => {
        const btc = satsToBtcString(s);
        expect(btc).toMatch(/^\d+\.\d{8}$/);
        expect(btcStringToSats(btc)).toBe(s);
      }),
    );
  });
});

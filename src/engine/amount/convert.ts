import { SATS_PER_BTC } from "../parse/amount";
import { divideRoundingHalfUp, formatScaled, parseDecimal, type ScaledDecimal } from "./decimal";
import { normaliseFiatInput } from "./normalise";

/**
 * Conversions between bigint sats and fiat strings at a price (fiat per whole BTC). All maths is on
 * bigints: the price is read as an exact scaled decimal, and each result is rounded once, to the nearest
 * minor unit (fiat) or sat, halves away from zero ("half up" for the non-negative amounts people enter).
 *
 * How close a round trip comes back, with `step` = sats one minor unit of the fiat is worth
 * (10^-digits × 10^8 / price):
 * - sats → fiat → sats lands within (step + 1) / 2 sats of where it started, and exactly on it when a
 *   minor unit is worth less than a sat (step < 1), or when the fiat amount needed no rounding;
 * - fiat → sats → fiat lands within half a sat's worth plus half a minor unit, and exactly on it when a
 *   sat is worth less than a minor unit (step > 1).
 */

/**
 * A price that is not a finite positive decimal; the price feed never yields one. A plain tagged error, not
 * Effect's: the page formats amounts on its first screen, and Effect's runtime would come with it.
 */
export class InvalidPrice extends Error {
  readonly _tag = "InvalidPrice" as const;
  constructor(args: { readonly message: string }) {
    super(args.message);
    this.name = "InvalidPrice";
  }
}

/** Fraction digits are a currency's `maxFractionalDigits`: whole numbers from 0 to 18. */
const MAX_DIGITS = 18;
const fractionDigits = (digits: number): number =>
  Math.min(MAX_DIGITS, Math.max(0, Number.isFinite(digits) ? Math.trunc(digits) : 0));

/** The exact price (fiat per BTC), or null when it is not a finite positive decimal. */
export const parsePrice = (price: string | number): ScaledDecimal | null => {
  const parsed = parseDecimal(price);
  return parsed === null || parsed.units === 0n ? null : parsed;
};

const priceOrThrow = (price: string | number): ScaledDecimal => {
  const parsed = parsePrice(price);
  if (parsed === null) throw new InvalidPrice({ message: `Not a usable price: ${String(price)}` });
  return parsed;
};

/**
 * `sats` in fiat at `price`, as a plain decimal with exactly `digits` fraction digits ("98.77",
 * "0.00001000" at price "1" with 8 digits, "-1.50" for a negative amount); no grouping, no symbol.
 * Throws `InvalidPrice` for a price that is not a finite positive decimal.
 */
export const satsToFiat = (sats: bigint, price: string | number, digits: number): string => {
  const d = fractionDigits(digits);
  const { units, scale } = priceOrThrow(price);
  const minor = divideRoundingHalfUp(sats * units * 10n ** BigInt(d), SATS_PER_BTC * 10n ** BigInt(scale));
  return formatScaled(minor, d);
};

/**
 * Sats worth `fiat` at `price`, to the nearest sat. `fiat` is read the way the fiat input keeps it
 * (`normaliseFiatInput` with `digits`): extra fraction digits are cut off, and an empty entry is 0 sats.
 * Throws `InvalidPrice` for a price that is not a finite positive decimal.
 */
export const fiatToSats = (fiat: string, price: string | number, digits: number): bigint => {
  const d = fractionDigits(digits);
  const { units, scale } = priceOrThrow(price);
  const amount = parseDecimal(normaliseFiatInput(fiat, d).replace(/\.$/, "") || "0");
  if (amount === null) return 0n;
  return divideRoundingHalfUp(
    amount.units * SATS_PER_BTC * 10n ** BigInt(scale),
    units * 10n ** BigInt(amount.scale),
  );
};

/**
 * Fiat values of `parts` (sats, none negative) that add up to the fiat value of their sum, each as
 * `satsToFiat` writes it: the whole is rounded half up, each part rounded down, and the minor units the
 * whole has left go one each to the parts with the largest remainders (largest-remainder rounding; an
 * equal remainder goes to the earlier part). A negative part leaves each rounded on its own.
 */
export const satsToFiatParts = (
  parts: readonly bigint[],
  price: string | number,
  digits: number,
): { readonly whole: string; readonly parts: readonly string[] } => {
  const d = fractionDigits(digits);
  const { units, scale } = priceOrThrow(price);
  const sum = parts.reduce((a, b) => a + b, 0n);
  const whole = satsToFiat(sum, price, d);
  if (parts.some((p) => p < 0n)) return { whole, parts: parts.map((p) => satsToFiat(p, price, d)) };
  const den = SATS_PER_BTC * 10n ** BigInt(scale);
  const scaled = (sats: bigint) => sats * units * 10n ** BigInt(d);
  const floors = parts.map((p) => scaled(p) / den);
  const remainders = parts.map((p) => scaled(p) % den);
  let left = divideRoundingHalfUp(scaled(sum), den) - floors.reduce((a, b) => a + b, 0n);
  const order = parts
    .map((_, i) => i)
    .sort((a, b) => {
      const ra = remainders[a] ?? 0n;
      const rb = remainders[b] ?? 0n;
      return ra === rb ? a - b : rb > ra ? 1 : -1;
    });
  for (const i of order) {
    if (left <= 0n) break;
    floors[i] = (floors[i] ?? 0n) + 1n;
    left--;
  }
  return { whole, parts: floors.map((m) => formatScaled(m, d)) };
};

/**
 * Decimal numbers as a bigint count of 10^-scale units, so prices and fiat amounts are multiplied and
 * divided exactly. A JS number is only ever read (a price off the wire), never computed with.
 */

/** `units / 10^scale`; both non-negative. */
export interface ScaledDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/**
 * Exponents beyond this are not prices or amounts anyone means; refusing them keeps the bigints small.
 * It is past any JS number (about 1.8e308 down to 5e-324), so every positive number is read exactly.
 */
const MAX_EXPONENT = 400;

/**
 * The exact value of a plain or exponent decimal ("98765.43", "1e-7", 0.5), or null when it is not a
 * finite non-negative decimal (signs, NaN, Infinity, grouping, whitespace, stray characters).
 */
export const parseDecimal = (value: string | number): ScaledDecimal | null => {
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  const match = DECIMAL.exec(String(value));
  if (match === null) return null;
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (whole === "" && fraction === "") return null;
  const exponent = Number(match[3] ?? "0");
  if (Math.abs(exponent) > MAX_EXPONENT) return null;
  const units = BigInt(`${whole}${fraction}` || "0");
  const scale = fraction.length - exponent;
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
};

/** `numerator / denominator` rounded to the nearest integer, halves away from zero; denominator > 0. */
export const divideRoundingHalfUp = (numerator: bigint, denominator: bigint): bigint => {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (magnitude * 2n + denominator) / (denominator * 2n);
  return negative ? -rounded : rounded;
};

/** `minor` units of 10^-digits written as a plain decimal with exactly `digits` fraction digits. */
export const formatScaled = (minor: bigint, digits: number): string => {
  const sign = minor < 0n ? "-" : "";
  const magnitude = (minor < 0n ? -minor : minor).toString();
  if (digits === 0) return `${sign}${magnitude}`;
  const padded = magnitude.padStart(digits + 1, "0");
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
};

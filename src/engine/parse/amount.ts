/**
 * Exact conversions between the amount forms payment strings carry (BTC decimal strings, millisats) and
 * the wallet's bigint sats. No floating point anywhere: BTC strings are split on the decimal point.
 */

export const SATS_PER_BTC = 100_000_000n;
export const MSATS_PER_SAT = 1_000n;

const BTC_DECIMAL = /^(\d*)(?:\.(\d*))?$/;

/**
 * Sats in a BTC decimal string such as "0.0005" or "20.3", or null when it is not a plain non-negative
 * decimal with at most 8 fractional digits (no sign, exponent, grouping or whitespace).
 */
export const btcToSats = (btc: string): bigint | null => {
  const match = BTC_DECIMAL.exec(btc);
  if (match === null) return null;
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  if (whole === "" && fraction === "") return null;
  if (fraction.length > 8) return null;
  return BigInt(whole || "0") * SATS_PER_BTC + BigInt(fraction.padEnd(8, "0") || "0");
};

/** The shortest BTC decimal string for `sats` ("0.0005", "1", "20.3"); `sats` must not be negative. */
export const satsToBtc = (sats: bigint): string => {
  if (sats < 0n) throw new RangeError("A BTC amount cannot be negative");
  const whole = sats / SATS_PER_BTC;
  const fraction = (sats % SATS_PER_BTC).toString().padStart(8, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
};

/** Whole sats in a millisat amount, rounding any part-sat down (what a payer can be sure to cover). */
export const msatToSats = (msat: bigint): bigint => msat / MSATS_PER_SAT;

/** Whole sats in a millisat amount, rounding any part-sat up (what a payee must be paid at least). */
export const msatToSatsCeil = (msat: bigint): bigint => (msat + MSATS_PER_SAT - 1n) / MSATS_PER_SAT;

export const satsToMsat = (sats: bigint): bigint => sats * MSATS_PER_SAT;

import { btcToSats, SATS_PER_BTC } from "../parse/amount";
import { formatScaled } from "./decimal";

/** Digits after the point of a BTC amount: one sat is 0.00000001 BTC. */
export const BTC_FRACTION_DIGITS = 8;

/** `sats` as BTC with all eight fraction digits, exactly: 1000n → "0.00001000", -1n → "-0.00000001". */
export const satsToBtcString = (sats: bigint): string => formatScaled(sats, BTC_FRACTION_DIGITS);

/**
 * Sats in a BTC decimal string ("0.00001000", "20.3", "1"), or null when it is not a plain non-negative
 * decimal with at most eight fraction digits.
 */
export const btcStringToSats = (btc: string): bigint | null => btcToSats(btc);

/**
 * Sats with thousands grouped ("1,234,567"; "-2,100" for a negative amount). The separator defaults
 * to a comma; screens that follow the owner's language pass their own.
 */
export const formatSats = (sats: bigint, separator = ","): string => {
  const sign = sats < 0n ? "-" : "";
  const digits = (sats < 0n ? -sats : sats).toString();
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator)}`;
};

export { SATS_PER_BTC };

/** Whole sats covering `msat`, rounded up: a fee or a minimum is never shown below what it is. */
export const msatToSatsUp = (msat: bigint): bigint => (msat + 999n) / 1000n;

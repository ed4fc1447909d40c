/**
 * The bounds every amount the wallet accepts lies within, whoever states it (a link, a server, a state file):
 * no amount is negative and none is above the 21 million bitcoin that can ever exist.
 */
export const MAX_MONEY_SATS = 2_100_000_000_000_000n;

/** Whether `sats` is an amount that can exist: whole, not negative, at most 21 million BTC. */
export const isPossibleSats = (sats: bigint): boolean => sats >= 0n && sats <= MAX_MONEY_SATS;

/** The smallest channel the wallet opens (spec 2 swap rules); the swap screen shows it before pressing. */
export const MIN_CHANNEL_SATS = 100_000n;

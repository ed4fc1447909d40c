/**
 * When the price is checked and what the owner sees meanwhile (spec 1 §4 "After setup"): a check every
 * 60 s times a backoff multiple. A failed check sets the price to 1 and shows BTC instead of the fiat, and
 * doubles the multiple; a good one shows the fiat at its price and resets the multiple to 1.
 *
 * The spec leaves the multiple's cap open. It stops doubling at 64, so a feed that stays down is asked
 * about once an hour (64 × 60 s) and the fiat comes back within the hour of the server doing so.
 */
import { BTC_PRICE_IN_BTC } from "./fetch";

export const PRICE_CHECK_MS = 60_000;
export const MAX_BACKOFF_MULTIPLE = 64;

export interface PriceState {
  /** Price of one BTC in `fiatShown`, a decimal string; null before the first check answered. */
  readonly price: string | null;
  /** The currency amounts are shown in: the chosen fiat, or BTC while the feed is failing. */
  readonly fiatShown: string;
  /** How many price periods to wait before the next check: 1, 2, 4, … up to `MAX_BACKOFF_MULTIPLE`. */
  readonly multiple: number;
  /** Wait before the next check. */
  readonly nextCheckInMs: number;
}

export type PriceOutcome =
  | { readonly _tag: "PriceFetched"; readonly code: string; readonly price: string }
  | { readonly _tag: "PriceFailed" };

/** Before any check: no price, the chosen fiat, and a check straight away. */
export const initialPriceState = (code: string): PriceState => ({
  price: null,
  fiatShown: code.toUpperCase(),
  multiple: 1,
  nextCheckInMs: 0,
});

export const nextPriceState = (state: PriceState, outcome: PriceOutcome): PriceState => {
  if (outcome._tag === "PriceFetched")
    return {
      price: outcome.price,
      fiatShown: outcome.code.toUpperCase(),
      multiple: 1,
      nextCheckInMs: PRICE_CHECK_MS,
    };
  const multiple = Math.min(state.multiple * 2, MAX_BACKOFF_MULTIPLE);
  return { price: BTC_PRICE_IN_BTC, fiatShown: "BTC", multiple, nextCheckInMs: PRICE_CHECK_MS * multiple };
};

/** Test fixtures for the LSPS2 (bLIP-52) offers: one offer the tests vary, and the instant they read it at. */
import type { OpeningFeeParams } from "./lsps2";

/** An LSPS2 offer valid until 2100: 2,000 sats or 0.4%, for payments of 10,000 to 1,000,000 sats. */
export const offerParams = (o: Partial<OpeningFeeParams> = {}): OpeningFeeParams => ({
  min_fee_msat: "2000000",
  proportional: 4000,
  valid_until: "2100-01-01T00:00:00.000Z",
  min_lifetime: 1008,
  max_client_to_self_delay: 2016,
  min_payment_size_msat: "10000000",
  max_payment_size_msat: "1000000000",
  promise: "x",
  ...o,
});

/** The instant the offers are read at. */
export const OFFER_NOW = Date.parse("2030-01-01T00:00:00Z");

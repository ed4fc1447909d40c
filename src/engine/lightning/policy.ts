/**
 * What the wallet decides about lightning payments, apart from the node (so screens and handlers can use
 * it without loading LDK).
 */
/** Why a payment ended without success; `timeout` is not final (the payment may still complete). */
export type PaymentFailure =
  | "route_not_found"
  | "recipient_rejected"
  | "retries_exhausted"
  | "expired"
  | "duplicate"
  | "reserve"
  | "peer_offline"
  | "in_flight_limit"
  | "no_balance"
  | "timeout"
  | "unknown";

/** The text an owner sees for a payment that did not arrive (spec 1 error catalogue). */
export const FAILURE_TEXT: { readonly [F in PaymentFailure]: string } = {
  timeout: "Payment timed out.",
  reserve: "Channel reserve amount is too high.",
  peer_offline: "Your channel partner is not connected right now.",
  in_flight_limit: "Your channel can carry less than this in one payment right now.",
  no_balance: "You don't have enough balance for this amount and its fee.",
  route_not_found: "No route to the recipient was found.",
  recipient_rejected: "The recipient rejected the payment.",
  retries_exhausted: "The payment failed after several attempts.",
  expired: "The invoice has expired.",
  duplicate: "This invoice was already paid.",
  unknown: "Payment failed for an unknown reason",
};

/** The catalogue key of a failure the owner reads in their language (the others are shown as they are). */
export const FAILURE_KEY: { readonly [F in PaymentFailure]?: string } = {
  route_not_found: "send.error_no_route",
  expired: "send.error_expired",
  reserve: "send.error_reserve",
  peer_offline: "send.error_peer_offline",
  in_flight_limit: "send.error_in_flight_limit",
};

/**
 * Why a payment was refused before anything was sent: the reason, and for a channel whose peer is not
 * connected, which peer and since when (unix ms; absent when it never was since the node started); for a
 * partner's limit, the most one payment can carry now (msat).
 */
export interface Refusal {
  readonly reason: PaymentFailure;
  readonly peer?: string;
  readonly offlineSince?: number;
  readonly maxMsat?: bigint;
}

/** How long a payment waits for the channel holding its funds to reconnect before it is refused. */
export const CHANNEL_WAIT_MS = 30_000;

/**
 * The most a payment may spend on routing fees, shown before sending: 1% of the amount, at least 10 sats
 * (small payments cost a few sats whatever their size).
 */
export const feeLimitSats = (amountSats: bigint): bigint => {
  const pct = (amountSats + 99n) / 100n;
  return pct > 10n ? pct : 10n;
};

/** A refusal from the node, in words meant for the owner. */
export class NodeError extends Error {}

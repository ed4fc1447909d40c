/**
 * The send form's decisions (spec 1 §5): which ways a destination can be paid and each one's most,
 * whether the amount is fixed, and which rule the entered amount breaks. The worker checks again.
 */
import type { ParsedPaymentRequest } from "../../ui/incoming";
import type { PaymentMethod } from "../../ui/amount-entry";

export interface Balances {
  /** What can leave over lightning now (the balance view's `lightning_sendable`, the channels' "Can send"). */
  readonly lightning: bigint;
  /** Spendable on-chain: confirmed plus unconfirmed. */
  readonly onchain: bigint;
}

/** How the destination is paid with the method chosen. */
export type SendRoute =
  | { readonly kind: "onchain"; readonly address: string }
  | { readonly kind: "invoice"; readonly bolt11: string }
  | { readonly kind: "keysend"; readonly pubkey: string }
  | { readonly kind: "lnurl"; readonly lnurl: string };

/**
 * The methods a request offers, lightning first (a unified URI offers both), then ecash at `ecash`'s
 * custodian for an invoice it covers (see `ecashCovers`).
 */
export const methodsFor = (
  r: ParsedPaymentRequest,
  b: Balances,
  ecash: { readonly id: string; readonly name: string; readonly balance: bigint } | null = null,
): PaymentMethod[] => {
  const out: PaymentMethod[] = [];
  if (r.invoice || r.node_pubkey || (r.lnurl && !r.is_lnurl_auth))
    out.push({ method: "lightning", maxAmountSats: b.lightning });
  if (r.invoice && ecash)
    out.push({
      method: "ecash",
      maxAmountSats: ecash.balance,
      custodian: { id: ecash.id, name: ecash.name },
    });
  if (r.address) out.push({ method: "onchain", maxAmountSats: b.onchain });
  return out;
};

/** Whether ecash of `balance` pays what the mint quoted: the amount and its fee. */
export const ecashCovers = (
  balance: bigint,
  quote: { readonly amountSats: bigint; readonly feeSats: bigint },
): boolean => quote.amountSats > 0n && balance >= quote.amountSats + quote.feeSats;

export const routeFor = (r: ParsedPaymentRequest, method: PaymentMethod["method"]): SendRoute | null => {
  if (method === "onchain") return r.address ? { kind: "onchain", address: r.address } : null;
  if (method === "ecash") return r.invoice ? { kind: "invoice", bolt11: r.invoice } : null;
  if (r.invoice) return { kind: "invoice", bolt11: r.invoice };
  if (r.node_pubkey) return { kind: "keysend", pubkey: r.node_pubkey };
  if (r.lnurl && !r.is_lnurl_auth) return { kind: "lnurl", lnurl: r.lnurl };
  return null;
};

/** A fixed amount freezes the amount entry: an invoice's own, or a pay service whose min equals max. */
export const fixedAmount = (
  r: ParsedPaymentRequest,
  route: SendRoute | null,
  lnurlRange: { min: bigint; max: bigint } | null,
): bigint | null => {
  if (route?.kind === "invoice" && r.amount_sats !== null) return r.amount_sats;
  if (route?.kind === "lnurl" && lnurlRange && lnurlRange.min === lnurlRange.max) return lnurlRange.min;
  return null;
};

export interface AmountCheck {
  readonly amountSats: bigint;
  readonly route: SendRoute;
  readonly balance: bigint;
  /** The invoice's own amount, when it names one. */
  readonly invoiceAmount: bigint | null;
  /** Unix seconds the invoice expires, when paying an invoice. */
  readonly expiresAt: number | null;
  readonly nowSecs: number;
  readonly lnurlRange: { min: bigint; max: bigint } | null;
  /** Paying everything on-chain: the fee comes out of the amount. */
  readonly sendAll: boolean;
  /**
   * More is the owner's by this method than `balance`, but cannot leave now (lightning's reserves, a channel
   * still opening): an amount above `balance` is refused with what can leave.
   */
  readonly heldBack?: boolean;
}

/** The i18n key of the rule the amount breaks, or null when it may be sent. */
export const amountProblem = (c: AmountCheck): string | null => {
  if (c.expiresAt !== null && c.expiresAt < c.nowSecs) return "send.error_expired";
  if (c.sendAll) return c.balance > 0n ? null : "send.error_low_balance";
  if (c.amountSats <= 0n) return "send.error_amount_zero";
  if (c.invoiceAmount !== null && c.amountSats !== c.invoiceAmount) return "send.error_invoice_match";
  if (c.route.kind === "onchain" && c.amountSats < 546n) return "receive.error_under_min_onchain";
  if (c.lnurlRange && (c.amountSats < c.lnurlRange.min || c.amountSats > c.lnurlRange.max))
    return "lnurl.error_amount_range";
  if (c.amountSats > c.balance) return c.heldBack ? "send.error_over_sendable" : "send.error_low_balance";
  return null;
};

/** What of the node's live state tells whether a lightning payment waits for its channel's peer. */
export interface ChannelLinks {
  readonly lightning: string;
  readonly peer_status?: readonly { readonly state: string }[];
}

/**
 * A lightning payment under way waits for its channel (the worker holds it until the peer is back, at most
 * 30 s): the node is still starting, or a peer it keeps connected is not connected now.
 */
export const waitsForChannel = (route: SendRoute | null, live: ChannelLinks): boolean =>
  route !== null &&
  route.kind !== "onchain" &&
  (live.lightning === "starting" || (live.peer_status ?? []).some((p) => p.state !== "connected"));

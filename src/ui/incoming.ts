/**
 * Incoming strings for the screens: the pure parser and router of the engine, re-exported so screens
 * never reach into the engine, plus the small decisions the search, scanner and links share.
 */
export {
  type IncomingDestination,
  type ParsedPaymentRequest,
  PaymentRequestError,
  parsePaymentRequest,
  routeIncomingString,
} from "../engine/parse";
import type { Network } from "../events/types";
import { type IncomingDestination, PaymentRequestError, routeIncomingString } from "../engine/parse";

/** Search: the query counts as sendable when, trimmed, it has 6 or more characters (spec 1 §5). */
export const SEARCH_MIN_LENGTH = 6;
export const SEARCH_DEBOUNCE_MS = 250;

export const isSendableQuery = (query: string): boolean => query.trim().length >= SEARCH_MIN_LENGTH;

/** A link opened through the registered protocol handlers: `web+lightning:` reads as `lightning:`. */
export const fromProtocolLink = (text: string): string =>
  text.trim().replace(/^web\+(lightning|bitcoin):/i, "$1:");

/** The in-app path an incoming string leads to: a navigation, or the send screen with the string. */
export const pathFor = (raw: string, network: Network): { path: string } | { error: PaymentRequestError } => {
  let d: IncomingDestination;
  try {
    d = routeIncomingString(fromProtocolLink(raw), network);
  } catch (e) {
    return {
      error:
        e instanceof PaymentRequestError
          ? e
          : new PaymentRequestError("Invalid payment request", "payment_request.invalid"),
    };
  }
  if (d.kind === "navigate") return { path: d.path };
  const r = d.request;
  // A withdraw link cannot be told from a pay link without asking the service: the send screen asks.
  return { path: `/send?to=${encodeURIComponent(r.original.trim())}` };
};

export { HODL_INVOICE_HOSTS, isHodlDestination } from "../engine/parse/hodl";

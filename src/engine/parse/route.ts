/**
 * Incoming string handling (spec 1 §4): where a pasted, scanned or linked string takes the user. Pure: the
 * screen performs the navigation or opens the send flow.
 */
import type { Network } from "../../events/types";
import { invalidPaymentRequest, PaymentRequestError } from "./errors";
import { parsePaymentRequest } from "./parse";
import type { ParsedPaymentRequest } from "./request";

export type IncomingDestination =
  /** Go to an in-app path (query included). */
  | { readonly kind: "navigate"; readonly path: string }
  /** Hand the request to the send flow. */
  | { readonly kind: "send"; readonly request: ParsedPaymentRequest };

const PLUS_PATH = /^\/settings\/plus\/?$/;

/** The query of a link to /settings/plus (absolute http(s) URL or in-app path), or null for other strings. */
const plusLinkQuery = (text: string): string | null => {
  if (!/^(https?:\/\/|\/)/i.test(text)) return null;
  try {
    const url = new URL(text, "https://wallet.invalid");
    return PLUS_PATH.test(url.pathname) ? url.search : null;
  } catch {
    return null;
  }
};

/**
 * Routes a raw string for a wallet on `network`: links to /settings/plus keep their query; LNURL-auth goes
 * home with `lnurlauth`; a fedimint invite or a Cashu token to /settings/federations; a nostr wallet-auth request to
 * /settings/connections/; anything payable to the send flow. Throws PaymentRequestError like
 * parsePaymentRequest.
 */
export const routeIncomingString = (raw: string, network: Network): IncomingDestination => {
  try {
    return route(raw, network);
  } catch (error) {
    if (error instanceof PaymentRequestError) throw error;
    throw invalidPaymentRequest();
  }
};

const route = (raw: string, network: Network): IncomingDestination => {
  const query = typeof raw === "string" ? plusLinkQuery(raw.trim()) : null;
  if (query !== null) return { kind: "navigate", path: `/settings/plus${query}` };

  const request = parsePaymentRequest(raw, network);
  if (request.lnurl !== null && request.is_lnurl_auth) {
    return { kind: "navigate", path: `/?lnurlauth=${encodeURIComponent(request.lnurl)}` };
  }
  if (request.fedimint_invite !== null) {
    return {
      kind: "navigate",
      path: `/settings/federations?fedimint_invite=${encodeURIComponent(request.fedimint_invite)}`,
    };
  }
  // An ecash token is redeemed at its mint, from the federations screen (its mint must be joined).
  if (request.cashu_token !== null) {
    return {
      kind: "navigate",
      path: `/settings/federations?cashu_token=${encodeURIComponent(request.cashu_token)}`,
    };
  }
  if (request.nostr_wallet_auth !== null) {
    return {
      kind: "navigate",
      path: `/settings/connections/?nwa=${encodeURIComponent(request.nostr_wallet_auth)}`,
    };
  }
  return { kind: "send", request };
};

/**
 * parsePaymentRequest: every payment string the wallet accepts (pasted, scanned, opened as a link) read
 * into one ParsedPaymentRequest, or refused with a PaymentRequestError.
 */
import type { Network } from "../../events/types";
import { addressNetworks } from "../onchain/networks";
import { msatToSats } from "./amount";
import { decodeBip21 } from "./bip21";
import { type Bolt11Invoice, decodeBolt11 } from "./bolt11";
import { decodeCashuToken } from "./cashu";
import { amountMismatch, PaymentRequestError, invalidPaymentRequest, wrongNetwork } from "./errors";
import { decodeFedimintInvite } from "./fedimint";
import { decodeLightningAddress } from "./lightning-address";
import { decodeLnurl } from "./lnurl";
import { decodeNodeId } from "./node-id";
import { decodeNostrWalletAuth } from "./nostr-wallet-auth";
import { type ParsedPaymentRequest, emptyRequest } from "./request";

/** Longer than any payment string (large Cashu tokens included); longer input is refused unread. */
export const MAX_PAYMENT_REQUEST_LENGTH = 100_000;

/** A destination on `destination` can be paid from a wallet on `wallet` (testnet is accepted on signet). */
export const networkAccepted = (destination: Network, wallet: Network): boolean =>
  destination === wallet || (destination === "testnet" && wallet === "signet");

const checkNetwork = (destination: Network, wallet: Network): Network => {
  if (!networkAccepted(destination, wallet)) throw wrongNetwork(destination, wallet);
  return destination;
};

/** The address in the form the wallet uses (bech32 in lower case) and its network, or null. */
const readAddress = (text: string, wallet: Network): { address: string; network: Network } | null => {
  const lower = text.toLowerCase();
  const address = text === text.toUpperCase() && addressNetworks(lower) !== null ? lower : text;
  const networks = addressNetworks(address);
  if (networks === null || networks.length === 0) return null;
  if (networks.includes(wallet)) return { address, network: wallet };
  const accepted = networks.find((n) => networkAccepted(n, wallet));
  return { address, network: accepted ?? checkNetwork(networks[0] as Network, wallet) };
};

const invoiceFields = (invoice: Bolt11Invoice, wallet: Network) => ({
  invoice: invoice.invoice,
  network: checkNetwork(invoice.network, wallet),
  amount_sats: invoice.amountMsat === null ? null : msatToSats(invoice.amountMsat),
  memo: invoice.description,
});

const stripScheme = (text: string, scheme: string): string =>
  text.slice(0, scheme.length).toLowerCase() === scheme
    ? text.slice(scheme.length).replace(/^\/\//, "")
    : text;

/** The LUD-01 fallback form `https://site/…?lightning=LNURL1…`, which wallets read as the LNURL it carries. */
const lightningParamOfUrl = (text: string): string | null => {
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    return new URL(text).searchParams.get("lightning");
  } catch {
    return null;
  }
};

const parseBip21 = (original: string, text: string, wallet: Network): ParsedPaymentRequest => {
  const uri = decodeBip21(text);
  if (uri === null) throw invalidPaymentRequest();
  let request = emptyRequest(original, wallet);
  if (uri.address !== "") {
    const onchain = readAddress(uri.address, wallet);
    if (onchain === null) throw invalidPaymentRequest();
    request = { ...request, ...onchain, payjoin_enabled: uri.payjoin !== null };
  }
  // An unreadable `lightning=` beside a valid address leaves the on-chain request payable; without an
  // address there is nothing else to pay.
  const invoice = uri.lightning === null ? null : decodeBolt11(stripScheme(uri.lightning, "lightning:"));
  const lnurl = uri.lightning === null || invoice !== null ? null : decodeLnurl(uri.lightning);
  if (invoice !== null) {
    request = { ...request, ...invoiceFields(invoice, wallet) };
    // Shown one amount and paying another is how a link steals: two amounts that disagree are refused.
    if (uri.amountSats !== null && request.amount_sats !== null && uri.amountSats !== request.amount_sats)
      throw amountMismatch();
  } else if (lnurl !== null) request = { ...request, lnurl: lnurl.url, is_lnurl_auth: lnurl.isAuth };
  else if (uri.address === "") throw invalidPaymentRequest();
  return {
    ...request,
    amount_sats: uri.amountSats ?? request.amount_sats,
    memo: uri.message ?? uri.label ?? request.memo,
  };
};

const parseLightningOrOther = (
  original: string,
  text: string,
  wallet: Network,
  followUrl: boolean,
): ParsedPaymentRequest => {
  const request = emptyRequest(original, wallet);

  const invoice = /^ln(bc|tb)/i.test(text) ? decodeBolt11(text) : null;
  if (invoice !== null) return { ...request, ...invoiceFields(invoice, wallet) };

  const lnurl = decodeLnurl(text);
  if (lnurl !== null) return { ...request, lnurl: lnurl.url, is_lnurl_auth: lnurl.isAuth };

  const carried = followUrl ? lightningParamOfUrl(text) : null;
  if (carried !== null) return parseLightningOrOther(original, carried.trim(), wallet, false);

  const invite = decodeFedimintInvite(text);
  if (invite !== null) return { ...request, fedimint_invite: invite };

  if (decodeNostrWalletAuth(text) !== null) return { ...request, nostr_wallet_auth: text };

  const cashu = decodeCashuToken(text);
  if (cashu !== null) {
    return { ...request, cashu_token: cashu.token, amount_sats: cashu.amountSats, memo: cashu.memo };
  }

  const node = decodeNodeId(text);
  if (node !== null) return { ...request, node_pubkey: node.pubkey };

  const lightningAddress = decodeLightningAddress(text);
  if (lightningAddress !== null) {
    return { ...request, lightning_address: lightningAddress.address, lnurl: lightningAddress.url };
  }

  const onchain = readAddress(text, wallet);
  if (onchain !== null) return { ...request, ...onchain };

  throw invalidPaymentRequest();
};

/**
 * Reads a payment string for a wallet on `network`: a BOLT11 invoice, an on-chain address, a BIP21 URI, an
 * LNURL, a lightning address, a node id, a fedimint invite, a nostr wallet-auth request or a Cashu token,
 * in any case, with surrounding whitespace and a `lightning:` or `bitcoin:` prefix.
 *
 * Throws PaymentRequestError, and nothing else: 'Invalid payment request' when the string is none of these,
 * "Destination is for X but you're on Y" when it is for another network.
 */
export const parsePaymentRequest = (input: string, network: Network): ParsedPaymentRequest => {
  try {
    if (typeof input !== "string" || input.length > MAX_PAYMENT_REQUEST_LENGTH) throw invalidPaymentRequest();
    const text = input.trim();
    if (text === "") throw invalidPaymentRequest();
    if (text.slice(0, 8).toLowerCase() === "bitcoin:") return parseBip21(input, text, network);
    return parseLightningOrOther(input, stripScheme(text, "lightning:").trim(), network, true);
  } catch (error) {
    if (error instanceof PaymentRequestError) throw error;
    throw invalidPaymentRequest();
  }
};

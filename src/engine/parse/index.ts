/** Payment strings: parsing, routing of incoming strings, BIP21 URIs and amount conversions. */
export { btcToSats, msatToSats, msatToSatsCeil, satsToBtc, satsToMsat } from "./amount";
export { type Bip21, type Bip21Fields, decodeBip21, encodeBip21 } from "./bip21";
export { type Bolt11Invoice, decodeBolt11, DEFAULT_INVOICE_EXPIRY_SECONDS } from "./bolt11";
export { type CashuToken, decodeCashuToken } from "./cashu";
export { INVALID_PAYMENT_REQUEST_TEXT, PaymentRequestError } from "./errors";
export { decodeFedimintInvite } from "./fedimint";
export { decodeLightningAddress, type LightningAddress } from "./lightning-address";
export { decodeLnurl, encodeLnurl, type Lnurl } from "./lnurl";
export { decodeNodeId, type NodeId } from "./node-id";
export { decodeNostrWalletAuth, type NostrWalletAuth } from "./nostr-wallet-auth";
export { MAX_PAYMENT_REQUEST_LENGTH, networkAccepted, parsePaymentRequest } from "./parse";
export type { ParsedPaymentRequest } from "./request";
export { type IncomingDestination, routeIncomingString } from "./route";

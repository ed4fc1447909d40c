/** The parsed payment request of spec 1 §3: one shape for every kind of payment string. */
import type { Network } from "../../events/types";

export interface ParsedPaymentRequest {
  /** The string as it was given. */
  readonly original: string;
  /** On-chain address (lower case for bech32). */
  readonly address: string | null;
  /** The BIP21 URI offers payjoin (`pj=`) for its address. */
  readonly payjoin_enabled: boolean;
  /** BOLT11 invoice, lower case. */
  readonly invoice: string | null;
  readonly amount_sats: bigint | null;
  /** The destination's network; the wallet's own when the destination has none (lnurl, node id, …). */
  readonly network: Network;
  readonly memo: string | null;
  /** Compressed public key of a node to pay by keysend, lower-case hex. */
  readonly node_pubkey: string | null;
  /** The LNURL endpoint to call (https, or http for onion and loopback hosts). */
  readonly lnurl: string | null;
  /** `name@domain`, lower case; `lnurl` then holds its LUD-16 endpoint. */
  readonly lightning_address: string | null;
  /** A `nostr+walletauth://` request, as given. */
  readonly nostr_wallet_auth: string | null;
  readonly is_lnurl_auth: boolean;
  /** A fedimint invite code, lower case. */
  readonly fedimint_invite: string | null;
  /** A Cashu token (`cashuA…` / `cashuB…`). */
  readonly cashu_token: string | null;
}

export const emptyRequest = (original: string, network: Network): ParsedPaymentRequest => ({
  original,
  address: null,
  payjoin_enabled: false,
  invoice: null,
  amount_sats: null,
  network,
  memo: null,
  node_pubkey: null,
  lnurl: null,
  lightning_address: null,
  nostr_wallet_auth: null,
  is_lnurl_auth: false,
  fedimint_invite: null,
  cashu_token: null,
});

/**
 * The wallet's event union: the only record of what happened.
 *
 * Contract (every event type must keep it):
 * - An event is plain JSON: amounts are decimal strings of sats (see `Sats`), never numbers or floats,
 *   so an export read on any machine folds to the same bigint balances.
 * - Events are append-only and idempotent by `id`; appending an id twice is a no-op.
 * - `at` is the time the event was made (unix ms), carried in the event: projections never read a clock.
 * - `v` is the payload version of that type. Changing a payload's shape means a new version plus an
 *   upcaster in `upcast.ts` that turns every older version into the current one. A log holding a version
 *   newer than this build knows is refused, never guessed at.
 * - No secret (seed, private key, nsec, password) ever appears in a payload.
 */

export type Network = "bitcoin" | "testnet" | "signet" | "regtest";
export const NETWORKS: readonly Network[] = ["bitcoin", "testnet", "signet", "regtest"];

/** A non-negative or signed integer amount of sats as a decimal string, e.g. "1500". */
export type Sats = string;

export type OnchainKeychain = "external" | "internal";

export interface EventPayloads {
  /** A wallet was created or restored on this device. `walletId` ties exports to their wallet. */
  "wallet.created": { walletId: string; network: Network; restored: boolean };
  /** The owner confirmed the seed words are written down. */
  "wallet.backed_up": Record<string, never>;
  /** Safe mode: boots without the lightning node, hides contacts and requests. */
  "wallet.safe_mode_set": { enabled: boolean };
  /** A change to the owner-edited Automerge document (settings, labels, contacts, nwc), base64. */
  "crdt.change": { change: string };

  /** An on-chain address was handed out (receive) or used for change. */
  "onchain.address_issued": { address: string; keychain: OnchainKeychain; index: number; labels: string[] };
  /** A transaction touching the wallet was seen (mempool or block). Amounts are the wallet's view. */
  "onchain.tx_seen": {
    txid: string;
    received: Sats;
    sent: Sats;
    fee: Sats;
    labels: string[];
    /** The wallet made this transaction (a send or sweep). */
    outgoing: boolean;
    /**
     * For a send made here: the destination's output script (hex) and what it was paid, so paying the same
     * destination the same amount again soon asks once more. Absent on transactions found by a sync.
     */
    paidTo?: { script: string; amount: Sats };
  };
  /** A transaction was confirmed in a block. */
  "onchain.tx_confirmed": { txid: string; height: number; blockHash: string; blockTime: number };
  /** A confirmed transaction's block was reorganised out; it is back in the mempool. */
  "onchain.tx_unconfirmed": { txid: string };
  /** A transaction vanished (replaced or evicted); kept in activity, marked dropped. */
  "onchain.tx_dropped": { txid: string; replacedBy: string | null };

  /** An invoice to be paid over lightning. `amount_msat` null: the payer chooses. */
  "ln.invoice_created": {
    payment_hash: string;
    bolt11: string;
    amount_msat: Sats | null;
    description: string;
    labels: string[];
    /** Unix seconds. */
    expires_at: number;
  };
  /**
   * Our invoice `payment_hash` was wrapped by the LSP for a just-in-time channel: the payer pays the
   * full amount, `fee_msat` of it stays with the LSP (node `lsp`) for opening the channel.
   */
  "ln.lsp_fee": { payment_hash: string; fee_msat: Sats; lsp: string };
  /**
   * A payment to us was refused and went back to its payer: the LSP that forwarded it kept `skimmed_msat`,
   * more than the `promised_msat` it promised for opening the channel (null: it promised nothing).
   */
  "ln.payment_refused": {
    payment_hash: string;
    amount_msat: Sats;
    skimmed_msat: Sats;
    promised_msat: Sats | null;
  };
  /** A payment to us was claimed (it is ours). */
  "ln.payment_received": { payment_hash: string; amount_msat: Sats };
  /** We started paying: an invoice (`bolt11`) or a node public key (keysend, `bolt11` null). */
  "ln.payment_started": {
    payment_id: string;
    payment_hash: string | null;
    destination: string;
    bolt11: string | null;
    amount_msat: Sats;
    max_fee_msat: Sats;
    labels: string[];
  };
  /** The payment arrived; `preimage` is the proof of payment. */
  "ln.payment_sent": { payment_id: string; payment_hash: string; preimage: string; fee_msat: Sats };
  /** One part of a payment we sent arrived, over `hops` channels (a split payment has several parts). */
  "ln.payment_path_succeeded": { payment_id: string; hops: number };
  /** The payment ended without arriving; nothing left the wallet. */
  "ln.payment_failed": { payment_id: string; reason: string };
  /**
   * The owner asked for a channel of `amount_sats` to `peer`: recorded before its funding can start, so an
   * open a reload cut short is known at the next start (`ln.open_interrupted`) and not lost silently.
   */
  "ln.open_requested": { request_id: string; peer: string; amount_sats: Sats };
  /** An open asked for before the wallet last stopped never got its funding transaction out: nothing was spent. */
  "ln.open_interrupted": { request_id: string };
  /** A channel's funding transaction is out (our open, or one opened to us). */
  "ln.channel_pending": {
    channel_id: string;
    peer: string;
    outpoint: string;
    capacity_sats: Sats;
    /** What the funding transaction cost us (0 when the peer funded it). */
    fee_sats: Sats;
    is_outbound: boolean;
    labels: string[];
    /** The blocks the partner must wait after closing alone (what our node asked); absent before it was kept. */
    to_self_delay?: number;
  };
  /** The owner accepted the shorter safety delay `blocks` an LSP (its node's pubkey) allows. */
  "ln.delay_consented": { lsp: string; blocks: number };
  "ln.channel_closed": {
    channel_id: string;
    peer: string;
    outpoint: string | null;
    reason: string;
    capacity_sats: Sats | null;
    /** Our balance when it closed, on its way back on-chain. */
    balance_sats: Sats;
  };
  /**
   * The channel's partner published a state it had revoked: the wallet's justice transactions take the whole
   * channel; `claimable_sats` is what its outputs bring back (before the claims' fees). Once per channel.
   */
  "ln.channel_breached": { channel_id: string; claimable_sats: Sats };
  /**
   * Outputs of closed channels were swept to the on-chain wallet. `claims_left_sats`: what closed channels
   * still had to bring back then (absent in older events: nothing); at 0 every closed channel is home.
   */
  "ln.outputs_swept": { txid: string; sats: Sats; channel_ids: string[]; claims_left_sats?: Sats };
  /** The channels as the node now has them (sizes and balances); the lightning balance folds from it. */
  "ln.channels_changed": { channels: ChannelSnapshot[] };

  /**
   * The owner joined an ecash custodian: a Cashu mint (`mint` is its URL) or a Fedimint federation (`mint`
   * is its federation id). `expires_at` (unix seconds) is the end date it announced, if any.
   */
  "ecash.joined": {
    mint: string;
    kind: EcashKind;
    name: string;
    welcome: string;
    expires_at: number | null;
    /** A federation's invite code, or the mint's URL again. */
    invite: string;
  };
  /**
   * What a custodian now says of itself (its name, welcome message, announced end date), read again when
   * the wallet opens and on a schedule. Optional, added later in v1 (absent reads as unsaid): its message
   * of the day, and the most it mints in one receive.
   */
  "ecash.info": {
    mint: string;
    name: string;
    welcome: string;
    expires_at: number | null;
    motd?: string | null;
    max_receive?: Sats | null;
  };
  /** The owner removed a custodian (its ecash, if any, stays in the engine's store). */
  "ecash.removed": { mint: string };
  /**
   * Ecash came in at `mint`: `amount` is what the wallet now holds more, `fee` what the custodian kept on
   * the way. `op` identifies the operation (a retry records it once). `via`: how it came.
   */
  "ecash.received": EcashMoved;
  /**
   * Ecash left `mint`: `amount` reached the other side, `fee` is what the custodian kept (lightning fees,
   * its input fees). The wallet holds `amount + fee` less.
   */
  "ecash.sent": EcashMoved;
  /**
   * The nostr key in use: the seed's (NIP-06) or one the owner imported (`imported`). Only the public key
   * (hex): the imported nsec is a sealed kv secret.
   */
  "nostr.identity": { pubkey: string; imported: boolean };
  /**
   * A signed nostr event the wallet publishes (profile, follow list): stored before it is sent, sent again
   * to the relays until one answers OK (`nostr.published`), across reloads.
   */
  /**
   * `relays`: where it goes instead of the wallet's own relays (a gift wrap to the addressee's NIP-17 inbox
   * relays, kind 10050); absent for the wallet's relays.
   */
  "nostr.queued": { event: NostrEventJson; relays?: readonly string[] };
  /** A relay answered OK to a queued event. */
  "nostr.published": { id: string; relay: string };
  /** A signed event read from a relay or the cache service (an imported profile or follow list). */
  "nostr.fetched": { event: NostrEventJson };
  /**
   * Every relay refused a queued event for good (NIP-01 `blocked:`, `invalid:`, `pow:`, `restricted:`), with
   * their reasons as they said them: the outbox no longer sends it, and the owner is told.
   */
  "nostr.failed": { id: string; refusals: { relay: string; reason: string }[] };

  /**
   * A wallet-connect request arrived from the app of connection `index` (a multi-payment's parts each get
   * their own `request_id`, the event id and the part's id). Recorded once: a request seen again is not
   * decided again. `expires_at`: the request's own expiration (unix seconds), if it set one.
   */
  "nwc.request": {
    request_id: string;
    index: number;
    method: string;
    app: string;
    encryption: NwcEncryption;
    expires_at: number | null;
  };
  /**
   * A payment of a request is decided and about to be made: it counts against the connection's budget from
   * here on, and is never made a second time (after a crash it is resolved from the payment's outcome).
   * `fee_limit_msat`: the most the payment may pay in routing fees, reserved from the budget with the
   * amount until the answer says what the fee was (absent in events written before fees counted).
   */
  "nwc.payment_accepted": {
    request_id: string;
    index: number;
    payment_hash: string | null;
    bolt11: string | null;
    amount_msat: Sats;
    fee_limit_msat?: Sats;
  };
  /** A payment waits for the owner: the connection requires approval, or the payment is over its budget. */
  "nwc.payment_held": {
    request_id: string;
    index: number;
    payment_hash: string;
    bolt11: string;
    amount_msat: Sats;
    reason: "approval" | "budget";
    /** The invoice's expiry, unix seconds. */
    expires_at: number;
  };
  /** The owner denied a held payment (or an approval found the invoice already paid). */
  "nwc.payment_denied": { request_id: string };
  /** The wallet answered a request: the NIP-47 response object as JSON (result or error). */
  "nwc.answered": { request_id: string; response: string };
  /**
   * A private message with a contact, sent or received (NIP-17, or legacy NIP-04), as its author wrote it;
   * `wraps` are the ids of the relay events that carried it (read once, never opened again).
   */
  "chat.message": {
    id: string;
    from: string;
    peer: string;
    text: string;
    at: number;
    via: "nip17" | "nip04";
    wraps: string[];
  };
  /**
   * A zap (NIP-57) was asked for: the signed zap request (JSON) the invoice `paymentHash` commits to, the pay
   * service's nostr key that will sign its receipt, and the zapped key.
   */
  "zap.requested": {
    paymentHash: string;
    bolt11: string;
    request: string;
    service: string;
    recipient: string;
  };
  /** The service's receipt (kind 9735) for that zap was read and matched the request. */
  "zap.confirmed": { paymentHash: string; receipt: string };
  /**
   * The owner holds the lightning address `name` at the service `host`. While the wallet is not reachable
   * the service receives into `mint` (null: none chosen) and sends the ecash to `pubkey` (the owner's nostr
   * key) as NIP-17 messages signed by `service`.
   */
  "lnaddress.reserved": { host: string; name: string; mint: string | null; pubkey: string; service: string };
  /**
   * A token the lightning-address service sent (the NIP-17 message `message`, dated `at`, unix seconds)
   * was redeemed as the ecash operation `op` at `mint`, with the payer's `note`; `op` null: the token could
   * not be redeemed (already spent), and is not tried again.
   */
  "lnaddress.redeemed": { message: string; at: number; op: string | null; mint: string; note: string };
  /** What the membership service at `host` said of its plans and the owner's subscription (when it changed). */
  "plus.status": PlusStatus;
}

/** The membership service's plans and the owner's subscription, as read from it. */
export interface PlusStatus {
  host: string;
  plan_id: number | null;
  /** End of the paid period, unix seconds; null when never paid. */
  timestamp: number | null;
  plans: { id: number; amount: Sats }[];
}

/** A signed nostr event (NIP-01), as stored in the log. */
export interface NostrEventJson {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
  sig: string;
}

export type EcashKind = "cashu" | "fedimint";
/** How ecash moved: over lightning (a mint or melt quote), as a token, between custodians, or by restore. */
export type EcashVia = "lightning" | "token" | "transfer" | "restore";

/** What `ecash.received` and `ecash.sent` record: the operation, the custodian, the amount and its fee, how. */
export interface EcashMoved {
  op: string;
  mint: string;
  amount: Sats;
  fee: Sats;
  via: EcashVia;
  payment_hash: string | null;
}
export const ECASH_VIAS: readonly EcashVia[] = ["lightning", "token", "transfer", "restore"];
export type NwcEncryption = "nip44_v2" | "nip04";

/** One channel in `ln.channels_changed`. */
export interface ChannelSnapshot {
  channel_id: string;
  peer: string;
  outpoint: string | null;
  size: Sats;
  /** What we can send now. */
  balance: Sats;
  reserve: Sats;
  inbound: Sats;
  is_usable: boolean;
  is_ready: boolean;
  /**
   * What can leave in the next payment (LDK's next outbound HTLC limit: the reserve and the commitment fee
   * kept back). Optional, added later in v1: absent reads as `balance`.
   */
  sendable?: Sats;
}

export type EventType = keyof EventPayloads;

export type WalletEvent = {
  [K in EventType]: {
    /** Position in this device's log; assigned on append, absent before. */
    seq?: number;
    id: string;
    type: K;
    v: number;
    at: number;
    device: string;
    payload: EventPayloads[K];
  };
}[EventType];

export type EventOf<K extends EventType> = Extract<WalletEvent, { type: K }>;

/** The current payload version of every event type. */
export const EVENT_VERSIONS: { readonly [K in EventType]: number } = {
  "wallet.created": 1,
  "wallet.backed_up": 1,
  "wallet.safe_mode_set": 1,
  "crdt.change": 1,
  "onchain.address_issued": 1,
  "onchain.tx_seen": 1,
  "onchain.tx_confirmed": 1,
  "onchain.tx_unconfirmed": 1,
  "onchain.tx_dropped": 1,
  "ln.invoice_created": 1,
  "ln.payment_received": 1,
  "ln.payment_refused": 1,
  "ln.lsp_fee": 1,
  "ln.payment_started": 1,
  "ln.payment_sent": 1,
  "ln.payment_path_succeeded": 1,
  "ln.payment_failed": 1,
  "ln.open_requested": 1,
  "ln.open_interrupted": 1,
  "ln.channel_pending": 1,
  "ln.delay_consented": 1,
  "ln.channel_closed": 1,
  "ln.channel_breached": 1,
  "ln.outputs_swept": 1,
  "ln.channels_changed": 1,
  "ecash.joined": 1,
  "ecash.info": 1,
  "ecash.removed": 1,
  "ecash.received": 1,
  "ecash.sent": 1,
  "nostr.identity": 1,
  "nostr.queued": 1,
  "nostr.published": 1,
  "nostr.fetched": 1,
  "nostr.failed": 1,
  "nwc.request": 1,
  "nwc.payment_accepted": 1,
  "nwc.payment_held": 1,
  "nwc.payment_denied": 1,
  "nwc.answered": 1,
  "chat.message": 1,
  "zap.requested": 1,
  "zap.confirmed": 1,
  "lnaddress.reserved": 1,
  "lnaddress.redeemed": 1,
  "plus.status": 1,
};

export const isEventType = (t: unknown): t is EventType =>
  typeof t === "string" && Object.hasOwn(EVENT_VERSIONS, t);

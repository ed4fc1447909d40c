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
  };
  /** A transaction was confirmed in a block. */
  "onchain.tx_confirmed": { txid: string; height: number; blockHash: string; blockTime: number };
  /** A confirmed transaction's block was reorganised out; it is back in the mempool. */
  "onchain.tx_unconfirmed": { txid: string };
  /** A transaction vanished (replaced or evicted); kept in activity, marked dropped. */
  "onchain.tx_dropped": { txid: string; replacedBy: string | null };
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
};

export const isEventType = (t: unknown): t is EventType =>
  typeof t === "string" && Object.hasOwn(EVENT_VERSIONS, t);

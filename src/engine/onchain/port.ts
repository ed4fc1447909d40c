import type { Effect } from "effect";
import type { WalletError } from "../../errors";
import type { NewEvent } from "../../events/make";
import type { Network, OnchainKeychain } from "../../events/types";
import type { OnchainState } from "../../projections/onchain";
import type { FeeConsent } from "./fee-rules";
import type { Selection } from "./coin-select";
import type { ChainView } from "./scan";
import type { WalletCoin } from "./spend";

/** Where a spend goes: an amount to an address, or everything the wallet can spend (a sweep). */
export type SpendTarget =
  | { readonly kind: "pay"; readonly script: Uint8Array; readonly amountSats: bigint }
  | { readonly kind: "sweep"; readonly script: Uint8Array };

export interface SpendPlan {
  /** What the destination receives. */
  readonly amountSats: bigint;
  readonly feeSats: bigint;
  /** Sats per 1000 vbytes. */
  readonly feeRate: bigint;
}

export interface SpendOutcome extends SpendPlan {
  readonly txid: string;
  /** The signed transaction. */
  readonly hex: string;
  /** The sync's catch-up events, then the change address and the new transaction as the wallet sees it. */
  readonly events: readonly NewEvent[];
}

/** A spend's network half: the chain as the server showed it for the wallet's addresses, and the fee rate. */
export interface SpendDraft {
  readonly view: ChainView;
  /** Sats per 1000 vbytes. */
  readonly feeRate: bigint;
}

/**
 * A spend decided and signed, not yet recorded. From `sign` until the chain shows it (or its broadcast
 * fails) its coins are held: no other spend of this wallet picks them.
 */
export interface SignedSpend extends SpendPlan {
  readonly txid: string;
  readonly hex: string;
  readonly target: SpendTarget;
  readonly draft: SpendDraft;
  readonly selection: Selection<WalletCoin>;
  readonly change: { readonly address: string; readonly index: number } | null;
}

/**
 * The on-chain wallet (BIP84 over an Esplora API) as the handlers see it. It reads the folded
 * `OnchainState` and answers with new events; it never writes the log itself. Destinations and amounts
 * reach it already validated (see validate.ts).
 */
export interface OnchainPort {
  readonly network: Network;
  /** The address at an index of a keychain (pure derivation, no request). */
  readonly addressAt: (keychain: OnchainKeychain, index: number) => string;
  /** Sats ever paid to `address`, unconfirmed included (what the receive screen watches for). */
  readonly receivedAt?: (address: string) => Effect.Effect<bigint, WalletError>;
  /** Scans the chain for the wallet's addresses and returns what changed since `state`. */
  readonly sync: (state: OnchainState) => Effect.Effect<readonly NewEvent[], WalletError>;
  /**
   * The network half of a sync: the chain as the server shows it now for the wallet's addresses. Run
   * outside the command queue; `changes` then compares it with the log as it is by then.
   */
  readonly scan: (state: OnchainState) => Effect.Effect<ChainView, WalletError>;
  /** What the log lacks of a scanned `view`: the events that bring `state` up to it. */
  readonly changes: (state: OnchainState, view: ChainView) => Effect.Effect<readonly NewEvent[], WalletError>;
  /** The fee and amount a spend would have now; InsufficientFunds when the coins cannot pay. */
  readonly plan: (state: OnchainState, target: SpendTarget) => Effect.Effect<SpendPlan, WalletError>;
  /**
   * A spend in four steps, so the network waits happen with the command queue released: `draft` asks the
   * server (scan, fee rate); `sign` decides on the log as it is then (coins no other spend holds, the fee
   * the owner agreed to, the next change address) and asks nothing; `broadcast` sends it (a failure frees
   * its coins); `record` answers the events that bring the log as it is then up to the spend.
   */
  readonly draft: (state: OnchainState, target: SpendTarget) => Effect.Effect<SpendDraft, WalletError>;
  readonly sign: (
    state: OnchainState,
    draft: SpendDraft,
    target: SpendTarget,
    consent: FeeConsent,
  ) => Effect.Effect<SignedSpend, WalletError>;
  readonly broadcast: (signed: SignedSpend) => Effect.Effect<void, WalletError>;
  readonly record: (
    state: OnchainState,
    signed: SignedSpend,
    labels: readonly string[],
  ) => readonly NewEvent[];
  /** What the spends signed and not yet recorded pay (output script as hex, amount): a repeat is asked about. */
  readonly inFlight: () => readonly { readonly script: string; readonly amountSats: bigint }[];
  /**
   * Builds, signs and broadcasts the spend in one go (in the queue: a channel's funding), with `labels` on the new transaction's event. With
   * `broadcast: false` it only signs (a channel funding, which the lightning node broadcasts itself).
   */
  readonly spend: (
    state: OnchainState,
    target: SpendTarget,
    labels: readonly string[],
    options?: {
      readonly broadcast?: boolean;
      /** What the owner agreed to pay in fees; absent for a channel's funding (its screen shows the fee). */
      readonly consent?: FeeConsent;
    },
  ) => Effect.Effect<SpendOutcome, WalletError>;
}

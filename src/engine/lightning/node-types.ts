/** What the lightning node says, takes and answers: its events, options, channel and payment shapes. */
import type { Log } from "./chain";
import type { EsploraChain } from "./chain";
import type { PaymentFailure, Refusal } from "./policy";
import type { PeerAddress, Pipe } from "./socket";
import type { BlobStore } from "./store";

export type NodeRole = "wallet" | "router";

export type NodeEvent =
  | { readonly type: "payment_received"; readonly paymentHash: string; readonly amountMsat: bigint }
  /** A payment to us was failed back instead of claimed: the hop before us kept `skimmedMsat` of it. */
  | {
      readonly type: "payment_refused";
      readonly paymentHash: string;
      readonly amountMsat: bigint;
      readonly skimmedMsat: bigint;
    }
  | {
      readonly type: "payment_sent";
      readonly paymentId: string;
      readonly paymentHash: string;
      readonly preimage: string;
      readonly feeMsat: bigint;
    }
  | {
      readonly type: "payment_failed";
      readonly paymentId: string;
      readonly paymentHash: string | null;
      readonly reason: PaymentFailure;
    }
  | {
      readonly type: "channel_pending";
      readonly channelId: string;
      /** The id the channel had while it was negotiated (what `openChannel` answered), when LDK says. */
      readonly formerTemporaryId: string | null;
      readonly peer: string;
      readonly fundingTxid: string;
      readonly outpoint: string;
    }
  | { readonly type: "channel_ready"; readonly channelId: string; readonly peer: string }
  | {
      readonly type: "channel_closed";
      readonly channelId: string;
      readonly peer: string;
      readonly reason: string;
      readonly capacitySats: bigint | null;
      readonly outpoint: string | null;
    }
  /**
   * The partner published a state it had revoked: LDK's justice transactions take the whole channel;
   * `claimableSats` is what the channel's outputs then bring back to us (before the claims' fees).
   */
  | { readonly type: "revoked_state_seen"; readonly channelId: string; readonly claimableSats: bigint }
  | {
      readonly type: "outputs_swept";
      readonly txid: string;
      readonly sats: bigint;
      /** The closed channels these outputs came from. */
      readonly channelIds: readonly string[];
      /** What the closed channels' monitors still have to bring back after this sweep (0: everything is home). */
      readonly claimsLeftSats: bigint;
    }
  | {
      readonly type: "htlc_intercepted";
      readonly interceptId: string;
      readonly scid: bigint;
      readonly paymentHash: string;
      readonly inboundMsat: bigint;
      readonly expectedOutboundMsat: bigint;
    }
  /** One part of a payment we sent reached the payee over `hops` channels. */
  | { readonly type: "payment_path_succeeded"; readonly paymentId: string; readonly hops: number }
  | { readonly type: "changed" };

export type { PaymentFailure };

export interface ChannelInfo {
  readonly channelId: string;
  readonly peer: string;
  /** `txid:vout` of the funding output, once known. */
  readonly outpoint: string | null;
  readonly sizeSats: bigint;
  /** What we can send now. */
  readonly outboundSats: bigint;
  /** What can leave in the next payment: `outboundSats` less what a new payment's commitment fee needs. */
  readonly sendableSats: bigint;
  /** Ours, but held back as the channel reserve until the channel closes. */
  readonly reserveSats: bigint;
  readonly inboundSats: bigint;
  readonly isUsable: boolean;
  readonly isReady: boolean;
  readonly isOutbound: boolean;
  readonly confirmations: number | null;
  readonly peerOnline: boolean;
  /** The blocks this node must wait for its side after closing alone (the delay its partner asked); null: not yet known. */
  readonly spendDelay: number | null;
}

export type PaymentResult =
  | {
      readonly status: "succeeded";
      readonly paymentHash: string;
      readonly preimage: string;
      readonly feeMsat: bigint;
    }
  | ({ readonly status: "failed"; readonly paymentHash: string | null } & Refusal)
  | { readonly status: "pending"; readonly paymentHash: string };

export type SendStart =
  | {
      readonly started: true;
      readonly paymentId: string;
      readonly paymentHash: string;
      readonly done: Promise<PaymentResult>;
    }
  | { readonly started: false; readonly result: PaymentResult };

export interface NodeOptions {
  readonly seed: Uint8Array;
  readonly network: "bitcoin" | "testnet" | "signet" | "regtest";
  readonly store: BlobStore;
  readonly chain: EsploraChain;
  readonly log: Log;
  readonly role: NodeRole;
  /** A wallet's `to_self_delay` (blocks its partners wait after closing alone); two weeks unless said. */
  readonly toSelfDelay?: number;
  /** Opens a byte stream to a peer. */
  readonly connect: (peer: PeerAddress) => Promise<Pipe>;
  /** Builds and signs (without broadcasting) a transaction paying `sats` to `script`. */
  readonly fundChannel: (script: Uint8Array, sats: bigint) => Promise<Uint8Array>;
  /** A script of our on-chain wallet to sweep closed-channel outputs to. */
  readonly sweepScript: () => Promise<Uint8Array>;
  readonly onEvent: (event: NodeEvent) => void;
  /** The one peer allowed to open zero-confirmation channels to us (the configured LSP), hex pubkey. */
  readonly trustedZeroConfPeer?: () => string | null;
  /**
   * Whether to claim an incoming payment, given what the forwarding node skimmed off it (default: only
   * when nothing was). A payment refused here is failed back and reported as `payment_refused`.
   */
  readonly claimPolicy?: (paymentHash: string, amountMsat: bigint, skimmedMsat: bigint) => boolean;
  /**
   * A payment arrived for a hash whose preimage this node does not know (an invoice made for someone
   * else's hash, as an LSP wrapping its client's invoice does). Answer true to hold it and settle it later
   * with `claim` or `failBack`; false (or none given) fails it back at once.
   */
  readonly onUnknownPreimage?: (paymentHash: string, amountMsat: bigint) => boolean;
  readonly now?: () => number;
  /** A peer the node keeps connected began connecting, connected, or became unreachable (`peerStatus`). */
  readonly onPeers?: () => void;
  /**
   * With a watchtower: a signed justice transaction for each commitment the partner revokes, with that
   * commitment's txid (internal byte order), for an appointment.
   */
  readonly onJustice?: (commitmentTxid: Uint8Array, justiceTx: Uint8Array) => void;
  /** Told the height of the last block the saved node had seen, as it is read back (not for a new node). */
  readonly onLastSeen?: (height: number) => void;
  /** Told when the node's channels are restored from the store, as its first chain sync begins. */
  readonly onRestored?: () => void;
  /**
   * LDK itself failed (a panic inside its wasm): the node has stopped and takes nothing more. The wasm
   * instance cannot be trusted after that; only a new one (a reload) runs lightning again.
   */
  readonly onFatal?: (message: string) => void;
  /**
   * Takes the network's gossip from peers into the graph and passes it on (`P2PGossipSync`), as a routing
   * node does: the local world's public nodes. A wallet fills its graph from rapid gossip sync instead.
   */
  readonly p2pGossip?: boolean;
  /**
   * A trained scorer's bytes from the `scorer` server (fetched while the node starts): read before the
   * node is built, and used instead of the stored one when LDK can read it.
   */
  readonly scorer?: Promise<Uint8Array | null>;
  /** How long `payInvoice` waits for a final state before answering `pending`. */
  readonly paymentTimeoutMs?: number;
  /**
   * How long after its start a wallet's node waits for its channels to be back before it reads its stored
   * graph anyway (a partner away); 5 s when not given. A payment reads it at once.
   */
  readonly graphReadWaitMs?: number;
}

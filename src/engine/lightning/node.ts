/**
 * A lightning node on LDK (lightningdevkit wasm): channel manager, chain monitor and peer manager, with
 * the parts the bindings leave to us — persistence, the background loop, event handling, peers over pipes.
 *
 * Safety rules kept here:
 * - Nothing leaves the node before the state it comes from is durable ("output commit"). Bytes for peers,
 *   transactions to broadcast, events for the wallet and payment results are held, and released only once
 *   a write of the channel manager together with every changed channel monitor has landed. A crash before
 *   that write loses only state nobody outside has seen; the store holds a manager and monitors taken at
 *   the same instant, so a monitor is never ahead of its manager nor behind what the peer has seen.
 * - LDK is therefore told each monitor update is `Completed` at once: its synchronous persistence mode.
 *   (The asynchronous `InProgress` mode is marked beta by LDK, and LDK 0.1.0 cannot read back a manager
 *   written while a received payment's claim was in flight: `DecodeError::InvalidValue`.)
 * - Every callback from LDK catches its own errors: one escaping would abort the wasm instance.
 */
import { hex } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { Transaction } from "@scure/btc-signer";
import * as ldk from "lightningdevkit";
import { encodeInvoice, field, INVOICE_FEATURES, INVOICE_PREFIX, type RouteHintHop } from "./bolt11-encode";
import type { EsploraChain, Log } from "./chain";
import { displayHex, internalBytes } from "./chain";
import { Lsps0 } from "./lsps0";
import { NodeError, type PaymentFailure } from "./policy";
import type { Pipe, PeerAddress } from "./socket";
import {
  type BlobStore,
  type BlobWrite,
  MANAGER_KEY,
  MONITOR_PREFIX,
  SWEEP_PREFIX,
  LN_PREFIX,
} from "./store";

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
  | {
      readonly type: "outputs_swept";
      readonly txid: string;
      readonly sats: bigint;
      /** The closed channels these outputs came from. */
      readonly channelIds: readonly string[];
    }
  | {
      readonly type: "htlc_intercepted";
      readonly interceptId: string;
      readonly scid: bigint;
      readonly paymentHash: string;
      readonly inboundMsat: bigint;
      readonly expectedOutboundMsat: bigint;
    }
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
  /** Ours, but held back as the channel reserve until the channel closes. */
  readonly reserveSats: bigint;
  readonly inboundSats: bigint;
  readonly isUsable: boolean;
  readonly isReady: boolean;
  readonly isOutbound: boolean;
  readonly confirmations: number | null;
  readonly peerOnline: boolean;
}

export type PaymentResult =
  | {
      readonly status: "succeeded";
      readonly paymentHash: string;
      readonly preimage: string;
      readonly feeMsat: bigint;
    }
  | { readonly status: "failed"; readonly paymentHash: string | null; readonly reason: PaymentFailure }
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
  /** Told when the node's channels are restored from the store, as its first chain sync begins. */
  readonly onRestored?: () => void;
  /** How long `payInvoice` waits for a final state before answering `pending`. */
  readonly paymentTimeoutMs?: number;
}

const NETWORKS = {
  bitcoin: ldk.Network.LDKNetwork_Bitcoin,
  testnet: ldk.Network.LDKNetwork_Testnet,
  signet: ldk.Network.LDKNetwork_Signet,
  regtest: ldk.Network.LDKNetwork_Regtest,
} as const;

const PEERS_KEY = `${LN_PREFIX}peers`;
/** Sweeps of outputs found on the chain by the seed's scripts, not reported by a channel. */
const RECOVERED = "recovered";
const TIMER_TICK_MS = 60_000;
const PEER_TICK_MS = 10_000;
const LOOP_MS = 250;
/** The longest wait between two tries of the first chain sync. */
const FIRST_SYNC_MAX_WAIT_MS = 15_000;
export const INVOICE_EXPIRY_SECS = 86_400;
/** What the last hop must leave us to claim a payment safely (LDK's minimum is 18 blocks). */
const MIN_FINAL_CLTV_EXPIRY_DELTA = 24;
const text = new TextEncoder();
const untext = new TextDecoder();

const random32 = () => crypto.getRandomValues(new Uint8Array(32));
const someU64 = (o: ldk.Option_u64Z): bigint | null => (o instanceof ldk.Option_u64Z_Some ? o.some : null);

const apiErrorText = (e: ldk.APIError): string => {
  if ("err" in e && typeof (e as { err: unknown }).err === "string") return (e as { err: string }).err;
  return e.constructor.name.replace(/^APIError_/, "");
};

const failureOf = (reason: ldk.Option_PaymentFailureReasonZ): PaymentFailure => {
  if (!(reason instanceof ldk.Option_PaymentFailureReasonZ_Some)) return "unknown";
  const R = ldk.PaymentFailureReason;
  switch (reason.some) {
    case R.LDKPaymentFailureReason_RouteNotFound:
      return "route_not_found";
    case R.LDKPaymentFailureReason_RecipientRejected:
      return "recipient_rejected";
    case R.LDKPaymentFailureReason_RetriesExhausted:
      return "retries_exhausted";
    case R.LDKPaymentFailureReason_PaymentExpired:
      return "expired";
    default:
      return "unknown";
  }
};

interface Connection {
  readonly pipe: Pipe;
  readonly descriptor: ldk.SocketDescriptor;
}

export class LightningNode {
  private readonly keys: ldk.KeysManager;
  private readonly logger: ldk.Logger;
  private chainMonitor!: ldk.ChainMonitor;
  private manager!: ldk.ChannelManager;
  private peerManager!: ldk.PeerManager;
  private readonly handler: ldk.EventHandler;
  private writes: Promise<void> = Promise.resolve();
  /** Channel monitors LDK changed, by key, waiting for the next write of the node's state. */
  private readonly pendingMonitors = new Map<string, Uint8Array>();
  /** What the node wants to say to the world, held until the state it comes from is durable. */
  private held: (() => void)[] = [];
  private readonly broadcaster: ldk.BroadcasterInterface;
  private readonly connections = new Map<bigint, Connection>();
  private nextSocket = 1n;
  private knownPeers = new Map<string, PeerAddress>();
  private readonly waiting = new Map<string, (r: PaymentResult) => void>();
  private timers: ReturnType<typeof setInterval>[] = [];
  private ticking = false;
  private tickAgain = false;
  private stopped = false;
  private lastChannels = "";
  readonly nodeId: string;
  /** LSPS0 messages with LSPs (JSON-RPC in custom messages); an LSP's node sets its `serve`. */
  readonly lsps0: Lsps0;

  private constructor(private readonly opts: NodeOptions) {
    const now = (opts.now ?? Date.now)();
    this.keys = ldk.KeysManager.constructor_new(
      opts.seed,
      BigInt(Math.floor(now / 1000)),
      (now % 1000) * 1_000_000 + Math.floor(Math.random() * 1000),
    );
    this.logger = ldk.Logger.new_impl({
      log: (record: ldk.Record) => {
        try {
          const level = record.get_level();
          if (level === ldk.Level.LDKLevel_Gossip || level === ldk.Level.LDKLevel_Trace) return;
          const kind =
            level === ldk.Level.LDKLevel_Error
              ? "error"
              : level === ldk.Level.LDKLevel_Warn
                ? "warn"
                : "debug";
          opts.log(kind, `${record.get_module_path()}: ${record.get_args()}`);
        } catch {
          // a log line is never worth the node
        }
      },
    } as ldk.LoggerInterface);
    this.handler = ldk.EventHandler.new_impl({
      handle_event: (event: ldk.Event) => {
        try {
          this.handleEvent(event);
        } catch (e) {
          opts.log("error", `event handler: ${String(e)}`);
        }
        return ldk.Result_NoneReplayEventZ.constructor_ok();
      },
    } as ldk.EventHandlerInterface);
    this.broadcaster = ldk.BroadcasterInterface.new_impl({
      broadcast_transactions: (txs: Uint8Array[]) => {
        const copies = txs.map((t) => t.slice());
        this.hold(() => opts.chain.broadcaster.broadcast_transactions(copies));
      },
    } as ldk.BroadcasterInterface);
    const id = this.keys.as_NodeSigner().get_node_id(ldk.Recipient.LDKRecipient_Node);
    if (!(id instanceof ldk.Result_PublicKeyNoneZ_OK))
      throw new NodeError("The node key could not be derived");
    this.nodeId = hex.encode(id.res);
    this.lsps0 = new Lsps0({ wake: () => this.schedule(), log: opts.log, advertise: opts.role === "router" });
  }

  /** Starts the node: restores the manager and every monitor from the store, or makes a new node. */
  static async start(opts: NodeOptions): Promise<LightningNode> {
    const node = new LightningNode(opts);
    try {
      await node.build();
    } catch (e) {
      // A node that could not start must not tick on behind the wallet's back.
      node.halt();
      throw e;
    }
    return node;
  }

  /**
   * Holds `effect` (a peer message, a broadcast, an event) until the next write of the node's state has
   * landed; see `persistState`.
   */
  private hold(effect: () => void): void {
    this.held.push(effect);
    if (!this.ticking) this.schedule();
  }

  private persister(): ldk.Persist {
    const persist = (outpoint: ldk.OutPoint, monitor: ldk.ChannelMonitor) => {
      const key = `${MONITOR_PREFIX}${displayHex(outpoint.get_txid())}_${outpoint.get_index()}`;
      // Written by the next tick together with the manager (see `persistState`). Until then nothing this
      // update makes possible leaves the node, so LDK may go on as if it were stored.
      this.pendingMonitors.set(key, monitor.write());
      this.schedule();
      return ldk.ChannelMonitorUpdateStatus.LDKChannelMonitorUpdateStatus_Completed;
    };
    return ldk.Persist.new_impl({
      persist_new_channel: (outpoint: ldk.OutPoint, monitor: ldk.ChannelMonitor) => {
        try {
          return persist(outpoint, monitor);
        } catch (e) {
          this.opts.log("error", `persist_new_channel: ${String(e)}`);
          return ldk.ChannelMonitorUpdateStatus.LDKChannelMonitorUpdateStatus_UnrecoverableError;
        }
      },
      update_persisted_channel: (
        outpoint: ldk.OutPoint,
        _update: ldk.ChannelMonitorUpdate | null,
        monitor: ldk.ChannelMonitor,
      ) => {
        try {
          return persist(outpoint, monitor);
        } catch (e) {
          this.opts.log("error", `update_persisted_channel: ${String(e)}`);
          return ldk.ChannelMonitorUpdateStatus.LDKChannelMonitorUpdateStatus_UnrecoverableError;
        }
      },
      archive_persisted_channel: (_outpoint: ldk.OutPoint) => {
        // Closed channels keep their monitor: it is small and a later restore may still need it.
      },
    } as ldk.PersistInterface);
  }

  /**
   * Writes in the order asked; `then` runs once the write (and every one before it) is durable. A failed
   * write stops the node.
   */
  private enqueue(writes: readonly BlobWrite[], then?: () => void): Promise<void> {
    const run = this.writes.then(async () => {
      try {
        if (writes.length > 0) await this.opts.store.put(writes);
      } catch (e) {
        this.opts.log("error", `could not persist ${writes.map((w) => w.key).join(", ")}: ${String(e)}`);
        // Never tell LDK something is durable when it is not: stop instead.
        this.stop();
        throw e;
      }
      try {
        then?.();
      } catch (e) {
        this.opts.log("error", `after persist: ${String(e)}`);
      }
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  private config(): ldk.UserConfig {
    const config = ldk.UserConfig.constructor_default();
    const handshake = ldk.ChannelHandshakeConfig.constructor_default();
    handshake.set_announce_for_forwarding(false);
    handshake.set_max_inbound_htlc_value_in_flight_percent_of_channel(100);
    handshake.set_negotiate_anchors_zero_fee_htlc_tx(false);
    config.set_channel_handshake_config(handshake);
    const limits = ldk.ChannelHandshakeLimits.constructor_default();
    limits.set_force_announced_channel_preference(false);
    config.set_channel_handshake_limits(limits);
    config.set_manually_accept_inbound_channels(true);
    if (this.opts.role === "router") {
      config.set_accept_forwards_to_priv_channels(true);
      config.set_accept_intercept_htlcs(true);
    } else {
      // A just-in-time channel's LSP takes its opening fee out of the first payment it forwards; the
      // claim policy checks what was kept against what was promised before claiming.
      const channel = ldk.ChannelConfig.constructor_default();
      channel.set_accept_underpaying_htlcs(true);
      config.set_channel_config(channel);
    }
    return config;
  }

  private async build(): Promise<void> {
    const { opts } = this;
    const chain = opts.chain;
    this.chainMonitor = ldk.ChainMonitor.constructor_new(
      ldk.Option_FilterZ.constructor_some(chain.filter),
      this.broadcaster,
      this.logger,
      chain.feeEstimator,
      this.persister(),
    );
    const network = NETWORKS[opts.network];
    const graph = ldk.NetworkGraph.constructor_new(network, this.logger);
    const scorer = ldk.ProbabilisticScorer.constructor_new(
      ldk.ProbabilisticScoringDecayParameters.constructor_default(),
      graph,
      this.logger,
    );
    const score = ldk.MultiThreadedLockableScore.constructor_new(scorer.as_Score());
    const entropy = this.keys.as_EntropySource();
    const router = ldk.DefaultRouter.constructor_new(
      graph,
      this.logger,
      entropy,
      score.as_LockableScore(),
      ldk.ProbabilisticScoringFeeParameters.constructor_default(),
    );
    const messageRouter = ldk.DefaultMessageRouter.constructor_new(graph, entropy);

    const monitors: ldk.ChannelMonitor[] = [];
    for (const key of await opts.store.keys(MONITOR_PREFIX)) {
      const bytes = await opts.store.get(key);
      if (!bytes) continue;
      const read = ldk.UtilMethods.constructor_C2Tuple_ThirtyTwoBytesChannelMonitorZ_read(
        bytes,
        entropy,
        this.keys.as_SignerProvider(),
      );
      if (!(read instanceof ldk.Result_C2Tuple_ThirtyTwoBytesChannelMonitorZDecodeErrorZ_OK))
        throw new NodeError(`The saved channel ${key} could not be read`);
      monitors.push(read.res.get_b());
    }
    const saved = await opts.store.get(MANAGER_KEY);
    const watch = this.chainMonitor.as_Watch();
    if (saved) {
      const read = ldk.UtilMethods.constructor_C2Tuple_ThirtyTwoBytesChannelManagerZ_read(
        saved,
        entropy,
        this.keys.as_NodeSigner(),
        this.keys.as_SignerProvider(),
        chain.feeEstimator,
        watch,
        this.broadcaster,
        router.as_Router(),
        messageRouter.as_MessageRouter(),
        this.logger,
        this.config(),
        monitors,
      );
      if (!(read instanceof ldk.Result_C2Tuple_ThirtyTwoBytesChannelManagerZDecodeErrorZ_OK))
        throw new NodeError(
          `The saved lightning node could not be read (${(read as ldk.Result_C2Tuple_ThirtyTwoBytesChannelManagerZDecodeErrorZ_Err).err?.constructor.name})`,
        );
      this.manager = read.res.get_b();
    } else {
      if (monitors.length > 0) throw new NodeError("Channels were found without their node state");
      const tip = await chain.client.tipHash();
      const height = await chain.client.tipHeight();
      const params = ldk.ChainParameters.constructor_new(
        network,
        ldk.BestBlock.constructor_new(internalBytes(tip), height),
      );
      this.manager = ldk.ChannelManager.constructor_new(
        chain.feeEstimator,
        watch,
        this.broadcaster,
        router.as_Router(),
        messageRouter.as_MessageRouter(),
        this.logger,
        entropy,
        this.keys.as_NodeSigner(),
        this.keys.as_SignerProvider(),
        this.config(),
        params,
        Math.floor((opts.now ?? Date.now)() / 1000),
      );
      await this.enqueue([{ key: MANAGER_KEY, value: this.manager.write() }]);
    }
    for (const monitor of monitors) {
      const outpoint = monitor.get_funding_txo().get_a();
      const r = watch.watch_channel(outpoint, monitor);
      if (!r.is_ok()) throw new NodeError("A saved channel could not be watched");
    }

    const ignorer = ldk.IgnoringMessageHandler.constructor_new();
    this.peerManager = ldk.PeerManager.constructor_new(
      this.manager.as_ChannelMessageHandler(),
      ignorer.as_RoutingMessageHandler(),
      ignorer.as_OnionMessageHandler(),
      this.lsps0.handler(),
      Math.floor((opts.now ?? Date.now)() / 1000),
      random32(),
      this.logger,
      this.keys.as_NodeSigner(),
    );
    const peers = await opts.store.get(PEERS_KEY);
    if (peers) {
      for (const p of JSON.parse(untext.decode(peers)) as PeerAddress[]) this.knownPeers.set(p.pubkey, p);
    }
    this.timers.push(setInterval(() => this.schedule(), LOOP_MS));
    this.timers.push(
      setInterval(() => this.guard("timer tick", () => this.manager.timer_tick_occurred()), TIMER_TICK_MS),
    );
    this.timers.push(
      setInterval(() => {
        this.guard("peer tick", () => this.peerManager.timer_tick_occurred());
        void this.reconnect();
      }, PEER_TICK_MS),
    );
    opts.onRestored?.();
    await this.firstSync();
    void this.reconnect();
  }

  /**
   * The first look at the chain, retried with back-off until it succeeds or the node stops: a server that
   * answers garbage or nothing delays the node, and it comes up on its own once the server recovers.
   */
  private async firstSync(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.sync();
        return;
      } catch (e) {
        this.opts.log("warn", `first chain sync: ${String(e)}`);
        await new Promise((r) => setTimeout(r, Math.min(FIRST_SYNC_MAX_WAIT_MS, 500 * 2 ** attempt)));
      }
    }
  }

  private guard(what: string, f: () => void): void {
    if (this.stopped) return;
    try {
      f();
    } catch (e) {
      this.opts.log("error", `${what}: ${String(e)}`);
    }
  }

  /** Runs the background work soon: peer messages, events, and persisting the manager. */
  schedule(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    setTimeout(() => {
      try {
        do {
          this.tickAgain = false;
          this.tick();
        } while (this.tickAgain && !this.stopped);
      } finally {
        this.ticking = false;
      }
    }, 0);
  }

  private tick(): void {
    this.guard("peer events", () => this.peerManager.process_events());
    this.guard("manager events", () => this.manager.as_EventsProvider().process_pending_events(this.handler));
    this.guard("monitor events", () =>
      this.chainMonitor.as_EventsProvider().process_pending_events(this.handler),
    );
    this.guard("peer events", () => this.peerManager.process_events());
    this.guard("channels", () => {
      const now = JSON.stringify(this.channels(), (_k, v) => (typeof v === "bigint" ? v.toString() : v));
      if (now !== this.lastChannels) {
        this.lastChannels = now;
        this.emit({ type: "changed" });
      }
    });
    // Last, so that it covers everything this tick made.
    this.guard("persist", () => void this.persistState().catch(() => undefined));
  }

  /**
   * Writes the manager and every changed monitor in one transaction, then releases what the node held
   * back until now (peer messages, broadcasts, events). Everything held was made before this state was
   * taken, so it is released only once the state it comes from is durable; with nothing to write, it
   * still waits for the writes before it.
   */
  private persistState(always = false): Promise<void> {
    const needsManager = this.manager.get_and_clear_needs_persistence();
    const writes: BlobWrite[] = [];
    if (always || needsManager || this.pendingMonitors.size > 0) {
      writes.push({ key: MANAGER_KEY, value: this.manager.write() });
      for (const [key, bytes] of this.pendingMonitors) writes.push({ key, value: bytes });
      this.pendingMonitors.clear();
    }
    const held = this.held;
    this.held = [];
    if (writes.length === 0 && held.length === 0) return Promise.resolve();
    return this.enqueue(writes, () => {
      for (const effect of held) {
        try {
          effect();
        } catch (e) {
          this.opts.log("debug", `held effect: ${String(e)}`);
        }
      }
    });
  }

  /** Tells the wallet of `event` once the state it comes from is durable. */
  private emit(event: NodeEvent): void {
    this.hold(() => {
      try {
        this.opts.onEvent(event);
      } catch (e) {
        this.opts.log("error", `event listener: ${String(e)}`);
      }
    });
  }

  /** Answers a waiting payment once the state it comes from is durable. */
  private settle(paymentId: string, result: PaymentResult): void {
    this.hold(() => {
      const w = this.waiting.get(paymentId);
      if (w) {
        this.waiting.delete(paymentId);
        w(result);
      }
    });
  }

  private handleEvent(event: ldk.Event): void {
    const { opts } = this;
    if (event instanceof ldk.Event_FundingGenerationReady) {
      const tmp = event.temporary_channel_id.clone();
      const peer = event.counterparty_node_id;
      const script = event.output_script;
      const sats = event.channel_value_satoshis;
      void (async () => {
        try {
          const tx = await opts.fundChannel(script, sats);
          const r = this.manager.funding_transaction_generated(tmp, peer, tx);
          if (!r.is_ok()) throw new Error(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
        } catch (e) {
          opts.log("error", `channel funding failed: ${String(e)}`);
          this.manager.force_close_without_broadcasting_txn(tmp, peer, "funding failed");
        }
        this.schedule();
      })();
    } else if (event instanceof ldk.Event_PaymentClaimable) {
      const hash = hex.encode(event.payment_hash);
      const preimage = event.purpose.preimage();
      const skimmed = event.counterparty_skimmed_fee_msat;
      const allowed = this.claimAllowed(hash, event.amount_msat, skimmed);
      if (preimage instanceof ldk.Option_ThirtyTwoBytesZ_Some && allowed) {
        this.manager.claim_funds(preimage.some);
      } else if (preimage instanceof ldk.Option_ThirtyTwoBytesZ_Some) {
        opts.log("warn", `payment ${hash} refused: ${skimmed} msat kept by the forwarding node`);
        this.manager.fail_htlc_backwards(event.payment_hash);
        this.emit({
          type: "payment_refused",
          paymentHash: hash,
          amountMsat: event.amount_msat,
          skimmedMsat: skimmed,
        });
      } else if (
        !(preimage instanceof ldk.Option_ThirtyTwoBytesZ_Some) &&
        this.holds(hash, event.amount_msat)
      ) {
        opts.log("info", `payment ${hash} held until its preimage is known`);
      } else {
        opts.log("warn", `payment ${hash} not claimed`);
        this.manager.fail_htlc_backwards(event.payment_hash);
      }
    } else if (event instanceof ldk.Event_PaymentClaimed) {
      this.emit({
        type: "payment_received",
        paymentHash: hex.encode(event.payment_hash),
        amountMsat: event.amount_msat,
      });
    } else if (event instanceof ldk.Event_PaymentSent) {
      const id =
        event.payment_id instanceof ldk.Option_ThirtyTwoBytesZ_Some ? hex.encode(event.payment_id.some) : "";
      const sent = {
        paymentHash: hex.encode(event.payment_hash),
        preimage: hex.encode(event.payment_preimage),
        feeMsat: someU64(event.fee_paid_msat) ?? 0n,
      };
      this.emit({ type: "payment_sent", paymentId: id, ...sent });
      this.settle(id, { status: "succeeded", ...sent });
    } else if (event instanceof ldk.Event_PaymentFailed) {
      const id = hex.encode(event.payment_id);
      const paymentHash =
        event.payment_hash instanceof ldk.Option_ThirtyTwoBytesZ_Some
          ? hex.encode(event.payment_hash.some)
          : null;
      const reason = failureOf(event.reason);
      this.emit({ type: "payment_failed", paymentId: id, paymentHash, reason });
      this.settle(id, { status: "failed", paymentHash, reason });
    } else if (event instanceof ldk.Event_PendingHTLCsForwardable) {
      const ms = Math.min(Number(event.time_forwardable), 1000);
      setTimeout(() => {
        this.guard("forward", () => this.manager.process_pending_htlc_forwards());
        this.schedule();
      }, ms);
    } else if (event instanceof ldk.Event_ChannelPending) {
      const txo = event.funding_txo;
      this.emit({
        type: "channel_pending",
        channelId: hex.encode(event.channel_id.get_a()),
        peer: hex.encode(event.counterparty_node_id),
        fundingTxid: displayHex(txo.get_txid()),
        outpoint: `${displayHex(txo.get_txid())}:${txo.get_index()}`,
      });
    } else if (event instanceof ldk.Event_ChannelReady) {
      this.emit({
        type: "channel_ready",
        channelId: hex.encode(event.channel_id.get_a()),
        peer: hex.encode(event.counterparty_node_id),
      });
    } else if (event instanceof ldk.Event_ChannelClosed) {
      const txo = event.channel_funding_txo;
      this.emit({
        type: "channel_closed",
        channelId: hex.encode(event.channel_id.get_a()),
        peer: hex.encode(event.counterparty_node_id),
        reason: event.reason.to_str(),
        capacitySats: someU64(event.channel_capacity_sats),
        outpoint: txo ? `${displayHex(txo.get_txid())}:${txo.get_index()}` : null,
      });
    } else if (event instanceof ldk.Event_OpenChannelRequest) {
      const peer = hex.encode(event.counterparty_node_id);
      const userId = BigInt(`0x${hex.encode(random32().slice(0, 8))}`);
      const zeroConfPeer = opts.trustedZeroConfPeer?.() ?? null;
      const r =
        zeroConfPeer === peer
          ? this.manager.accept_inbound_channel_from_trusted_peer_0conf(
              event.temporary_channel_id,
              event.counterparty_node_id,
              userId,
            )
          : this.manager.accept_inbound_channel(
              event.temporary_channel_id,
              event.counterparty_node_id,
              userId,
            );
      if (!r.is_ok())
        opts.log(
          "warn",
          `inbound channel from ${peer} refused: ${apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err)}`,
        );
    } else if (event instanceof ldk.Event_SpendableOutputs) {
      const descriptors = event.outputs.map((d) => d.write());
      const channel =
        event.channel_id instanceof ldk.ChannelId ? hex.encode(event.channel_id.get_a()) : "unknown";
      const key = `${SWEEP_PREFIX}${channel}/${hex.encode(random32().slice(0, 8))}`;
      void this.enqueue([{ key, value: encodeList(descriptors) }], () => void this.sweep());
    } else if (event instanceof ldk.Event_HTLCIntercepted) {
      this.emit({
        type: "htlc_intercepted",
        interceptId: hex.encode(event.intercept_id),
        scid: event.requested_next_hop_scid,
        paymentHash: hex.encode(event.payment_hash),
        inboundMsat: event.inbound_amount_msat,
        expectedOutboundMsat: event.expected_outbound_amount_msat,
      });
    } else if (event instanceof ldk.Event_ConnectionNeeded) {
      void this.reconnect();
    }
  }

  private sweeping: Promise<void> | null = null;

  /** Spends every saved spendable output to our on-chain wallet; kept until a spend is accepted. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepSaved().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweepSaved(): Promise<void> {
    for (const key of await this.opts.store.keys(SWEEP_PREFIX)) {
      const bytes = await this.opts.store.get(key);
      if (!bytes) continue;
      const descriptors: ldk.SpendableOutputDescriptor[] = [];
      for (const d of decodeList(bytes)) {
        const r = ldk.SpendableOutputDescriptor.constructor_read(d);
        if (r instanceof ldk.Result_SpendableOutputDescriptorDecodeErrorZ_OK) descriptors.push(r.res);
      }
      const script = await this.opts.sweepScript();
      const feerate = this.opts.chain.feeFor(ldk.ConfirmationTarget.LDKConfirmationTarget_OutputSpendingFee);
      const tx = this.keys
        .as_OutputSpender()
        .spend_spendable_outputs(descriptors, [], script, feerate, ldk.Option_u32Z.constructor_none());
      if (!(tx instanceof ldk.Result_TransactionNoneZ_OK)) {
        this.opts.log("warn", `outputs in ${key} cannot be swept yet`);
        continue;
      }
      const raw = hex.encode(tx.res);
      const spend = Transaction.fromRaw(tx.res, { allowUnknownOutputs: true });
      const channelId = key.slice(SWEEP_PREFIX.length).split("/")[0]!;
      let done = false;
      try {
        await this.opts.chain.client.broadcast(raw);
        done = true;
      } catch (e) {
        // Swept before (the answer was lost): done. Otherwise a timelock is not over yet: try again later.
        done = /already|inputs-spent|missingorspent/i.test(String(e));
        if (!done) this.opts.log("info", `sweep of ${key} waits: ${String(e)}`);
      }
      if (!done) continue;
      await this.enqueue([{ key, value: null }]);
      this.emit({
        type: "outputs_swept",
        txid: spend.id,
        sats: sumOutputs(spend),
        channelIds: channelId === "unknown" ? [] : [channelId],
      });
    }
  }

  /**
   * What the seed alone can find: cooperative closes and LDK's own sweeps pay to the key manager's fixed
   * destination and shutdown scripts, so their unspent outputs are swept to the wallet even when the
   * channel state is gone (a restore from the 12 words). Outputs the node already knows are swept once.
   */
  async recoverStaticOutputs(): Promise<number> {
    const signer = this.keys.as_SignerProvider();
    const scripts: Uint8Array[] = [];
    const destination = signer.get_destination_script(new Uint8Array(32));
    if (destination instanceof ldk.Result_CVec_u8ZNoneZ_OK) scripts.push(destination.res);
    const shutdown = signer.get_shutdown_scriptpubkey();
    if (shutdown instanceof ldk.Result_ShutdownScriptNoneZ_OK) scripts.push(shutdown.res.into_inner());
    const descriptors: Uint8Array[] = [];
    for (const script of scripts) {
      const scripthash = hex.encode(sha256(script).reverse());
      for (const u of await this.opts.chain.client.scriptUtxos(scripthash)) {
        descriptors.push(
          ldk.SpendableOutputDescriptor.constructor_static_output(
            ldk.OutPoint.constructor_new(internalBytes(u.txid), u.vout),
            ldk.TxOut.constructor_new(BigInt(u.value), script),
            new Uint8Array(32),
          ).write(),
        );
      }
    }
    if (descriptors.length === 0) return 0;
    const key = `${SWEEP_PREFIX}${RECOVERED}/${hex.encode(random32().slice(0, 8))}`;
    await this.enqueue([{ key, value: encodeList(descriptors) }]);
    await this.sweep();
    return descriptors.length;
  }

  /** Brings the node up to the chain tip, then sweeps what became spendable. */
  async sync(): Promise<void> {
    await this.opts.chain.sync([this.manager.as_Confirm(), this.chainMonitor.as_Confirm()]);
    this.schedule();
    await this.sweep().catch((e) => this.opts.log("warn", `sweep: ${String(e)}`));
  }

  // ---- peers -------------------------------------------------------------------------------------

  private attach(pipe: Pipe): ldk.SocketDescriptor {
    const id = this.nextSocket++;
    const descriptor = ldk.SocketDescriptor.new_impl({
      send_data: (data: Uint8Array, _resume: boolean) => {
        // Sent once the state this message speaks of is durable (see `persistState`).
        const bytes = data.slice();
        this.hold(() => pipe.send(bytes));
        return data.length;
      },
      disconnect_socket: () => {
        this.connections.delete(id);
        // After what was said before it (an error message, say) has gone out.
        this.hold(() => {
          try {
            pipe.close();
          } catch {
            // already closed
          }
        });
      },
      eq: (other: ldk.SocketDescriptor) => other.hash() === id,
      hash: () => id,
    } as ldk.SocketDescriptorInterface);
    this.connections.set(id, { pipe, descriptor });
    pipe.onData = (data) => {
      if (this.stopped) return;
      try {
        const r = this.peerManager.read_event(descriptor, data);
        if (!r.is_ok()) {
          this.connections.delete(id);
          pipe.close();
        }
      } catch (e) {
        this.opts.log("error", `read: ${String(e)}`);
      }
      this.schedule();
    };
    pipe.onClose = () => {
      if (!this.connections.has(id) || this.stopped) return;
      this.connections.delete(id);
      this.guard("disconnect", () => this.peerManager.socket_disconnected(descriptor));
      this.schedule();
    };
    return descriptor;
  }

  /** Takes a connection a peer opened to us (the local world's listeners). */
  acceptInbound(pipe: Pipe): void {
    const descriptor = this.attach(pipe);
    const r = this.peerManager.new_inbound_connection(
      descriptor,
      ldk.Option_SocketAddressZ.constructor_none(),
    );
    if (!r.is_ok()) pipe.close();
    this.schedule();
  }

  isConnected(pubkey: string): boolean {
    return this.peerManager.list_peers().some((p) => hex.encode(p.get_counterparty_node_id()) === pubkey);
  }

  /** Connects to `pubkey@host:port` and remembers it, so it is reconnected while we have channels with it. */
  async connectPeer(peer: PeerAddress): Promise<void> {
    this.knownPeers.set(peer.pubkey, peer);
    await this.enqueue([
      { key: PEERS_KEY, value: text.encode(JSON.stringify([...this.knownPeers.values()])) },
    ]);
    if (this.isConnected(peer.pubkey)) return;
    const pipe = await this.opts.connect(peer);
    const descriptor = this.attach(pipe);
    const r = this.peerManager.new_outbound_connection(
      hex.decode(peer.pubkey),
      descriptor,
      ldk.Option_SocketAddressZ.constructor_none(),
    );
    if (!(r instanceof ldk.Result_CVec_u8ZPeerHandleErrorZ_OK)) {
      pipe.close();
      throw new NodeError("The peer refused the connection");
    }
    pipe.send(r.res);
    for (let i = 0; i < 100 && !this.isConnected(peer.pubkey); i++) {
      this.schedule();
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!this.isConnected(peer.pubkey)) throw new NodeError("The peer did not answer");
  }

  disconnectPeer(pubkey: string): void {
    this.peerManager.disconnect_by_node_id(hex.decode(pubkey));
  }

  async deletePeer(pubkey: string): Promise<void> {
    this.disconnectPeer(pubkey);
    this.knownPeers.delete(pubkey);
    await this.enqueue([
      { key: PEERS_KEY, value: text.encode(JSON.stringify([...this.knownPeers.values()])) },
    ]);
  }

  peers(): { pubkey: string; address: PeerAddress | null; connected: boolean }[] {
    const connected = new Set(
      this.peerManager.list_peers().map((p) => hex.encode(p.get_counterparty_node_id())),
    );
    const all = new Set([...connected, ...this.knownPeers.keys()]);
    return [...all].sort().map((pubkey) => ({
      pubkey,
      address: this.knownPeers.get(pubkey) ?? null,
      connected: connected.has(pubkey),
    }));
  }

  private reconnecting = false;
  private async reconnect(): Promise<void> {
    if (this.reconnecting || this.stopped) return;
    this.reconnecting = true;
    try {
      const withChannels = new Set(
        this.manager.list_channels().map((c) => hex.encode(c.get_counterparty().get_node_id())),
      );
      for (const [pubkey, address] of this.knownPeers) {
        if (!(withChannels.has(pubkey) || this.kept(pubkey)) || this.isConnected(pubkey)) continue;
        await this.connectPeer(address).catch((e) =>
          this.opts.log("info", `reconnect ${pubkey}: ${String(e)}`),
        );
      }
    } finally {
      this.reconnecting = false;
    }
  }

  // ---- channels ----------------------------------------------------------------------------------

  channels(): ChannelInfo[] {
    const online = new Set(
      this.peerManager.list_peers().map((p) => hex.encode(p.get_counterparty_node_id())),
    );
    const all = this.manager.list_channels();
    return all
      .map((c, i) => {
        const txo = c.get_funding_txo();
        const outboundSats = c.get_outbound_capacity_msat() / 1000n;
        const reserve = someU64(c.get_unspendable_punishment_reserve()) ?? 0n;
        // Anything to send means the whole reserve is held; below it, only what we hold of it is ours
        // (asked of the monitors only then: this runs on every tick).
        const heldBack =
          outboundSats > 0n ? reserve : this.ownedSats(all.filter((_, j) => j !== i)) - outboundSats;
        const confirmations = c.get_confirmations();
        const peer = hex.encode(c.get_counterparty().get_node_id());
        return {
          channelId: hex.encode(c.get_channel_id().get_a()),
          peer,
          outpoint: txo ? `${displayHex(txo.get_txid())}:${txo.get_index()}` : null,
          sizeSats: c.get_channel_value_satoshis(),
          outboundSats,
          reserveSats: heldBack <= 0n ? 0n : heldBack < reserve ? heldBack : reserve,
          inboundSats: c.get_inbound_capacity_msat() / 1000n,
          // The bindings answer booleans as 0/1.
          isUsable: Boolean(c.get_is_usable()),
          isReady: Boolean(c.get_is_channel_ready()),
          isOutbound: Boolean(c.get_is_outbound()),
          confirmations: confirmations instanceof ldk.Option_u32Z_Some ? confirmations.some : null,
          peerOnline: online.has(peer),
        };
      })
      .sort((a, b) => (a.channelId < b.channelId ? -1 : 1));
  }

  /** Ours across every channel: what we can send plus the reserves that come back on close. */
  balanceSats(): bigint {
    return this.channels().reduce((sum, c) => sum + c.outboundSats + (c.isReady ? c.reserveSats : 0n), 0n);
  }

  /**
   * Ours in the open channels other than `ignored`, as their monitors see it: our side of the latest
   * commitment, with the commitment fee we pay as funder (it comes back on a cooperative close).
   */
  private ownedSats(ignored: ldk.ChannelDetails[]): bigint {
    let sum = 0n;
    for (const b of this.chainMonitor.get_claimable_balances(ignored)) {
      if (b instanceof ldk.Balance_ClaimableOnChannelClose)
        sum += b.amount_satoshis + b.transaction_fee_satoshis;
    }
    return sum;
  }

  /** Opens a channel of `sats` to a connected peer; the funding comes from `fundChannel`. */
  openChannel(peer: string, sats: bigint, pushMsat = 0n): string {
    const r = this.manager.create_channel(hex.decode(peer), sats, pushMsat, 0n, null, null);
    if (!(r instanceof ldk.Result_ChannelIdAPIErrorZ_OK)) {
      throw new NodeError(apiErrorText((r as ldk.Result_ChannelIdAPIErrorZ_Err).err));
    }
    this.schedule();
    return hex.encode(r.res.get_a());
  }

  private findChannel(channelId: string): ldk.ChannelDetails {
    const c = this.manager.list_channels().find((d) => hex.encode(d.get_channel_id().get_a()) === channelId);
    if (!c) throw new NodeError("Channel not found");
    return c;
  }

  /**
   * Closes cooperatively, or broadcasts our latest commitment when `force` (for an offline peer). A
   * cooperative close first waits a moment for the channel to be usable (a payment's last state may still
   * be on its way to storage).
   */
  async closeChannel(channelId: string, force = false): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const c = this.findChannel(channelId);
      const id = c.get_channel_id();
      const peer = c.get_counterparty().get_node_id();
      const r = force
        ? this.manager.force_close_broadcasting_latest_txn(id, peer, "closed by the owner")
        : this.manager.close_channel(id, peer);
      if (r.is_ok()) break;
      const why = apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err);
      // A state update still being stored (or a peer reconnecting) holds a close back for a moment.
      if (force || attempt >= 50 || !/monitor update|disconnected/i.test(why)) throw new NodeError(why);
      this.schedule();
      await new Promise((r) => setTimeout(r, 100));
    }
    this.schedule();
  }

  /** Forgets a channel without broadcasting anything (a funding that never confirmed). */
  abandonChannel(channelId: string): void {
    const c = this.findChannel(channelId);
    const r = this.manager.force_close_without_broadcasting_txn(
      c.get_channel_id(),
      c.get_counterparty().get_node_id(),
      "abandoned by the owner",
    );
    if (!r.is_ok()) throw new NodeError(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
    this.schedule();
  }

  // ---- payments ----------------------------------------------------------------------------------

  /** An invoice; `description` is its text, or the sha256 of a longer one (LNURL-pay's metadata). */
  createInvoice(
    amountMsat: bigint | null,
    description: string | { readonly hash: Uint8Array },
    expirySecs = INVOICE_EXPIRY_SECS,
    paymentHash?: Uint8Array,
  ): { bolt11: string; paymentHash: string } {
    let describe: ldk.Bolt11InvoiceDescription;
    if (typeof description === "string") {
      const desc = ldk.Description.constructor_new(description);
      if (!(desc instanceof ldk.Result_DescriptionCreationErrorZ_OK))
        throw new NodeError("Description too long");
      describe = ldk.Bolt11InvoiceDescription.constructor_direct(desc.res);
    } else {
      describe = ldk.Bolt11InvoiceDescription.constructor_hash(
        ldk.Sha256.constructor_from_bytes(description.hash),
      );
    }
    const r = this.manager.create_bolt11_invoice(
      amountMsat === null ? ldk.Option_u64Z.constructor_none() : ldk.Option_u64Z.constructor_some(amountMsat),
      describe,
      ldk.Option_u32Z.constructor_some(expirySecs),
      ldk.Option_u16Z.constructor_none(),
      paymentHash
        ? ldk.Option_ThirtyTwoBytesZ.constructor_some(paymentHash)
        : ldk.Option_ThirtyTwoBytesZ.constructor_none(),
    );
    if (!(r instanceof ldk.Result_Bolt11InvoiceSignOrCreationErrorZ_OK)) {
      throw new NodeError((r as ldk.Result_Bolt11InvoiceSignOrCreationErrorZ_Err).err.to_str());
    }
    return { bolt11: r.res.to_str(), paymentHash: hex.encode(r.res.payment_hash()) };
  }

  /** What can be sent now over one or several channels, and what the reserves hold back. */
  private sendable(): { now: bigint; withReserve: bigint } {
    let now = 0n;
    let withReserve = 0n;
    for (const c of this.manager.list_usable_channels()) {
      now += c.get_next_outbound_htlc_limit_msat();
      withReserve +=
        c.get_outbound_capacity_msat() + (someU64(c.get_unspendable_punishment_reserve()) ?? 0n) * 1000n;
    }
    return { now, withReserve };
  }

  private preflight(amountMsat: bigint): PaymentFailure | null {
    const { now, withReserve } = this.sendable();
    if (amountMsat <= now) return null;
    return amountMsat <= withReserve ? "reserve" : "no_balance";
  }

  private wait(paymentId: string, paymentHash: string): Promise<PaymentResult> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(paymentId);
        resolve({ status: "pending", paymentHash });
      }, this.opts.paymentTimeoutMs ?? 60_000);
      this.waiting.set(paymentId, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.schedule();
    });
  }

  /** Pays a bolt11 invoice (with `amountMsat` when the invoice has none); answers its final state. */
  async payInvoice(bolt11: string, maxFeeMsat: bigint, amountMsat?: bigint): Promise<PaymentResult> {
    const s = this.sendInvoice(bolt11, maxFeeMsat, amountMsat);
    return s.started ? s.done : s.result;
  }

  /**
   * Starts paying a bolt11 invoice. Answers at once: either the payment is on its way (`done` resolves
   * with its final state), or it was refused before anything was sent (`result`).
   */
  sendInvoice(bolt11: string, maxFeeMsat: bigint, amountMsat?: bigint): SendStart {
    const parsed = ldk.Bolt11Invoice.constructor_from_str(bolt11.trim());
    if (!(parsed instanceof ldk.Result_Bolt11InvoiceParseOrSemanticErrorZ_OK))
      throw new NodeError("Invalid invoice");
    const invoice = parsed.res;
    const fixed = someU64(invoice.amount_milli_satoshis());
    const params =
      fixed === null
        ? ldk.UtilMethods.constructor_payment_parameters_from_variable_amount_invoice(
            invoice,
            amountMsat ?? 0n,
          )
        : ldk.UtilMethods.constructor_payment_parameters_from_invoice(invoice);
    if (!(params instanceof ldk.Result_C3Tuple_ThirtyTwoBytesRecipientOnionFieldsRouteParametersZNoneZ_OK)) {
      throw new NodeError("This invoice cannot be paid");
    }
    const hash = params.res.get_a();
    const paymentHash = hex.encode(hash);
    const routeParams = params.res.get_c();
    const problem = this.preflight(routeParams.get_final_value_msat());
    if (problem) return { started: false, result: { status: "failed", paymentHash, reason: problem } };
    routeParams.set_max_total_routing_fee_msat(ldk.Option_u64Z.constructor_some(maxFeeMsat));
    const r = this.manager.send_payment(
      hash,
      params.res.get_b(),
      hash,
      routeParams,
      ldk.Retry.constructor_attempts(5),
    );
    if (!(r instanceof ldk.Result_NoneRetryableSendFailureZ_OK)) {
      const why = (r as ldk.Result_NoneRetryableSendFailureZ_Err).err;
      const F = ldk.RetryableSendFailure;
      const reason: PaymentFailure =
        why === F.LDKRetryableSendFailure_DuplicatePayment
          ? "duplicate"
          : why === F.LDKRetryableSendFailure_PaymentExpired
            ? "expired"
            : why === F.LDKRetryableSendFailure_RouteNotFound
              ? "route_not_found"
              : "unknown";
      return { started: false, result: { status: "failed", paymentHash, reason } };
    }
    return { started: true, paymentId: paymentHash, paymentHash, done: this.wait(paymentHash, paymentHash) };
  }

  /** Pays `amountMsat` to a node public key with no invoice (keysend); answers its final state. */
  async keysend(pubkey: string, amountMsat: bigint, maxFeeMsat: bigint): Promise<PaymentResult> {
    const s = this.sendKeysend(pubkey, amountMsat, maxFeeMsat);
    return s.started ? s.done : s.result;
  }

  /** Starts a keysend payment; see `sendInvoice`. */
  sendKeysend(pubkey: string, amountMsat: bigint, maxFeeMsat: bigint): SendStart {
    const problem = this.preflight(amountMsat);
    if (problem) return { started: false, result: { status: "failed", paymentHash: null, reason: problem } };
    const routeParams = ldk.RouteParameters.constructor_from_payment_params_and_value(
      ldk.PaymentParameters.constructor_for_keysend(hex.decode(pubkey), 40, false),
      amountMsat,
    );
    routeParams.set_max_total_routing_fee_msat(ldk.Option_u64Z.constructor_some(maxFeeMsat));
    const preimage = random32();
    const id = random32();
    const r = this.manager.send_spontaneous_payment(
      ldk.Option_ThirtyTwoBytesZ.constructor_some(preimage),
      ldk.RecipientOnionFields.constructor_spontaneous_empty(),
      id,
      routeParams,
      ldk.Retry.constructor_attempts(5),
    );
    if (!(r instanceof ldk.Result_ThirtyTwoBytesRetryableSendFailureZ_OK)) {
      return { started: false, result: { status: "failed", paymentHash: null, reason: "route_not_found" } };
    }
    const paymentHash = hex.encode(r.res);
    return {
      started: true,
      paymentId: hex.encode(id),
      paymentHash,
      done: this.wait(hex.encode(id), paymentHash),
    };
  }

  // ---- the LSP side of just-in-time channels (local world) ---------------------------------------

  private holds(paymentHash: string, amountMsat: bigint): boolean {
    try {
      return this.opts.onUnknownPreimage?.(paymentHash, amountMsat) ?? false;
    } catch (e) {
      this.opts.log("error", `held payment ${paymentHash}: ${String(e)}`);
      return false;
    }
  }

  /** Claims a held payment with its preimage (hex), learnt elsewhere. */
  claim(preimage: string): void {
    this.manager.claim_funds(hex.decode(preimage));
    this.schedule();
  }

  /** Fails a held payment back to its payer. */
  failBack(paymentHash: string): void {
    this.manager.fail_htlc_backwards(hex.decode(paymentHash));
    this.schedule();
  }

  /** The preimage of an invoice this node made (a service sealing a LUD-10 secret with it). */
  preimageOf(bolt11: string): Uint8Array | null {
    const invoice = ldk.Bolt11Invoice.constructor_from_str(bolt11);
    if (!(invoice instanceof ldk.Result_Bolt11InvoiceParseOrSemanticErrorZ_OK)) return null;
    const r = this.manager.get_payment_preimage(invoice.res.payment_hash(), invoice.res.payment_secret());
    return r instanceof ldk.Result_ThirtyTwoBytesAPIErrorZ_OK ? r.res : null;
  }

  interceptScid(): bigint {
    return this.manager.get_intercept_scid();
  }

  forwardIntercepted(interceptId: string, channelId: string, peer: string, amountMsat: bigint): void {
    const c = this.findChannel(channelId);
    const r = this.manager.forward_intercepted_htlc(
      hex.decode(interceptId),
      c.get_channel_id(),
      hex.decode(peer),
      amountMsat,
    );
    if (!r.is_ok()) throw new NodeError(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
    this.schedule();
  }

  failIntercepted(interceptId: string): void {
    this.manager.fail_intercepted_htlc(hex.decode(interceptId));
    this.schedule();
  }

  // ---- the client side of just-in-time channels (LSPS2) ------------------------------------------

  /** Peers kept connected until a time (unix ms) though no channel is open with them yet. */
  private readonly keepUntil = new Map<string, number>();

  /** Keeps `pubkey` connected (reconnecting when it drops) until `untilMs`, e.g. while an LSP's invoice is open. */
  keepConnected(pubkey: string, untilMs: number): void {
    const now = (this.opts.now ?? Date.now)();
    for (const [p, until] of this.keepUntil) if (until <= now) this.keepUntil.delete(p);
    if (untilMs > (this.keepUntil.get(pubkey) ?? 0)) this.keepUntil.set(pubkey, untilMs);
  }

  private kept(pubkey: string): boolean {
    return (this.keepUntil.get(pubkey) ?? 0) > (this.opts.now ?? Date.now)();
  }

  private claimAllowed(paymentHash: string, amountMsat: bigint, skimmedMsat: bigint): boolean {
    try {
      return this.opts.claimPolicy?.(paymentHash, amountMsat, skimmedMsat) ?? skimmedMsat === 0n;
    } catch (e) {
      this.opts.log("error", `claim policy ${paymentHash}: ${String(e)}`);
      return false;
    }
  }

  /**
   * An invoice LDK will claim (its hash and secret come from the manager, for at least `amountMsat`),
   * payable only through `hint`: an LSP's intercept SCID that opens a channel to us as it is paid.
   */
  createInvoiceWithHint(
    amountMsat: bigint,
    description: string,
    expirySecs: number,
    hint: RouteHintHop,
  ): { bolt11: string; paymentHash: string } {
    const r = this.manager.create_inbound_payment(
      ldk.Option_u64Z.constructor_some(amountMsat),
      expirySecs,
      ldk.Option_u16Z.constructor_some(MIN_FINAL_CLTV_EXPIRY_DELTA),
    );
    if (!(r instanceof ldk.Result_C2Tuple_ThirtyTwoBytesThirtyTwoBytesZNoneZ_OK))
      throw new NodeError("The invoice could not be made");
    const [hash, secret] = [r.res.get_a(), r.res.get_b()];
    const bolt11 = encodeInvoice({
      prefix: INVOICE_PREFIX[this.opts.network],
      amountMsat,
      timestamp: Math.floor((this.opts.now ?? Date.now)() / 1000),
      secretKey: this.keys.get_node_secret_key(),
      fields: [
        field.paymentHash(hash),
        field.paymentSecret(secret),
        field.description(description),
        field.expiry(expirySecs),
        // As LDK's own invoices: a few blocks more than the node requires, for blocks found meanwhile.
        field.minFinalCltvExpiry(MIN_FINAL_CLTV_EXPIRY_DELTA + 3),
        field.routeHint([hint]),
        field.features(INVOICE_FEATURES),
      ],
    });
    return { bolt11, paymentHash: hex.encode(hash) };
  }

  /**
   * Stops at once, writing nothing more: what closing the tab (or a crash) does. Writes under way may or
   * may not land; what was held back for one goes out only if it does.
   */
  halt(): void {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const { pipe } of this.connections.values()) {
      try {
        pipe.close();
      } catch {
        // already closed
      }
    }
    this.connections.clear();
  }

  /**
   * Stops the loop and every connection, waits for pending writes, then writes the manager once more with
   * any monitor updates still waiting (the same single write as every tick).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.halt();
    for (const [id, w] of this.waiting) w({ status: "pending", paymentHash: id });
    this.waiting.clear();
    await this.writes;
    await this.persistState(true).catch((e) => this.opts.log("error", `final write: ${String(e)}`));
  }
}

const encodeList = (items: readonly Uint8Array[]): Uint8Array =>
  text.encode(JSON.stringify(items.map((i) => hex.encode(i))));
const decodeList = (bytes: Uint8Array): Uint8Array[] =>
  (JSON.parse(untext.decode(bytes)) as string[]).map((h) => hex.decode(h));

/** Total of a transaction's outputs. */
const sumOutputs = (tx: Transaction): bigint => {
  let total = 0n;
  for (let i = 0; i < tx.outputsLength; i++) total += tx.getOutput(i).amount ?? 0n;
  return total;
};

/**
 * A lightning node on LDK (lightningdevkit wasm): channel manager, chain monitor and peer manager, with
 * the parts the bindings leave to us, each in its own module as LDK Node keeps them:
 *
 *   node-core.ts       what the parts share, and the background loop (a tick: messages, events, one write)
 *   output-commit.ts   nothing leaves the node before the state it comes from is durable (read this first)
 *   node-build.ts      LDK's objects, restored from the store or new; what the channels accept
 *   node-events.ts     LDK's events, handled
 *   peers.ts           connections, known peers
 *   connections.ts     peers dialled at once, on a drop and on waking (supervisor.ts); LDK's pings
 *   channels.ts        channels as the wallet sees them; open, close, abandon
 *   payments.ts        invoices, payments sent and awaited, held payments claimed or failed back
 *   lsp-intercept.ts   who may skim a payment on its way to us; the LSP side of just-in-time channels
 *   sweeps.ts          closed channels' outputs back to the on-chain wallet
 *
 * This class is the node's one public face; it composes the parts. Every callback from LDK catches its
 * own errors: one escaping would abort the wasm instance.
 */
import { Channels, type ForwardingPolicy } from "./channels";
import * as ldk from "lightningdevkit";
import type { ChannelGossip } from "./gossip";
import { Interception } from "./lsp-intercept";
import { Lsps0 } from "./lsps0";
import { buildNode } from "./node-build";
import { isPanic, NodeCore } from "./node-core";
import { eventHandler } from "./node-events";
import type { ChannelInfo, NodeOptions, PaymentResult, SendStart } from "./node-types";
import { Payments } from "./payments";
import { Peers } from "./peers";
import type { PeerAddress, Pipe } from "./socket";
import { Connections } from "./connections";
import { RoutingStore } from "./routing-store";
import { Sweeps } from "./sweeps";

export type {
  ChannelInfo,
  NodeEvent,
  NodeOptions,
  NodeRole,
  PaymentResult,
  SendStart,
} from "./node-types";
export type { PaymentFailure } from "./policy";
export type { PeerStatus } from "./supervisor";
export { INVOICE_EXPIRY_SECS } from "./payments";

const TIMER_TICK_MS = 60_000;
const LOOP_MS = 250;
/** The longest wait between two tries of the first chain sync. */
const FIRST_SYNC_MAX_WAIT_MS = 15_000;
export class LightningNode {
  private readonly core: NodeCore;
  private readonly peerParts: Peers;
  private readonly channelParts: Channels;
  private readonly payments: Payments;
  private readonly interception: Interception;
  private readonly sweeps: Sweeps;
  private readonly connections: Connections;
  private readonly routingStore: RoutingStore;
  readonly nodeId: string;
  /** LSPS0 messages with LSPs (JSON-RPC in custom messages); an LSP's node sets its `serve`. */
  readonly lsps0: Lsps0;

  private constructor(opts: NodeOptions) {
    this.core = new NodeCore(opts, () => void this.stop());
    const core = this.core;
    this.nodeId = core.nodeId;
    this.peerParts = new Peers(core);
    this.channelParts = new Channels(core);
    this.payments = new Payments(core);
    this.interception = new Interception(core, this.channelParts);
    this.sweeps = new Sweeps(core);
    this.connections = new Connections(core, this.peerParts);
    this.routingStore = new RoutingStore(core);
    this.payments.offlineSince = (pubkey) => this.connections.offlineSince(pubkey);
    core.handler = eventHandler(core, {
      payments: this.payments,
      interception: this.interception,
      sweeps: this.sweeps,
      peers: this.peerParts,
      scorerLearnt: () => this.routingStore.saveScorerSoon(),
    });
    core.channelsNow = () =>
      JSON.stringify(this.channels(), (_k, v) => (typeof v === "bigint" ? v.toString() : v));
    this.lsps0 = new Lsps0({ wake: () => core.schedule(), log: opts.log, advertise: opts.role === "router" });
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

  private async build(): Promise<void> {
    const core = this.core;
    await buildNode(core, this.lsps0, core.commit.broadcaster(core.opts.chain));
    await this.peerParts.load();
    core.timers.push(setInterval(() => core.schedule(), LOOP_MS));
    core.timers.push(
      setInterval(() => core.guard("timer tick", () => core.manager.timer_tick_occurred()), TIMER_TICK_MS),
    );
    // The peers are dialled now, while the chain syncs: the channels are back by the time it is done.
    this.connections.start();
    core.opts.onRestored?.();
    await this.firstSync();
    this.routingStore.readOnceChannelsAreBack();
  }

  /**
   * Resolves once the node routes over its stored graph and scorer, read now if they were not yet: a payment,
   * and a gossip sync (which must add to the stored graph, not to the empty one before it), wait for this.
   */
  routesReady = (): Promise<void> => this.routingStore.ready();

  /** Resolves once the stored graph is read, by whatever asked for it first (it never asks for it itself). */
  get routesRead(): Promise<void> {
    return this.routingStore.read;
  }

  /** The device woke (back online, the page shown again): every peer not connected is dialled at once. */
  wake = (): void => this.connections.wake();

  /** Each peer the node keeps connected: connecting, connected, or unreachable since when. */
  peerStatus = (): ReturnType<Connections["status"]> => this.connections.status();

  /**
   * The first look at the chain, retried with back-off until it succeeds or the node stops: a server that
   * answers garbage or nothing delays the node, and it comes up on its own once the server recovers.
   */
  private async firstSync(): Promise<void> {
    for (let attempt = 0; !this.core.stopped; attempt++) {
      try {
        await this.sync();
        return;
      } catch (e) {
        this.core.log("warn", `first chain sync: ${String(e)}`);
        await new Promise((r) => setTimeout(r, Math.min(FIRST_SYNC_MAX_WAIT_MS, 500 * 2 ** attempt)));
      }
    }
  }

  /** Runs the background work soon: peer messages, events, and persisting the manager. */
  schedule(): void {
    this.core.schedule();
  }

  /** Brings the node up to the chain tip, then sweeps what became spendable. */
  async sync(): Promise<void> {
    const core = this.core;
    const confirmables = core.call(() => [core.manager.as_Confirm(), core.chainMonitor.as_Confirm()]);
    try {
      await core.opts.chain.sync(confirmables);
    } catch (e) {
      if (isPanic(e)) core.fatal(e);
      throw e;
    }
    // Channels resolved long ago leave memory (see the output commit's archive).
    core.guard("archive", () => core.chainMonitor.archive_fully_resolved_channel_monitors());
    core.schedule();
    await this.sweep().catch((e) => core.log("warn", `sweep: ${String(e)}`));
  }

  // ---- sweeps ------------------------------------------------------------------------------------

  /** Spends every saved spendable output to our on-chain wallet; kept until a spend is accepted. */
  sweep(): Promise<void> {
    return this.sweeps.sweep();
  }

  /** Sweeps what the seed alone can find on the chain (a restore from the 12 words); answers how many. */
  recoverStaticOutputs(): Promise<number> {
    return this.sweeps.recoverStaticOutputs();
  }

  // ---- peers -------------------------------------------------------------------------------------

  /** Takes a connection a peer opened to us (the local world's listeners). */
  acceptInbound = (pipe: Pipe): void => this.peerParts.acceptInbound(pipe);

  isConnected = (pubkey: string): boolean => this.peerParts.isConnected(pubkey);

  /** Connects to `pubkey@host:port` and remembers it, so it is kept connected while we have channels with it. */
  connectPeer(peer: PeerAddress): Promise<void> {
    return this.core.call(() => this.peerParts.connectPeer(peer));
  }

  disconnectPeer = (pubkey: string): void => this.peerParts.disconnectPeer(pubkey);

  deletePeer = (pubkey: string): Promise<void> => this.peerParts.deletePeer(pubkey);

  peers(): { pubkey: string; address: PeerAddress | null; connected: boolean }[] {
    return this.core.broken === null ? this.peerParts.list() : [];
  }

  /** Keeps `pubkey` connected (reconnecting when it drops) until `untilMs`, e.g. while an LSP's invoice is open. */
  keepConnected = (pubkey: string, untilMs: number): void => this.peerParts.keepConnected(pubkey, untilMs);

  // ---- channels ----------------------------------------------------------------------------------

  channels(): ChannelInfo[] {
    return this.core.broken === null ? this.channelParts.list() : [];
  }

  /** Ours across every channel: what we can send plus the reserves that come back on close. */
  balanceSats(): bigint {
    return this.core.broken === null ? this.channelParts.balanceSats() : 0n;
  }

  /**
   * Opens a channel of `sats` to a connected peer; the funding comes from `fundChannel`. `announce` makes it
   * public (a routing node's), with `policy` for what we charge to forward into it.
   */
  openChannel(
    peer: string,
    sats: bigint,
    pushMsat = 0n,
    announce = false,
    policy?: ForwardingPolicy,
  ): string {
    return this.core.call(() => this.channelParts.open(peer, sats, pushMsat, announce, policy));
  }

  /** Changes what we charge to forward into a channel (a new channel_update goes out for a public one). */
  setForwardingPolicy(channelId: string, policy: ForwardingPolicy): void {
    this.core.call(() => this.channelParts.setPolicy(channelId, policy));
  }

  // ---- the network graph -------------------------------------------------------------------------

  /** Tells the network who we are (a routing node with public channels): alias and IPv4 address. */
  announceNode(alias: string, host: string, port: number): void {
    this.core.call(() => {
      const name = new Uint8Array(32);
      name.set(new TextEncoder().encode(alias).slice(0, 32));
      const ip = Uint8Array.from(host.split(".").map(Number));
      this.core.peerManager.broadcast_node_announcement(new Uint8Array([0xf7, 0x93, 0x1a]), name, [
        ldk.SocketAddress.constructor_tcp_ip_v4(ip, port),
      ]);
    });
    this.core.schedule();
  }

  /** The public channels the node's graph holds (from gossip or rapid gossip sync; a wallet's once read). */
  graphChannels(): ChannelGossip[] {
    return this.core.call(() => this.core.routing.channels());
  }

  /** The rapid gossip sync timestamp to ask the next snapshot from (0: never synced). */
  async lastGossipSync(): Promise<number> {
    await this.routesReady();
    return this.core.call(() => this.core.routing.lastSync());
  }

  /**
   * Applies a rapid gossip sync snapshot to the graph part by part (routing.ts), then stores graph and
   * scorer (so a restart asks only for a delta); answers the timestamp to ask from next. Throws
   * `GossipError` for a snapshot LDK refuses (the sync timestamp stays as it was).
   */
  async applyGossipSnapshot(bytes: Uint8Array): Promise<number> {
    await this.routesReady();
    const next = await this.core.routing.applyInSteps(bytes, (f) => this.core.call(f));
    await this.routingStore.save();
    return next;
  }

  /** Closes cooperatively, or broadcasts our latest commitment when `force` (for an offline peer). */
  closeChannel(channelId: string, force = false): Promise<void> {
    return this.core.call(() => this.channelParts.close(channelId, force));
  }

  /** Forgets a channel without broadcasting anything (a funding that never confirmed). */
  abandonChannel(channelId: string): void {
    this.core.call(() => this.channelParts.abandon(channelId));
  }

  // ---- payments ----------------------------------------------------------------------------------

  /** An invoice; `description` is its text, or the sha256 of a longer one (LNURL-pay's metadata). */
  createInvoice(
    amountMsat: bigint | null,
    description: string | { readonly hash: Uint8Array },
    expirySecs?: number,
    paymentHash?: Uint8Array,
  ): { bolt11: string; paymentHash: string } {
    return this.core.call(() =>
      this.payments.createInvoice(amountMsat, description, expirySecs, paymentHash),
    );
  }

  /** An invoice payable only through `hint`: an LSP's intercept SCID that opens a channel to us as it is paid. */
  createInvoiceWithHint(...invoice: Parameters<Payments["createInvoiceWithHint"]>): {
    bolt11: string;
    paymentHash: string;
  } {
    return this.core.call(() => this.payments.createInvoiceWithHint(...invoice));
  }

  /** Pays a bolt11 invoice (with `amountMsat` when the invoice has none); answers its final state. */
  async payInvoice(bolt11: string, maxFeeMsat: bigint, amountMsat?: bigint): Promise<PaymentResult> {
    await this.routesReady();
    const s = this.sendInvoice(bolt11, maxFeeMsat, amountMsat);
    return s.started ? s.done : s.result;
  }

  /** Why a payment of `amountMsat` cannot leave now (`Payments.refusal`), or null when it can. */
  refusal = (amountMsat: bigint) => this.core.call(() => this.payments.refusal(amountMsat));

  /** While a payment waits only for its channel's peer (at most `timeoutMs`): dials at once, then every second. */
  whenConnected(amountMsat: bigint, timeoutMs: number): Promise<void> {
    this.wake();
    return this.payments.whenConnected(amountMsat, timeoutMs, this.connections.redial);
  }

  /** Starts paying a bolt11 invoice; see `Payments.sendInvoice`. */
  sendInvoice(bolt11: string, maxFeeMsat: bigint, amountMsat?: bigint): SendStart {
    return this.core.call(() => this.payments.sendInvoice(bolt11, maxFeeMsat, amountMsat));
  }

  /** Pays `amountMsat` to a node public key with no invoice (keysend); answers its final state. */
  async keysend(pubkey: string, amountMsat: bigint, maxFeeMsat: bigint): Promise<PaymentResult> {
    await this.routesReady();
    const s = this.sendKeysend(pubkey, amountMsat, maxFeeMsat);
    return s.started ? s.done : s.result;
  }

  /** Starts a keysend payment; see `sendInvoice`. */
  sendKeysend(pubkey: string, amountMsat: bigint, maxFeeMsat: bigint): SendStart {
    return this.core.call(() => this.payments.sendKeysend(pubkey, amountMsat, maxFeeMsat));
  }

  /** Claims a held payment with its preimage (hex), learnt elsewhere. */
  claim(preimage: string): void {
    this.core.call(() => this.payments.claim(preimage));
  }

  /** Fails a held payment back to its payer. */
  failBack(paymentHash: string): void {
    this.core.call(() => this.payments.failBack(paymentHash));
  }

  /** The preimage of an invoice this node made (a service sealing a LUD-10 secret with it). */
  preimageOf(bolt11: string): Uint8Array | null {
    return this.payments.preimageOf(bolt11);
  }

  // ---- the LSP side of just-in-time channels (local world) ---------------------------------------

  interceptScid(): bigint {
    return this.interception.interceptScid();
  }

  forwardIntercepted(interceptId: string, channelId: string, peer: string, amountMsat: bigint): void {
    this.core.call(() => this.interception.forwardIntercepted(interceptId, channelId, peer, amountMsat));
  }

  failIntercepted(interceptId: string): void {
    this.core.call(() => this.interception.failIntercepted(interceptId));
  }

  // ---- stopping ----------------------------------------------------------------------------------

  /**
   * Stops at once, writing nothing more: what closing the tab (or a crash) does. Writes under way may or
   * may not land; what was held back for one goes out only if it does.
   */
  halt(): void {
    this.connections.stop();
    this.core.stopTimers();
    this.peerParts.closeAll();
  }

  /**
   * Stops the loop and every connection, waits for pending writes, then writes the manager once more with
   * any monitor updates still waiting (the same single write as every tick).
   */
  async stop(): Promise<void> {
    if (this.core.stopped) return;
    // What the scorer learnt moments ago is kept too.
    const scorer = this.routingStore.takeScorerSave();
    this.halt();
    this.payments.stopWaiting();
    await this.core.commit.settled();
    if (scorer)
      await this.core.opts.store.put([scorer]).catch((e) => this.core.log("warn", `scorer: ${String(e)}`));
    await this.core.persistState(true).catch((e) => this.core.log("error", `final write: ${String(e)}`));
  }
}

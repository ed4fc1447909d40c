/**
 * What the node routes with: LDK's network graph and probabilistic scorer. A wallet fills the graph from
 * rapid gossip sync snapshots (the `rgs` setting) and keeps graph and scorer in its store (sealed like
 * every engine blob), so a reload starts from them and asks only for a delta; a routing node of the local
 * world fills it from its peers' gossip (`P2PGossipSync`). The scorer learns from every payment path that
 * failed or succeeded, as LDK's background processor would teach it.
 */
import * as ldk from "lightningdevkit";
import type { Log } from "./chain";
import { applyRgs, applyRgsParts, type ChannelGossip, graphChannels } from "./gossip";
import type { BlobStore } from "./store";
import { LN_PREFIX } from "./store";

/** Gossip is a cache of the network, not channel state: kept under its own keys. */
export const GRAPH_KEY = `${LN_PREFIX}gossip/graph`;
export const SCORER_KEY = `${LN_PREFIX}gossip/scorer`;

/** A scorer as LDK writes it, or null when these bytes are not one (LDK's reader says so, or throws). */
export const readScorer = (
  bytes: Uint8Array,
  decay: ldk.ProbabilisticScoringDecayParameters,
  graph: ldk.NetworkGraph,
  logger: ldk.Logger,
): ldk.ProbabilisticScorer | null => {
  try {
    const read = ldk.ProbabilisticScorer.constructor_read(bytes, decay, graph, logger);
    return read instanceof ldk.Result_ProbabilisticScorerDecodeErrorZ_OK ? read.res : null;
  } catch {
    return null;
  }
};

/** LDK's router and onion-message router over one graph and scorer. */
export interface Routers {
  readonly router: ldk.Router;
  readonly messages: ldk.MessageRouter;
}

export class Routing {
  private routers: Routers | null = null;

  private constructor(
    readonly graph: ldk.NetworkGraph,
    readonly scorer: ldk.ProbabilisticScorer,
    private readonly logger: ldk.Logger,
    private readonly log: Log,
    private readonly now: () => number,
    /** Read from the store (or new because nothing was stored), not a stand-in until it is read. */
    readonly read = true,
  ) {}

  /**
   * An empty graph and a new scorer, for the moments before the stored ones are read: a wallet's node starts
   * on these, so a mainnet-sized graph is read once its channels are back, not before.
   */
  static empty(network: ldk.Network, logger: ldk.Logger, log: Log, now: () => number): Routing {
    const graph = ldk.NetworkGraph.constructor_new(network, logger);
    const decay = ldk.ProbabilisticScoringDecayParameters.constructor_default();
    const scorer = ldk.ProbabilisticScorer.constructor_new(decay, graph, logger);
    return new Routing(graph, scorer, logger, log, now, false);
  }

  /** The graph and scorer from the store, or new ones (a store that cannot be read starts afresh). */
  static async load(
    store: BlobStore,
    network: ldk.Network,
    logger: ldk.Logger,
    log: Log,
    now: () => number,
    opts: { readonly remoteScorer?: Uint8Array | null } = {},
  ): Promise<Routing> {
    let graph: ldk.NetworkGraph | null = null;
    const savedGraph = await store.get(GRAPH_KEY).catch(() => undefined);
    if (savedGraph) {
      const read = ldk.NetworkGraph.constructor_read(savedGraph, logger);
      if (read instanceof ldk.Result_NetworkGraphDecodeErrorZ_OK) graph = read.res;
      else log("warn", "The stored network graph could not be read; it is synced afresh");
    }
    graph ??= ldk.NetworkGraph.constructor_new(network, logger);
    const decay = ldk.ProbabilisticScoringDecayParameters.constructor_default();
    let scorer: ldk.ProbabilisticScorer | null = null;
    // A trained scorer from the `scorer` server first; the wallet's own when LDK cannot read it.
    if (opts.remoteScorer) {
      const read = readScorer(opts.remoteScorer, decay, graph, logger);
      if (read) scorer = read;
      else log("warn", "The scorer server's answer is not a scorer LDK can read; the wallet's own is used");
    }
    const savedScorer = await store.get(SCORER_KEY).catch(() => undefined);
    if (!scorer && savedScorer && savedGraph) scorer = readScorer(savedScorer, decay, graph, logger);
    scorer ??= ldk.ProbabilisticScorer.constructor_new(decay, graph, logger);
    return new Routing(graph, scorer, logger, log, now);
  }

  /** LDK's routers over this graph and scorer (made once). */
  routersFor(entropy: ldk.EntropySource): Routers {
    if (!this.routers) {
      const score = ldk.MultiThreadedLockableScore.constructor_new(this.scorer.as_Score());
      const router = ldk.DefaultRouter.constructor_new(
        this.graph,
        this.logger,
        entropy,
        score.as_LockableScore(),
        ldk.ProbabilisticScoringFeeParameters.constructor_default(),
      );
      const messages = ldk.DefaultMessageRouter.constructor_new(this.graph, entropy);
      this.routers = { router: router.as_Router(), messages: messages.as_MessageRouter() };
    }
    return this.routers;
  }

  /** The RGS timestamp to ask the next snapshot from: 0 before the first sync. */
  lastSync(): number {
    const t = this.graph.get_last_rapid_gossip_sync_timestamp();
    return t instanceof ldk.Option_u32Z_Some ? t.some >>> 0 : 0;
  }

  /** Applies a rapid gossip sync snapshot; answers the timestamp to ask from next. */
  applySnapshot(bytes: Uint8Array): number {
    return applyRgs(this.graph, this.logger, bytes, Math.floor(this.now() / 1000));
  }

  /**
   * Applies a snapshot sent in parts (or a plain one, as one part), each part in `step` with a turn of the
   * event loop between them, so the node answers commands while a first sync is applied.
   */
  applyInSteps(body: Uint8Array, step: <T>(f: () => T) => T): Promise<number> {
    return applyRgsParts(this.graph, this.logger, body, Math.floor(this.now() / 1000), step);
  }

  channels(): ChannelGossip[] {
    return graphChannels(this.graph);
  }

  /** How many channels the graph holds, without reading each one out of LDK (`channels` does). */
  channelCount(): number {
    const view = this.graph.read_only();
    try {
      return view.list_channels().length;
    } finally {
      view.free();
    }
  }

  /** Graph and scorer as they are now, for the store. */
  blobs(): { key: string; value: Uint8Array }[] {
    return [
      { key: GRAPH_KEY, value: this.graph.write() },
      { key: SCORER_KEY, value: this.scorer.write() },
    ];
  }

  /** What the scorer learnt, for the store (the graph changes only with gossip). */
  scorerBlob(): { key: string; value: Uint8Array } {
    return { key: SCORER_KEY, value: this.scorer.write() };
  }

  private since(): bigint {
    return BigInt(Math.floor(this.now() / 1000));
  }

  /** A path of one of our payments failed at `scid` (if known): the scorer remembers, the graph learns. */
  pathFailed(event: ldk.Event_PaymentPathFailed): void {
    const failure = event.failure;
    if (
      failure instanceof ldk.PathFailure_OnPath &&
      failure.network_update instanceof ldk.Option_NetworkUpdateZ_Some
    )
      this.graph.handle_network_update(failure.network_update.some);
    const scid = event.short_channel_id;
    const update = this.scorer.as_ScoreUpdate();
    if (scid instanceof ldk.Option_u64Z_Some) update.payment_path_failed(event.path, scid.some, this.since());
    else if (event.payment_failed_permanently) this.log("debug", "a payment path failed at its end");
  }

  pathSucceeded(path: ldk.Path): void {
    this.scorer.as_ScoreUpdate().payment_path_successful(path, this.since());
  }
}

/**
 * A router and an onion-message router that ask the routers of whichever graph `current` holds at the moment
 * of each question: the channel manager is built once, and the graph it routes over can be read afterwards.
 */
export const switchingRouters = (current: () => Routers): Routers => ({
  router: ldk.Router.new_impl({
    find_route: (payer, params, firstHops, inflight) =>
      current().router.find_route(payer, params, firstHops, inflight),
    find_route_with_id: (payer, params, firstHops, inflight, hash, id) =>
      current().router.find_route_with_id(payer, params, firstHops, inflight, hash, id),
    create_blinded_payment_paths: (recipient, firstHops, tlvs, amountMsat) =>
      current().router.create_blinded_payment_paths(recipient, firstHops, tlvs, amountMsat),
  }),
  messages: ldk.MessageRouter.new_impl({
    find_path: (sender, peers, destination) => current().messages.find_path(sender, peers, destination),
    create_blinded_paths: (recipient, context, peers) =>
      current().messages.create_blinded_paths(recipient, context, peers),
    create_compact_blinded_paths: (recipient, context, peers) =>
      current().messages.create_compact_blinded_paths(recipient, context, peers),
  }),
});

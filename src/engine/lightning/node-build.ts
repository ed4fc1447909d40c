/**
 * Building the node's LDK objects: the chain monitor with the output commit's persister, the channel
 * manager read back with every monitor from the store (or a new one at the chain tip), and the peer
 * manager. What a wallet's channels accept (the user config) is decided here too.
 */
import * as ldk from "lightningdevkit";
import { breachWatch } from "./breach";
import { WALLET_TO_SELF_DELAY } from "./delay";
import { justiceWatch } from "./justice";
import { internalBytes } from "./chain";
import type { Lsps0 } from "./lsps0";
import type { NodeCore } from "./node-core";
import { random32 } from "./node-core";
import type { NodeRole } from "./node-types";
import { NodeError } from "./policy";
import { Routing, switchingRouters } from "./routing";
import { MANAGER_KEY, MONITOR_PREFIX } from "./store";

const NETWORKS = {
  bitcoin: ldk.Network.LDKNetwork_Bitcoin,
  testnet: ldk.Network.LDKNetwork_Testnet,
  signet: ldk.Network.LDKNetwork_Signet,
  regtest: ldk.Network.LDKNetwork_Regtest,
} as const;

/**
 * How this node's channels behave: private, no anchors, and as a wallet or as the world's router. LDK 0.1
 * has no per-channel delay: a wallet's `toSelfDelay` holds for the channels opened while the node runs
 * with it (those opened before keep theirs).
 */
export const userConfig = (role: NodeRole, toSelfDelay: number = WALLET_TO_SELF_DELAY): ldk.UserConfig => {
  const config = ldk.UserConfig.constructor_default();
  const handshake = ldk.ChannelHandshakeConfig.constructor_default();
  handshake.set_announce_for_forwarding(false);
  handshake.set_max_inbound_htlc_value_in_flight_percent_of_channel(100);
  handshake.set_negotiate_anchors_zero_fee_htlc_tx(false);
  // A wallet is closed most of the time: a partner publishing an old state must wait two weeks before it
  // can spend, time for the wallet (or its watchtower) to see it and take the channel. A shorter delay is
  // asked only of the LSP the owner accepted it for (`delay-consent.ts`).
  if (role === "wallet") handshake.set_our_to_self_delay(toSelfDelay);
  config.set_channel_handshake_config(handshake);
  const limits = ldk.ChannelHandshakeLimits.constructor_default();
  limits.set_force_announced_channel_preference(false);
  // The most a partner may ask this node to wait: the wallets' two weeks are accepted.
  limits.set_their_to_self_delay(WALLET_TO_SELF_DELAY);
  config.set_channel_handshake_limits(limits);
  config.set_manually_accept_inbound_channels(true);
  if (role === "router") {
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
};

/**
 * What the persister looks at in each monitor it keeps: a partner's revoked state seen on chain (told to the
 * wallet), and, with a watchtower, the justice transactions of the commitments the partner just revoked.
 */
const monitorWatch = (core: NodeCore) => {
  const breach = breachWatch(
    (e) => core.emit(e),
    (l, m) => core.log(l, m),
  );
  const onJustice = core.opts.onJustice;
  const justice = onJustice
    ? justiceWatch({
        destination: () => {
          const r = core.keys.as_SignerProvider().get_destination_script(new Uint8Array(32));
          return r instanceof ldk.Result_CVec_u8ZNoneZ_OK ? r.res : null;
        },
        feerate: () =>
          core.opts.chain.feeFor(ldk.ConfirmationTarget.LDKConfirmationTarget_UrgentOnChainSweep),
        log: (l, m) => core.log(l, m),
        onJustice,
      })
    : null;
  return (monitor: ldk.ChannelMonitor, update: ldk.ChannelMonitorUpdate | null) => {
    breach(monitor);
    justice?.(monitor, update);
  };
};

/** The stored graph and scorer (a trained scorer from the `scorer` server first), as the node routes with them. */
export const readRouting = async (core: NodeCore): Promise<Routing> =>
  Routing.load(core.opts.store, NETWORKS[core.opts.network], core.logger, core.opts.log, () => core.now(), {
    remoteScorer: await (core.opts.scorer ?? Promise.resolve(null)),
  });

/** Builds the LDK objects of `core` from its store: restores the manager and every monitor, or makes a new node. */
export const buildNode = async (
  core: NodeCore,
  lsps0: Lsps0,
  broadcaster: ldk.BroadcasterInterface,
): Promise<void> => {
  const { opts } = core;
  const chain = opts.chain;
  core.chainMonitor = ldk.ChainMonitor.constructor_new(
    ldk.Option_FilterZ.constructor_some(chain.filter),
    broadcaster,
    core.logger,
    chain.feeEstimator,
    core.commit.persister(monitorWatch(core)),
  );
  const network = NETWORKS[opts.network];
  const entropy = core.keys.as_EntropySource();
  // A wallet starts on an empty graph and reads its stored one once its channels are back
  // (`LightningNode.routesReady`): a mainnet-sized graph takes a while to read, and the owner's channel
  // comes first. A routing node takes its peers' gossip into its graph from the start.
  core.routing = opts.p2pGossip
    ? await readRouting(core)
    : Routing.empty(network, core.logger, opts.log, () => core.now());
  const routers = switchingRouters(() => core.routing.routersFor(entropy));

  const monitors: ldk.ChannelMonitor[] = [];
  for (const key of await opts.store.keys(MONITOR_PREFIX)) {
    const bytes = await opts.store.get(key);
    if (!bytes) continue;
    const read = ldk.UtilMethods.constructor_C2Tuple_ThirtyTwoBytesChannelMonitorZ_read(
      bytes,
      entropy,
      core.keys.as_SignerProvider(),
    );
    if (!(read instanceof ldk.Result_C2Tuple_ThirtyTwoBytesChannelMonitorZDecodeErrorZ_OK))
      throw new NodeError(`The saved channel ${key} could not be read`);
    monitors.push(read.res.get_b());
  }
  const saved = await opts.store.get(MANAGER_KEY);
  const watch = core.chainMonitor.as_Watch();
  // What the manager runs on, read from the store or new: fees, chain watch, broadcast, routing, logging.
  const services = [
    chain.feeEstimator,
    watch,
    broadcaster,
    routers.router,
    routers.messages,
    core.logger,
  ] as const;
  if (saved) {
    const read = ldk.UtilMethods.constructor_C2Tuple_ThirtyTwoBytesChannelManagerZ_read(
      saved,
      entropy,
      core.keys.as_NodeSigner(),
      core.keys.as_SignerProvider(),
      ...services,
      userConfig(opts.role, opts.toSelfDelay),
      monitors,
    );
    if (!(read instanceof ldk.Result_C2Tuple_ThirtyTwoBytesChannelManagerZDecodeErrorZ_OK))
      throw new NodeError(
        `The saved lightning node could not be read (${(read as ldk.Result_C2Tuple_ThirtyTwoBytesChannelManagerZDecodeErrorZ_Err).err?.constructor.name})`,
      );
    core.manager = read.res.get_b();
    opts.onLastSeen?.(core.manager.current_best_block().get_height());
  } else {
    if (monitors.length > 0) throw new NodeError("Channels were found without their node state");
    const tip = await chain.client.tipHash();
    const height = await chain.client.tipHeight();
    const params = ldk.ChainParameters.constructor_new(
      network,
      ldk.BestBlock.constructor_new(internalBytes(tip), height),
    );
    core.manager = ldk.ChannelManager.constructor_new(
      ...services,
      entropy,
      core.keys.as_NodeSigner(),
      core.keys.as_SignerProvider(),
      userConfig(opts.role, opts.toSelfDelay),
      params,
      Math.floor((opts.now ?? Date.now)() / 1000),
    );
    await core.commit.enqueue([{ key: MANAGER_KEY, value: core.manager.write() }]);
  }
  for (const monitor of monitors) {
    const outpoint = monitor.get_funding_txo().get_a();
    const r = watch.watch_channel(outpoint, monitor);
    if (!r.is_ok()) throw new NodeError("A saved channel could not be watched");
  }

  const ignorer = ldk.IgnoringMessageHandler.constructor_new();
  const gossip = opts.p2pGossip
    ? ldk.P2PGossipSync.constructor_new(
        core.routing.graph,
        ldk.Option_UtxoLookupZ.constructor_none(),
        core.logger,
      ).as_RoutingMessageHandler()
    : ignorer.as_RoutingMessageHandler();
  core.peerManager = ldk.PeerManager.constructor_new(
    core.manager.as_ChannelMessageHandler(),
    gossip,
    ignorer.as_OnionMessageHandler(),
    lsps0.handler(),
    Math.floor((opts.now ?? Date.now)() / 1000),
    random32(),
    core.logger,
    core.keys.as_NodeSigner(),
  );
};

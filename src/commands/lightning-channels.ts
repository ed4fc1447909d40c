/**
 * Lightning peers and channels: the node's peers listed, connected and removed, channels opened from the
 * on-chain coins (a sweep when all of them go in), their funding fee estimated, and closed.
 */
import { Effect } from "effect";
import { channelDetails } from "../projections/activity";
import { balanceOf } from "../projections/balance";
import type { SpendTarget } from "../engine/onchain/port";
import type { LightningPort } from "../engine/lightning/live";
import { parsePeerAddress, type PeerAddress } from "../engine/lightning/socket";
import { MIN_ONCHAIN_SATS } from "../engine/onchain/validate";
import type { CommandSpecs } from "./command";
import { type Handler, type HandlerContext, type Needs, outcome } from "./context";
import { InsufficientFunds, InvalidInput, ServerUnavailable, type WalletError } from "../errors";
import { MIN_CHANNEL_SATS } from "../money";
import { call, nodeOf, notRunning } from "./lightning";

export { MIN_CHANNEL_SATS };

/** A funding output's script (P2WSH) is 34 bytes: what a fee estimate of an open assumes. */
const FUNDING_SCRIPT = new Uint8Array(34);

const channelTooSmall = () =>
  new InvalidInput({
    message: "The channel must be at least 100,000 sats.",
    key: "swap.channel_too_small",
    values: { amount: "100,000" },
  });

const peerNotFound = () => new InvalidInput({ message: "Peer not found", key: "swap.peer_not_found" });

/** The peer to open to: the one given, or the configured LSP. */
const peerFor = (ln: LightningPort, peer: string | undefined): Effect.Effect<PeerAddress, WalletError> => {
  if (peer && peer.trim() !== "") {
    const parsed = parsePeerAddress(peer);
    return parsed ? Effect.succeed(parsed) : Effect.fail(peerNotFound());
  }
  return call(() => ln.lsp()).pipe(
    Effect.mapError(() => new ServerUnavailable({ message: "Failed to make a request to the LSP." })),
    Effect.flatMap((info) => (info ? Effect.succeed(info.address) : Effect.fail(peerNotFound()))),
  );
};

const connected = (ln: LightningPort, peer: PeerAddress) =>
  call(() => ln.connect(peer)).pipe(Effect.mapError(() => peerNotFound()));

/** The on-chain balance a channel may be opened from: confirmed and unconfirmed, as home shows it. */
const onchainFunds = (ctx: HandlerContext): bigint => {
  const b = balanceOf(ctx.states.onchain);
  return b.confirmed + b.unconfirmed;
};

/** A channel open's funding: a sweep when the amount is the whole on-chain balance (or none is given). */
const fundingTarget = (ctx: HandlerContext, amountSats: bigint | null): SpendTarget =>
  amountSats === null || amountSats === onchainFunds(ctx)
    ? { kind: "sweep", script: FUNDING_SCRIPT }
    : { kind: "pay", script: FUNDING_SCRIPT, amountSats };

export const getChannelEvent: Handler<"GetChannelEvent"> = (cmd, ctx) =>
  Effect.succeed(outcome(channelDetails(ctx.states.lightning, ctx.states.onchain, cmd.id)));

export const listPeers: Handler<"ListPeers"> = (_cmd, ctx) =>
  Effect.map(nodeOf(ctx), (ln) =>
    outcome(
      ln.node.peers().map((p) => ({
        pubkey: p.pubkey,
        address: p.address ? `${p.address.pubkey}@${p.address.host}:${p.address.port}` : null,
        connected: p.connected,
      })),
    ),
  );

export const connectPeer: Handler<"ConnectPeer"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (cmd.address.trim() === "") {
      return yield* Effect.fail(
        new InvalidInput({ message: "Enter a peer to connect to.", key: "admin.peer_required" }),
      );
    }
    const ln = yield* nodeOf(ctx);
    const peer = parsePeerAddress(cmd.address);
    if (!peer) return yield* Effect.fail(new InvalidInput({ message: "Enter a peer as pubkey@host:port." }));
    yield* connected(ln, peer);
    return outcome(null);
  });

export const disconnectPeer: Handler<"DisconnectPeer"> = (cmd, ctx) =>
  Effect.flatMap(nodeOf(ctx), (ln) =>
    call(() => ln.node.disconnectPeer(cmd.pubkey)).pipe(Effect.as(outcome(null))),
  );

export const deletePeer: Handler<"DeletePeer"> = (cmd, ctx) =>
  Effect.flatMap(nodeOf(ctx), (ln) =>
    call(() => ln.node.deletePeer(cmd.pubkey)).pipe(Effect.as(outcome(null))),
  );

const checkChannelAmount = (ctx: HandlerContext, amountSats: bigint): WalletError | null => {
  if (amountSats < MIN_CHANNEL_SATS) return channelTooSmall();
  if (amountSats > onchainFunds(ctx))
    return new InsufficientFunds({ message: "Insufficient funds", key: "swap.insufficient_funds" });
  return null;
};

/** Opens a channel of what `target` funds, after the coins are checked to cover it and its fee. */
const openFunded = (ctx: HandlerContext, peerText: string | undefined, target: SpendTarget) =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    const onchain = ctx.onchain;
    if (!onchain) return yield* Effect.fail(notRunning());
    // The coins must cover the channel and its funding fee before the peer is asked.
    const plan = yield* onchain.plan(ctx.states.onchain, target);
    if (plan.amountSats < MIN_CHANNEL_SATS) return yield* Effect.fail(channelTooSmall());
    const peer = yield* peerFor(ln, peerText);
    yield* connected(ln, peer);
    const channelId = yield* call(() => ln.node.openChannel(peer.pubkey, plan.amountSats));
    return outcome({ channelId, amountSats: plan.amountSats });
  });

export const openChannel: Handler<"OpenChannel"> = (cmd, ctx) => {
  const problem = checkChannelAmount(ctx, cmd.amountSats);
  return problem ? Effect.fail(problem) : openFunded(ctx, cmd.peer, fundingTarget(ctx, cmd.amountSats));
};

export const sweepAllToChannel: Handler<"SweepAllToChannel"> = (cmd, ctx) =>
  openFunded(ctx, cmd.peer, fundingTarget(ctx, null));

export const estimateChannelOpenFee: Handler<"EstimateChannelOpenFee"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const onchain = ctx.onchain;
    if (!onchain) return yield* Effect.fail(notRunning());
    if (cmd.amountSats !== null && cmd.amountSats < MIN_ONCHAIN_SATS) {
      return yield* Effect.fail(
        new InvalidInput({ message: "Amount too small", key: "swap.channel_too_small" }),
      );
    }
    const target = fundingTarget(ctx, cmd.amountSats);
    const plan = yield* onchain.plan(ctx.states.onchain, target);
    return outcome({ feeSats: plan.feeSats, amountSats: plan.amountSats, sweep: target.kind === "sweep" });
  });

export const closeChannel: Handler<"CloseChannel"> = (cmd, ctx) =>
  Effect.flatMap(nodeOf(ctx), (ln) =>
    call(() =>
      cmd.abandon
        ? ln.node.abandonChannel(cmd.channelId)
        : ln.node.closeChannel(cmd.channelId, cmd.force === true),
    ).pipe(Effect.as(outcome(null))),
  );

export const channelHandlers = {
  GetChannelEvent: getChannelEvent,
  ListPeers: listPeers,
  ConnectPeer: connectPeer,
  DisconnectPeer: disconnectPeer,
  DeletePeer: deletePeer,
  OpenChannel: openChannel,
  SweepAllToChannel: sweepAllToChannel,
  EstimateChannelOpenFee: estimateChannelOpenFee,
  CloseChannel: closeChannel,
} satisfies { readonly [K in keyof CommandSpecs]?: Handler<K> };

/** The commands that use the node (an open's fee estimate needs only the on-chain wallet). */
export const channelNeeds: Needs = {
  ListPeers: "lightning",
  ConnectPeer: "lightning",
  DisconnectPeer: "lightning",
  DeletePeer: "lightning",
  OpenChannel: "lightning",
  SweepAllToChannel: "lightning",
  CloseChannel: "lightning",
};

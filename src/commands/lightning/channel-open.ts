/**
 * Peers and channel opens: connecting to a peer, and opening a channel to it (or to the configured LSP)
 * funded from the on-chain wallet. The LSP and the peer are asked with the command queue released.
 */
import { Effect } from "effect";
import type { LightningPort } from "../../engine/lightning/live";
import { parsePeerAddress, type PeerAddress } from "../../engine/lightning/socket";
import type { SpendTarget } from "../../engine/onchain/port";
import { MIN_ONCHAIN_SATS } from "../../engine/onchain/validate";
import { InsufficientFunds, InvalidInput, ServerUnavailable, type WalletError } from "../../errors";
import { openDelayRefusal } from "./lsp-delay";
import { MIN_CHANNEL_SATS } from "../../money";
import { balanceOf } from "../../projections/balance";
import { newEvent } from "../../events/make";
import type { CommandSpecs } from "../command";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import { call, nodeOf, notRunning, sameNode } from "./lightning";

/** How long an open waits for the peer and the funding transaction before the owner is told it failed. */
export const FUNDING_WAIT_MS = 90_000;

/** A funding output's script (P2WSH) is 34 bytes: what a fee estimate of an open assumes. */
const FUNDING_SCRIPT = new Uint8Array(34);

const channelTooSmall = () =>
  new InvalidInput({
    message: "A channel must be at least 100,000 sats.",
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
    Effect.mapError(
      () =>
        new ServerUnavailable({
          message: "Failed to make a request to the LSP.",
          key: "receive.error_lsp_failed",
        }),
    ),
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

export const connectPeer: Handler<"ConnectPeer"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (cmd.address.trim() === "") {
      return yield* Effect.fail(
        new InvalidInput({ message: "Enter a peer to connect to.", key: "admin.peer_required" }),
      );
    }
    const ln = yield* nodeOf(ctx);
    const peer = parsePeerAddress(cmd.address);
    if (!peer)
      return yield* Effect.fail(
        new InvalidInput({ message: "Enter a peer as pubkey@host:port.", key: "admin.error_peer_address" }),
      );
    // A peer that does not answer delays only this command.
    yield* ctx.outside(connected(ln, peer));
    return outcome(null);
  });

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
    const planned = yield* onchain.plan(ctx.states.onchain, target);
    if (planned.amountSats < MIN_CHANNEL_SATS) return yield* Effect.fail(channelTooSmall());
    // The LSP and the peer are asked with the command queue released: a silent one delays only this open.
    const peer = yield* ctx.outside(
      Effect.flatMap(peerFor(ln, peerText), (p) => Effect.as(connected(ln, p), p)),
    );
    yield* sameNode(ctx, ln);
    // Other commands ran meanwhile: the coins are counted again on the log as it is now.
    const plan = yield* onchain.plan(ctx.states.onchain, target);
    if (plan.amountSats < MIN_CHANNEL_SATS) return yield* Effect.fail(channelTooSmall());
    const temporaryId = yield* call(() => ln.node.openChannel(peer.pubkey, plan.amountSats));
    // Recorded before its funding can start (that waits for this command's turn in the queue to end), so a
    // reload before the funding transaction is out is told at the next start. The owner hears "opening"
    // only once it is out.
    const requested = newEvent("ln.open_requested", {
      request_id: globalThis.crypto.randomUUID(),
      peer: peer.pubkey,
      amount_sats: plan.amountSats.toString(),
    });
    const amountSats = plan.amountSats;
    const settle = async () => {
      try {
        return { channelId: await ln.whenFunded(temporaryId, FUNDING_WAIT_MS), amountSats };
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        const delay = openDelayRefusal(reason);
        if (delay) throw delay;
        throw new ServerUnavailable({
          message: `The channel could not be opened: ${reason}`,
          key: "swap.error_open_failed",
          values: { reason },
        });
      }
    };
    return outcome({ settle }, [requested]);
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
      return yield* Effect.fail(channelTooSmall());
    }
    const target = fundingTarget(ctx, cmd.amountSats);
    const plan = yield* onchain.plan(ctx.states.onchain, target);
    return outcome({ feeSats: plan.feeSats, amountSats: plan.amountSats, sweep: target.kind === "sweep" });
  });

export const channelOpenHandlers = {
  ConnectPeer: connectPeer,
  OpenChannel: openChannel,
  SweepAllToChannel: sweepAllToChannel,
  EstimateChannelOpenFee: estimateChannelOpenFee,
} satisfies { readonly [K in keyof CommandSpecs]?: Handler<K> };

export const channelOpenNeeds: Needs = {
  ConnectPeer: "lightning",
  OpenChannel: "lightning",
  SweepAllToChannel: "lightning",
};

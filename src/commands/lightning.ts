import { hex } from "@scure/base";
/**
 * Lightning commands: invoices, payments, peers and channels. Each validates its input, asks the node and
 * returns the events that record what happened; the node's later news (a payment arriving, a channel
 * becoming ready) is recorded by the engine itself.
 */
import { Effect } from "effect";
import { channelDetails, lightningDetails } from "../projections/activity";
import { balanceOf } from "../projections/balance";
import type { SpendTarget } from "../engine/onchain/port";
import { type NewEvent, newEvent } from "../events/make";
import type { LightningPort } from "../engine/lightning/live";
import { FAILURE_TEXT, feeLimitSats, NodeError } from "../engine/lightning/policy";
import type { PaymentResult, SendStart } from "../engine/lightning/node";
import { parsePeerAddress, type PeerAddress } from "../engine/lightning/socket";
import { decodeBolt11, networkAccepted } from "../engine/parse";
import { MAX_ONCHAIN_SATS, MIN_ONCHAIN_SATS } from "../engine/onchain/validate";
import type { CommandSpecs, PaymentOutcome } from "./command";
import {
  type Handler,
  type HandlerContext,
  type Needs,
  type Outcome,
  outcome,
  type StartedPayment,
} from "./context";
import {
  InsufficientFunds,
  InvalidInput,
  isWalletError,
  PaymentFailed,
  ServerUnavailable,
  unexpected,
  type WalletError,
  WalletState,
  WrongNetwork,
} from "../errors";
import { msatToSatsUp } from "../engine/amount";

import { MIN_CHANNEL_SATS } from "../money";

export { MIN_CHANNEL_SATS };
/** An invoice is valid for a day. */
export const INVOICE_EXPIRY_SECS = 86_400;
/** A funding output's script (P2WSH) is 34 bytes: what a fee estimate of an open assumes. */
const FUNDING_SCRIPT = new Uint8Array(34);

const notRunning = () =>
  new WalletState({ message: "The lightning node is not running yet.", key: "error_lightning_not_ready" });

export const nodeOf = (ctx: HandlerContext): Effect.Effect<LightningPort, WalletError> =>
  ctx.lightning ? Effect.succeed(ctx.lightning) : Effect.fail(notRunning());

/** Runs a node call; its errors become the wallet's (the node's message is meant for the owner). */
export const call = <T>(f: () => T | Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({
    try: async () => f(),
    catch: (e) =>
      e instanceof NodeError
        ? new InvalidInput({ message: e.message })
        : isWalletError(e)
          ? e
          : unexpected(e),
  });

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

export const createInvoice: Handler<"CreateInvoice"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    if (cmd.amountSats !== null && (cmd.amountSats <= 0n || cmd.amountSats > MAX_ONCHAIN_SATS)) {
      return yield* Effect.fail(new InvalidInput({ message: "Satoshi amount is invalid" }));
    }
    const description = cmd.description ?? cmd.labels.join(", ");
    const amountMsat = cmd.amountSats === null ? null : cmd.amountSats * 1000n;
    if (cmd.descriptionHash !== undefined && !/^[0-9a-f]{64}$/.test(cmd.descriptionHash))
      return yield* Effect.fail(
        new InvalidInput({ message: "The description hash must be 32 bytes in hex." }),
      );
    const hash = cmd.descriptionHash === undefined ? undefined : hex.decode(cmd.descriptionHash);
    return yield* newInvoice(ln, ctx, amountMsat, description, cmd.labels, hash);
  });

/** Makes an invoice of the node and the event recording it. */
export const newInvoice = (
  ln: LightningPort,
  ctx: HandlerContext,
  amountMsat: bigint | null,
  description: string,
  labels: readonly string[],
  /** The hash the invoice commits to instead of `description` (LNURL-pay metadata, a zap request). */
  descriptionHash?: Uint8Array,
): Effect.Effect<Outcome<{ bolt11: string; paymentHash: string; expiresAt: number }>, WalletError> =>
  Effect.map(
    call(() =>
      ln.node.createInvoice(
        amountMsat,
        descriptionHash ? { hash: descriptionHash } : description,
        INVOICE_EXPIRY_SECS,
      ),
    ),
    (invoice) => {
      const expiresAt = Math.floor(ctx.stamp.now() / 1000) + INVOICE_EXPIRY_SECS;
      return outcome({ bolt11: invoice.bolt11, paymentHash: invoice.paymentHash, expiresAt }, [
        newEvent("ln.invoice_created", {
          payment_hash: invoice.paymentHash,
          bolt11: invoice.bolt11,
          amount_msat: amountMsat === null ? null : amountMsat.toString(),
          description,
          labels: [...labels],
          expires_at: expiresAt,
        }),
      ]);
    },
  );

export const getInvoice: Handler<"GetInvoice"> = (cmd, ctx) => {
  const i = ctx.states.lightning.invoices.get(cmd.paymentHash.toLowerCase());
  if (!i) return Effect.succeed(outcome(null));
  return Effect.succeed(
    outcome({
      paid: i.paidMsat !== null,
      amountSats:
        (i.paidMsat ?? i.amountMsat ?? null) === null ? null : (i.paidMsat ?? i.amountMsat ?? 0n) / 1000n,
      expired: i.paidMsat === null && i.expiresAt * 1000 < ctx.stamp.now(),
    }),
  );
};

export const estimateLightningFee: Handler<"EstimateLightningFee"> = (cmd) =>
  Effect.succeed(outcome({ maxFeeSats: feeLimitSats(cmd.amountSats) }));

type Started = StartedPayment<PaymentOutcome>;

export const isStartedPayment = (v: unknown): v is Started =>
  typeof v === "object" && v !== null && "settle" in v && typeof (v as Started).settle === "function";

/** Turns the node's final state into the owner's answer; a failure is a tagged error with its text. */
export const settlePayment = (r: PaymentResult, amountSats: bigint): PaymentOutcome => {
  if (r.status === "succeeded")
    return {
      status: "succeeded",
      paymentHash: r.paymentHash,
      amountSats,
      feeSats: msatToSatsUp(r.feeMsat),
    };
  if (r.status === "pending")
    return { status: "pending", paymentHash: r.paymentHash, amountSats, feeSats: 0n };
  if (r.reason === "no_balance")
    throw new InsufficientFunds({ message: FAILURE_TEXT.no_balance, key: "send.error_low_balance" });
  throw new PaymentFailed({ message: FAILURE_TEXT[r.reason] });
};

const started = (
  start: SendStart,
  amountSats: bigint,
  event: () => NewEvent,
): Effect.Effect<Outcome<Started>, WalletError> => {
  if (!start.started) {
    return Effect.try({
      try: () => settlePayment(start.result, amountSats),
      catch: (e) => e as WalletError,
    }).pipe(Effect.map((o) => outcome<Started>({ settle: async () => o })));
  }
  return Effect.succeed(
    outcome<Started>({ settle: async () => settlePayment(await start.done, amountSats) }, [event()]),
  );
};

export const payInvoice: Handler<"PayInvoice"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    const decoded = decodeBolt11(cmd.bolt11.trim().replace(/^lightning:/i, ""));
    if (!decoded) return yield* Effect.fail(new InvalidInput({ message: "Invalid payment request" }));
    if (!networkAccepted(decoded.network, ctx.network)) {
      return yield* Effect.fail(
        new WrongNetwork({ message: `Destination is for ${decoded.network} but you're on ${ctx.network}` }),
      );
    }
    if (decoded.expiresAt * 1000 < ctx.stamp.now()) {
      return yield* Effect.fail(
        new InvalidInput({ message: "This invoice has expired.", key: "send.error_expired" }),
      );
    }
    // The worker pays exactly what the owner confirmed: an invoice for any other amount is refused.
    const fixed = decoded.amountMsat === null ? null : msatToSatsUp(decoded.amountMsat);
    if (fixed !== null && cmd.amountSats !== fixed) {
      return yield* Effect.fail(
        new InvalidInput({
          message: "The amount does not match the invoice.",
          key: "send.error_invoice_match",
        }),
      );
    }
    const amountSats = fixed ?? cmd.amountSats;
    if (amountSats <= 0n)
      return yield* Effect.fail(new InvalidInput({ message: "Satoshi amount is invalid" }));
    if (ctx.states.lightning.invoices.has(decoded.paymentHash)) {
      return yield* Effect.fail(new InvalidInput({ message: "This invoice was made by this wallet." }));
    }
    const maxFee = feeLimitSats(amountSats);
    const amountMsat = decoded.amountMsat ?? amountSats * 1000n;
    // Routes come from the network graph: bring it up to date first when the last sync is an hour old.
    if (ln.gossip) yield* ctx.outside(Effect.promise(() => ln.gossip?.fresh() ?? Promise.resolve()));
    const start = yield* call(() => ln.node.sendInvoice(decoded.invoice, maxFee * 1000n, amountMsat));
    return yield* started(start, amountSats, () =>
      newEvent("ln.payment_started", {
        payment_id: start.started ? start.paymentId : decoded.paymentHash,
        payment_hash: decoded.paymentHash,
        destination: decoded.payeePubkey,
        bolt11: decoded.invoice,
        amount_msat: amountMsat.toString(),
        max_fee_msat: (maxFee * 1000n).toString(),
        labels: cmd.labels ?? [],
      }),
    );
  });

export const keysend: Handler<"Keysend"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    const pubkey = cmd.pubkey.trim().toLowerCase();
    if (!/^0[23][0-9a-f]{64}$/.test(pubkey)) {
      return yield* Effect.fail(new InvalidInput({ message: "Invalid payment request" }));
    }
    if (cmd.amountSats <= 0n)
      return yield* Effect.fail(new InvalidInput({ message: "Satoshi amount is invalid" }));
    const maxFee = feeLimitSats(cmd.amountSats);
    const start = yield* call(() => ln.node.sendKeysend(pubkey, cmd.amountSats * 1000n, maxFee * 1000n));
    return yield* started(start, cmd.amountSats, () =>
      newEvent("ln.payment_started", {
        payment_id: start.started ? start.paymentId : "",
        payment_hash: start.started ? start.paymentHash : null,
        destination: pubkey,
        bolt11: null,
        amount_msat: (cmd.amountSats * 1000n).toString(),
        max_fee_msat: (maxFee * 1000n).toString(),
        labels: cmd.labels ?? [],
      }),
    ).pipe(
      Effect.mapError((e) =>
        e._tag === "PaymentFailed" ? new PaymentFailed({ message: e.message, key: "send.error_keysend" }) : e,
      ),
    );
  });

export const getLightningPayment: Handler<"GetLightningPayment"> = (cmd, ctx) =>
  Effect.succeed(outcome(lightningDetails(ctx.states.lightning, cmd.id)));

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

export const getLogs: Handler<"GetLogs"> = (_cmd, ctx) =>
  Effect.succeed(outcome({ lines: ctx.lightning?.logs() ?? [] }));

export const lightningHandlers = {
  CreateInvoice: createInvoice,
  GetInvoice: getInvoice,
  EstimateLightningFee: estimateLightningFee,
  PayInvoice: payInvoice,
  Keysend: keysend,
  GetLightningPayment: getLightningPayment,
  GetChannelEvent: getChannelEvent,
  ListPeers: listPeers,
  ConnectPeer: connectPeer,
  DisconnectPeer: disconnectPeer,
  DeletePeer: deletePeer,
  OpenChannel: openChannel,
  SweepAllToChannel: sweepAllToChannel,
  EstimateChannelOpenFee: estimateChannelOpenFee,
  CloseChannel: closeChannel,
  GetLogs: getLogs,
} satisfies { readonly [K in keyof CommandSpecs]?: Handler<K> };

/** The commands that use the node (the others read the log, or answer without it). */
export const lightningNeeds: Needs = {
  CreateInvoice: "lightning",
  PayInvoice: "lightning",
  Keysend: "lightning",
  ListPeers: "lightning",
  ConnectPeer: "lightning",
  DisconnectPeer: "lightning",
  DeletePeer: "lightning",
  OpenChannel: "lightning",
  SweepAllToChannel: "lightning",
  CloseChannel: "lightning",
};

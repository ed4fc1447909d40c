import { hex } from "@scure/base";
/**
 * Lightning commands: invoices and payments (peers and channels are in `channels.ts`). Each validates its input, asks the node and
 * returns the events that record what happened; the node's later news (a payment arriving, a channel
 * becoming ready) is recorded by the engine itself.
 */
import { Effect } from "effect";
import { lightningDetails } from "../../projections/activity";
import { type BalanceView, balanceOf } from "../../projections/balance";
import { type NewEvent, newEvent } from "../../events/make";
import type { LightningPort } from "../../engine/lightning/live";
import {
  CHANNEL_WAIT_MS,
  FAILURE_KEY,
  FAILURE_TEXT,
  feeLimitSats,
  NodeError,
} from "../../engine/lightning/policy";
import type { PaymentResult, SendStart } from "../../engine/lightning/node";
import { decodeBolt11, networkAccepted } from "../../engine/parse";
import { MAX_ONCHAIN_SATS } from "../../engine/onchain/validate";
import type { CommandSpecs, PaymentOutcome } from "../command";
import {
  type Handler,
  type HandlerContext,
  type Needs,
  type Outcome,
  outcome,
  type StartedPayment,
} from "../context";
import {
  InsufficientFunds,
  InvalidInput,
  isWalletError,
  PaymentFailed,
  unexpected,
  type WalletError,
  WalletState,
  WrongNetwork,
} from "../../errors";
import { msatToSatsUp } from "../../engine/amount";

/** An invoice is valid for a day. */
export const INVOICE_EXPIRY_SECS = 86_400;

export const notRunning = () =>
  new WalletState({ message: "The lightning node is not running yet.", key: "error_lightning_not_ready" });

export const nodeOf = (ctx: HandlerContext): Effect.Effect<LightningPort, WalletError> =>
  ctx.lightning ? Effect.succeed(ctx.lightning) : Effect.fail(notRunning());

/**
 * After a wait on the network with the queue released (`ctx.outside`): the node the wait began on must still
 * be the wallet's running one (a lock, a delete or a restart meanwhile ends the command).
 */
export const sameNode = (ctx: HandlerContext, ln: LightningPort): Effect.Effect<void, WalletError> =>
  ctx.lightning === ln ? Effect.void : Effect.fail(notRunning());

/** Runs a node call; its errors become the wallet's (the node's message is meant for the owner). */
export const call = <T>(f: () => T | Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({
    try: async () => f(),
    catch: (e) =>
      e instanceof NodeError
        ? new InvalidInput({ message: e.message, key: "errors.node_refused", values: { reason: e.message } })
        : isWalletError(e)
          ? e
          : unexpected(e),
  });

export const createInvoice: Handler<"CreateInvoice"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    if (cmd.amountSats !== null && (cmd.amountSats <= 0n || cmd.amountSats > MAX_ONCHAIN_SATS)) {
      return yield* Effect.fail(
        new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" }),
      );
    }
    const description = cmd.description ?? cmd.labels.join(", ");
    const amountMsat = cmd.amountSats === null ? null : cmd.amountSats * 1000n;
    if (cmd.descriptionHash !== undefined && !/^[0-9a-f]{64}$/.test(cmd.descriptionHash))
      return yield* Effect.fail(
        new InvalidInput({
          message: "The description hash must be 32 bytes in hex.",
          key: "errors.description_hash",
        }),
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

/** The routing fee limit of a payment: the wallet's own, or lower when the caller asks for less. */
const feeLimitOf = (amountSats: bigint, asked: bigint | undefined): bigint => {
  const limit = feeLimitSats(amountSats);
  return asked !== undefined && asked >= 0n && asked < limit ? asked : limit;
};

/**
 * The most a payment may pay in fees, for an amount that can leave now: one above what the open channels let
 * leave (their reserves and commitment fees kept back, a channel still opening counted out) is refused here,
 * in the catalogue's words, before the owner can confirm it.
 */
export const estimateLightningFee: Handler<"EstimateLightningFee"> = (cmd, ctx) => {
  const b = balanceOf(ctx.states.onchain, ctx.states.lightning);
  if (cmd.amountSats > b.lightning_sendable) return Effect.fail(overSendable(b));
  return Effect.succeed(outcome({ maxFeeSats: feeLimitSats(cmd.amountSats) }));
};

/**
 * Why an amount cannot leave over lightning: more than the wallet has there, or more than can leave now
 * while the rest is held as reserve or in a channel still opening (`max`: what can leave).
 */
export const overSendable = (b: BalanceView): InsufficientFunds => {
  const max = b.lightning_sendable.toString();
  return b.lightning + b.lightning_pending > b.lightning_sendable
    ? new InsufficientFunds({
        message: `At most ${max} sats can leave over lightning now: the rest is your channels' reserve, or in a channel still opening.`,
        key: "send.error_over_sendable",
        values: { max },
      })
    : new InsufficientFunds({ message: FAILURE_TEXT.no_balance, key: "send.error_low_balance" });
};

type Started = StartedPayment<PaymentOutcome>;

export const isStartedPayment = (v: unknown): v is Started =>
  typeof v === "object" && v !== null && "settle" in v && typeof (v as Started).settle === "function";

/** Turns the node's final state into the owner's answer; a failure is a tagged error with its text. */
export const settlePayment = (r: PaymentResult, amountSats: bigint, now = Date.now()): PaymentOutcome => {
  if (r.status === "succeeded")
    return {
      status: "succeeded",
      paymentHash: r.paymentHash,
      amountSats,
      feeSats: msatToSatsUp(r.feeMsat),
      preimage: r.preimage,
      feeMsat: r.feeMsat,
    };
  if (r.status === "pending")
    return { status: "pending", paymentHash: r.paymentHash, amountSats, feeSats: 0n };
  if (r.reason === "no_balance")
    throw new InsufficientFunds({ message: FAILURE_TEXT.no_balance, key: "send.error_low_balance" });
  if (r.reason === "peer_offline") {
    // For how long, in whole minutes (at least one: it was waited for before this answer).
    const minutes = Math.max(1, Math.round((now - (r.offlineSince ?? now)) / 60_000));
    throw new PaymentFailed({
      message: FAILURE_TEXT.peer_offline,
      key: "send.error_peer_offline",
      values: { minutes: String(minutes) },
    });
  }
  if (r.reason === "in_flight_limit")
    throw new PaymentFailed({
      message: FAILURE_TEXT.in_flight_limit,
      key: "send.error_in_flight_limit",
      values: { max: ((r.maxMsat ?? 0n) / 1000n).toString() },
    });
  throw new PaymentFailed({ message: FAILURE_TEXT[r.reason], key: FAILURE_KEY[r.reason] });
};

/** The refusals that speak of the wallet's own channel, not of the recipient. */
const OWN_REFUSALS: ReadonlySet<string> = new Set([
  "send.error_peer_offline",
  "send.error_in_flight_limit",
  "send.error_reserve",
]);

/**
 * A payment whose funds are in a channel whose peer is connecting waits for it (with the queue released,
 * at most `CHANNEL_WAIT_MS`) instead of being refused; the send that follows refuses it with the true
 * reason if it still cannot go.
 */
export const channelConnected = (
  ctx: HandlerContext,
  ln: LightningPort,
  amountMsat: bigint,
): Effect.Effect<void, WalletError> =>
  Effect.gen(function* () {
    const why = yield* call(() => ln.node.refusal(amountMsat));
    // A peer connecting, or the HTLCs of a payment just made still leaving the channel: both pass.
    if (why?.reason !== "peer_offline" && why?.reason !== "in_flight_limit") return;
    yield* ctx.outside(Effect.promise(() => ln.node.whenConnected(amountMsat, CHANNEL_WAIT_MS)));
    yield* sameNode(ctx, ln);
  });

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
    if (!decoded)
      return yield* Effect.fail(
        new InvalidInput({ message: "Invalid payment request", key: "payment_request.invalid" }),
      );
    if (!networkAccepted(decoded.network, ctx.network)) {
      return yield* Effect.fail(
        new WrongNetwork({
          message: `Destination is for ${decoded.network} but you're on ${ctx.network}`,
          key: "payment_request.wrong_network",
          values: { destination: decoded.network, wallet: ctx.network },
        }),
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
          message: "The amount does not match the invoice's amount.",
          key: "send.error_invoice_match",
        }),
      );
    }
    const amountSats = fixed ?? cmd.amountSats;
    if (amountSats <= 0n)
      return yield* Effect.fail(
        new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" }),
      );
    if (ctx.states.lightning.invoices.has(decoded.paymentHash)) {
      return yield* Effect.fail(
        new InvalidInput({ message: "This invoice was made by this wallet.", key: "send.error_own_invoice" }),
      );
    }
    const maxFee = feeLimitOf(amountSats, cmd.maxFeeSats);
    const amountMsat = decoded.amountMsat ?? amountSats * 1000n;
    // Routes come from the network graph: read from the store if the node has not yet, and brought up to
    // date first when the last sync is an hour old.
    yield* ctx.outside(Effect.promise(() => ln.node.routesReady()));
    if (ln.gossip) yield* ctx.outside(Effect.promise(() => ln.gossip?.fresh() ?? Promise.resolve()));
    yield* sameNode(ctx, ln);
    yield* channelConnected(ctx, ln, amountMsat);
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
      return yield* Effect.fail(
        new InvalidInput({ message: "Invalid payment request", key: "payment_request.invalid" }),
      );
    }
    if (cmd.amountSats <= 0n)
      return yield* Effect.fail(
        new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" }),
      );
    const maxFee = feeLimitOf(cmd.amountSats, cmd.maxFeeSats);
    yield* ctx.outside(Effect.promise(() => ln.node.routesReady()));
    yield* channelConnected(ctx, ln, cmd.amountSats * 1000n);
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
      // A refusal that says why the wallet could not send (its channel) keeps its words.
      Effect.mapError((e) =>
        e._tag === "PaymentFailed" && !OWN_REFUSALS.has(e.key ?? "")
          ? new PaymentFailed({ message: e.message, key: "send.error_keysend" })
          : e,
      ),
    );
  });

export const getLightningPayment: Handler<"GetLightningPayment"> = (cmd, ctx) =>
  Effect.succeed(outcome(lightningDetails(ctx.states.lightning, cmd.id)));

export const getLogs: Handler<"GetLogs"> = (_cmd, ctx) =>
  Effect.succeed(outcome({ lines: ctx.lightning?.logs() ?? [] }));

export const lightningHandlers = {
  CreateInvoice: createInvoice,
  GetInvoice: getInvoice,
  EstimateLightningFee: estimateLightningFee,
  PayInvoice: payInvoice,
  Keysend: keysend,
  GetLightningPayment: getLightningPayment,
  GetLogs: getLogs,
} satisfies { readonly [K in keyof CommandSpecs]?: Handler<K> };

/** The commands that use the node (the others read the log, or answer without it). */
export const lightningNeeds: Needs = {
  CreateInvoice: "lightning",
  PayInvoice: "lightning",
  Keysend: "lightning",
};

/**
 * Receiving over lightning with no room in the wallet's channels: the configured LSP opens a channel just
 * in time, in one of two ways.
 * - HTTP (Voltage Flow 2 style): the wallet asks the LSP's fee for the amount, invoices for the amount
 *   less the fee, and shows the LSP's wrapped invoice (same payment hash, full amount); the LSP opens the
 *   channel when it is paid and pays the wallet's invoice over it.
 * - LSPS2 (bLIP-52, over the lightning connection): the wallet buys the cheapest valid fee offer and shows
 *   its own invoice for the full amount, routed through the LSP's intercept SCID; the LSP opens the
 *   channel and forwards the payment less the fee, which the node checks before claiming.
 */
import { Effect } from "effect";
import type { LightningPort, LspInfo } from "../../engine/lightning/live";
import { LspRequestError, readFeeQuote, readProposal } from "../../engine/lightning/lsp-http";
import { type Lsps2Client, Lsps2Refusal, WALLET_TO_SELF_DELAY } from "../../engine/lightning/lsps2";
import { delayRefusal } from "./lsp-delay";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { newEvent, type NewEvent } from "../../events/make";
import { type Handler, type HandlerContext, outcome } from "../context";
import { InvalidInput, ServerUnavailable, type WalletError } from "../../errors";
import { call, INVOICE_EXPIRY_SECS, newInvoice, nodeOf, sameNode } from "./lightning";
import { msatToSatsUp } from "../../engine/amount";

const LSP_FAILED = "Failed to make a request to the LSP.";

const lspFailed = () => new ServerUnavailable({ message: LSP_FAILED, key: "receive.error_lsp_failed" });

/** An amount the LSP does not serve, in the catalogue's words with what to do (receive on-chain). */
const belowMin = (amount: string) =>
  new InvalidInput({
    message: `Your channels have no room for this payment, so it needs a new channel, and the LSP opens one only for payments of at least ${amount} sats. Ask for more, or receive on-chain.`,
    key: "receive.error_lsp_below_min",
    values: { amount },
  });
const aboveMax = (amount: string) =>
  new InvalidInput({
    message: `The LSP opens channels for payments of at most ${amount} sats. Ask for less, or receive on-chain.`,
    key: "receive.error_lsp_above_max",
    values: { amount },
  });

/** The limit an HTTP LSP's refusal names ("below the minimum of 10000 sats"), as whole sats. */
const limitIn = (text: string, word: "minimum" | "maximum"): string | null => {
  const m = new RegExp(`${word}\\D{0,20}?([\\d,.]{1,20})\\s*(msat|sat)`, "i").exec(text);
  if (!m?.[1] || !m[2]) return null;
  const n = m[1].replace(/[,.]/g, "");
  if (!/^\d{1,16}$/.test(n)) return null;
  return m[2].toLowerCase() === "msat" ? String((BigInt(n) + 999n) / 1000n) : String(BigInt(n));
};

/**
 * The LSP's refusal in the catalogue's words: an amount it does not serve with its limit, else that it would
 * not open a channel for this payment (its own words kept in the message, for the logs); unreachable else.
 */
export const lspRefusal = (e: unknown): WalletError => {
  if (!(e instanceof LspRequestError) || e.status === null || e.status >= 500) return lspFailed();
  const min = limitIn(e.message, "minimum");
  if (min !== null) return belowMin(min);
  const max = limitIn(e.message, "maximum");
  if (max !== null) return aboveMax(max);
  // Its fee offer ran out before the invoice reached it (a slow line, or an LSP that offers for a moment).
  if (/\bexpired\b/i.test(e.message))
    return new InvalidInput({
      message: "The LSP's fee offer expired before the invoice reached it. Try again.",
      key: "receive.error_lsp_quote_expired",
    });
  return new InvalidInput({
    message:
      "Your lightning provider would not open a channel for this payment. Try another amount, or receive on-chain.",
    key: "receive.error_lsp_refused",
  });
};

const fromLsp = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({ try: f, catch: lspRefusal });

/** An LSPS2 LSP's refusal the owner can act on (an amount it does not serve), else unreachable. */
const fromLsps2 = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({
    try: f,
    catch: (e) => {
      if (!(e instanceof Lsps2Refusal)) return lspFailed();
      const r = e.refusal;
      switch (r.reason) {
        case "below_min":
          return belowMin(String(msatToSatsUp(r.limitMsat)));
        case "above_max":
          return aboveMax(String(r.limitMsat / 1000n));
        case "fee_exceeds_amount":
          return feeTooHigh(r.feeMsat);
        case "delay_refused":
          return delayRefusal(r.maxDelay, e.asked ?? { lsp: "", delay: WALLET_TO_SELF_DELAY });
        default:
          return lspFailed();
      }
    },
  });

/** The LSPS2 invoice for `amountSats` and the events recording it and the fee promised. */
const lsps2Invoice = (
  client: Lsps2Client,
  amountSats: bigint,
  labels: readonly string[],
  ctx: HandlerContext,
): Effect.Effect<{ bolt11: string; paymentHash: string; events: readonly NewEvent[] }, WalletError> =>
  Effect.map(
    fromLsps2(() => client.invoice(amountSats * 1000n, labels.join(", "), INVOICE_EXPIRY_SECS)),
    (r) => ({
      bolt11: r.bolt11,
      paymentHash: r.paymentHash,
      events: [
        newEvent("ln.invoice_created", {
          payment_hash: r.paymentHash,
          bolt11: r.bolt11,
          amount_msat: (amountSats * 1000n).toString(),
          description: labels.join(", "),
          labels: [...labels],
          expires_at: Math.floor(ctx.stamp.now() / 1000) + INVOICE_EXPIRY_SECS,
        }),
        newEvent("ln.lsp_fee", {
          payment_hash: r.paymentHash,
          fee_msat: r.feeMsat.toString(),
          lsp: client.lsp.pubkey,
        }),
      ],
    }),
  );

/** What the ready channels can take in now, in sats. */
export const inboundSats = (ln: LightningPort): bigint =>
  ln.node
    .channels()
    .filter((c) => c.isReady)
    .reduce((sum, c) => sum + c.inboundSats, 0n);

/** Whether receiving `amountSats` over lightning needs a new channel from the LSP. */
export const needsChannel = (ln: LightningPort, amountSats: bigint): boolean => amountSats > inboundSats(ln);

const lspOf = (ln: LightningPort): Effect.Effect<LspInfo | null, WalletError> =>
  Effect.tryPromise({ try: () => ln.lsp(), catch: () => lspFailed() });

interface Quote {
  readonly feeMsat: bigint;
  readonly id: string;
}

const quote = (ln: LightningPort, amountSats: bigint): Effect.Effect<Quote, WalletError> =>
  fromLsp(() => ln.lspPost("fee", { amount_msat: amountSats * 1000n, pubkey: ln.node.nodeId }, readFeeQuote));

const feeTooHigh = (feeMsat: bigint) =>
  new InvalidInput({
    message: `The amount does not cover the channel setup fee of ${msatToSatsUp(feeMsat)} sats.`,
    key: "receive.error_fee_exceeds_amount",
    values: { fee: String(msatToSatsUp(feeMsat)) },
  });

/**
 * The invoice to show for `amountSats`: the LSP's wrapped one when a channel is needed and an LSP is
 * configured; null when the wallet's own invoice will do.
 */
export const jitInvoice = (
  amountSats: bigint,
  labels: readonly string[],
  ctx: HandlerContext,
): Effect.Effect<{ bolt11: string; paymentHash: string; events: readonly NewEvent[] } | null, WalletError> =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    if (!needsChannel(ln, amountSats)) return null;
    // Every wait on the LSP releases the command queue: a silent LSP delays only this receive, and its
    // requests end at their deadline with the catalogue's words.
    const lsps2 = ln.lsps2();
    if (lsps2) {
      const bought = yield* ctx.outside(lsps2Invoice(lsps2, amountSats, labels, ctx));
      yield* sameNode(ctx, ln);
      return bought;
    }
    const asked = yield* ctx.outside(
      Effect.gen(function* () {
        const lsp = yield* lspOf(ln);
        if (lsp === null) return null;
        // The LSP opens the channel over this connection once the payer pays.
        yield* call(() => ln.connect(lsp.address)).pipe(Effect.mapError(() => lspFailed()));
        ln.node.keepConnected(lsp.pubkey, Date.now() + INVOICE_EXPIRY_SECS * 1000);
        return { lsp, q: yield* quote(ln, amountSats) };
      }),
    );
    yield* sameNode(ctx, ln);
    if (asked === null) return null;
    const { lsp, q } = asked;
    // A channel that opened meanwhile may take the payment after all: then the wallet's own invoice will do.
    if (!needsChannel(ln, amountSats)) return null;
    const amountMsat = amountSats * 1000n;
    if (q.feeMsat >= amountMsat) return yield* Effect.fail(feeTooHigh(q.feeMsat));
    const own = yield* newInvoice(ln, ctx, amountMsat - q.feeMsat, labels.join(", "), labels);
    const r = yield* ctx.outside(
      fromLsp(() => ln.lspPost("proposal", { bolt11: own.result.bolt11, fee_id: q.id }, readProposal)),
    );
    yield* sameNode(ctx, ln);
    const wrapped = decodeBolt11(r.jitBolt11);
    // Only the same payment for the full amount, payable to the LSP, is shown to the payer.
    if (
      wrapped === null ||
      wrapped.paymentHash !== own.result.paymentHash ||
      wrapped.amountMsat !== amountMsat ||
      wrapped.payeePubkey !== lsp.pubkey
    )
      return yield* Effect.fail(lspFailed());
    return {
      bolt11: wrapped.invoice,
      paymentHash: own.result.paymentHash,
      events: [
        ...own.events,
        newEvent("ln.lsp_fee", {
          payment_hash: own.result.paymentHash,
          fee_msat: q.feeMsat.toString(),
          lsp: lsp.pubkey,
        }),
      ],
    };
  });

/**
 * The setup fee a lightning receive of `amountSats` costs now: 0 when the channels can take it, or when
 * no LSP is configured (the wallet's own invoice is shown then).
 */
export const estimateReceiveFee: Handler<"EstimateReceiveFee"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (cmd.amountSats <= 0n)
      return yield* Effect.fail(
        new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" }),
      );
    const ln = yield* nodeOf(ctx);
    if (!needsChannel(ln, cmd.amountSats)) return outcome({ feeSats: 0n, needsChannel: false });
    const lsps2 = ln.lsps2();
    // The LSP is asked with the command queue released (the receive screen asks as the owner types).
    const feeMsat = yield* ctx.outside(
      lsps2
        ? Effect.map(
            fromLsps2(() => lsps2.quote(cmd.amountSats * 1000n)),
            (q) => q.feeMsat,
          )
        : Effect.flatMap(lspOf(ln), (lsp) =>
            lsp === null ? Effect.succeed(null) : Effect.map(quote(ln, cmd.amountSats), (q) => q.feeMsat),
          ),
    );
    if (feeMsat === null) return outcome({ feeSats: 0n, needsChannel: false });
    return outcome({ feeSats: msatToSatsUp(feeMsat), needsChannel: true });
  });

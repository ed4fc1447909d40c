/**
 * Receiving over lightning with no room in the wallet's channels: the configured LSP (HTTP, Voltage Flow 2
 * style) opens a channel just in time. The wallet asks the LSP's fee for the amount, invoices for the
 * amount less the fee, and shows the LSP's wrapped invoice (same payment hash, full amount); the LSP
 * opens the channel when it is paid and pays the wallet's invoice over it.
 */
import { Effect } from "effect";
import type { LightningPort, LspInfo } from "../engine/lightning/live";
import { LspRequestError } from "../engine/lightning/lsp-http";
import { decodeBolt11 } from "../engine/parse/bolt11";
import { newEvent, type NewEvent } from "../events/make";
import { type Handler, type HandlerContext, outcome } from "./context";
import { InvalidInput, ServerUnavailable, type WalletError } from "./errors";
import { call, newInvoice, nodeOf } from "./lightning";

const LSP_FAILED = "Failed to make a request to the LSP.";

const lspFailed = () => new ServerUnavailable({ message: LSP_FAILED, key: "receive.error_lsp_failed" });

/** The LSP's refusal in its own words (an amount it does not serve, an expired quote), else unreachable. */
const fromLsp = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({
    try: f,
    catch: (e) =>
      e instanceof LspRequestError && e.status !== null && e.status < 500
        ? new InvalidInput({ message: e.message })
        : lspFailed(),
  });

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
  Effect.flatMap(
    fromLsp(() => ln.lspPost("fee", { amount_msat: amountSats * 1000n, pubkey: ln.node.nodeId })),
    (r) => {
      const fee = r.fee_amount_msat;
      const feeText = typeof fee === "number" || typeof fee === "string" ? String(fee) : "";
      if (!/^\d+$/.test(feeText) || typeof r.id !== "string" || r.id === "") return Effect.fail(lspFailed());
      return Effect.succeed({ feeMsat: BigInt(feeText), id: r.id });
    },
  );

const feeTooHigh = (feeMsat: bigint) =>
  new InvalidInput({
    message: `The amount does not cover the channel setup fee of ${(feeMsat + 999n) / 1000n} sats.`,
    key: "receive.error_fee_exceeds_amount",
    values: { fee: String((feeMsat + 999n) / 1000n) },
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
    const lsp = yield* lspOf(ln);
    if (lsp === null) return null;
    // The LSP opens the channel over this connection once the payer pays.
    yield* call(() => ln.connect(lsp.address)).pipe(Effect.mapError(() => lspFailed()));
    const q = yield* quote(ln, amountSats);
    const amountMsat = amountSats * 1000n;
    if (q.feeMsat >= amountMsat) return yield* Effect.fail(feeTooHigh(q.feeMsat));
    const own = yield* newInvoice(ln, ctx, amountMsat - q.feeMsat, labels.join(", "), labels);
    const r = yield* fromLsp(() => ln.lspPost("proposal", { bolt11: own.result.bolt11, fee_id: q.id }));
    const wrapped = typeof r.jit_bolt11 === "string" ? decodeBolt11(r.jit_bolt11) : null;
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
      return yield* Effect.fail(new InvalidInput({ message: "Satoshi amount is invalid" }));
    const ln = yield* nodeOf(ctx);
    if (!needsChannel(ln, cmd.amountSats)) return outcome({ feeSats: 0n, needsChannel: false });
    const lsp = yield* lspOf(ln);
    if (lsp === null) return outcome({ feeSats: 0n, needsChannel: false });
    const q = yield* quote(ln, cmd.amountSats);
    return outcome({ feeSats: (q.feeMsat + 999n) / 1000n, needsChannel: true });
  });

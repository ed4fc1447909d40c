/**
 * Moving ecash out of a custodian over lightning (spec 2 /transfer and /swaplightning): an invoice of the
 * destination (another custodian, or the wallet's own node) paid by a melt at the source. Both show what it
 * costs first: the quote names the amount and the most the source may keep in fees, and the payment then
 * pays exactly that quote (the adapter refuses another amount, a higher fee, or a fee reserve above the
 * wallet's lightning fee limit, whatever the source names). Every request to a custodian waits with the
 * command queue released.
 */
import { Effect } from "effect";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { InsufficientFunds, InvalidInput } from "../../errors";
import type { Handler, HandlerContext } from "../context";
import { ask, atMost, custodian, invalidAmount, noFederation, portOf, positive } from "./common";
import { jitInvoice } from "../lightning";
import { newInvoice, nodeOf } from "../lightning";
import { outcome } from "../context";

const ends = (ctx: HandlerContext, cmd: { from: string; to: string }) => {
  const from = custodian(ctx, cmd.from);
  const to = custodian(ctx, cmd.to);
  return !from || !to || from.mint === to.mint ? Effect.fail(noFederation()) : Effect.succeed({ from, to });
};

const lowBalance = () =>
  new InsufficientFunds({
    message: "You don't have enough balance for this amount and its fee.",
    key: "send.error_low_balance",
  });

/**
 * What a transfer costs, before the owner confirms it: the destination's invoice and the source's melt quote
 * for it. The full balance sweeps: the amount is lowered until it and its fees fit the balance.
 */
export const quoteEcashTransfer: Handler<"QuoteEcashTransfer"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const { from, to } = yield* ends(ctx, cmd);
    yield* positive(cmd.amountSats);
    yield* atMost(cmd.amountSats, from.balance);
    const port = yield* portOf(ctx);
    const sweep = cmd.amountSats === from.balance;
    let amount = cmd.amountSats;
    for (let attempt = 0; ; attempt++) {
      if (amount <= 0n) return yield* Effect.fail(invalidAmount());
      const invoice = yield* ask(ctx, () => port.receiveQuote(to.mint, amount, "transfer"));
      const quote = yield* ask(ctx, () => port.meltQuote(from.mint, invoice.bolt11));
      // Back in the queue: the balance as the log has it now (another payment may have spent from it).
      const balance = custodian(ctx, from.mint)?.balance ?? 0n;
      const need = quote.amountSats + quote.feeSats;
      if (need > balance) {
        if (!sweep || attempt >= 4) return yield* Effect.fail(lowBalance());
        amount -= need - balance;
        continue;
      }
      return outcome({
        quoteId: quote.quoteId,
        bolt11: quote.bolt11,
        amountSats: quote.amountSats,
        feeSats: quote.feeSats,
      });
    }
  });

const notTheDestination = () =>
  new InvalidInput({
    message:
      "This quote does not pay the destination's invoice for this amount: nothing was sent. Check the transfer again.",
    key: "federations.error_transfer_invoice",
  });

/**
 * Pays the transfer quote the owner confirmed, and only one that pays an invoice the destination gave this
 * wallet for exactly that amount (a quote prepared for any other invoice is refused before anything moves);
 * what arrives is minted at the destination right after.
 */
export const transferEcash: Handler<"TransferEcash"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const { from, to } = yield* ends(ctx, cmd);
    yield* positive(cmd.amountSats);
    if (cmd.feeSats < 0n) return yield* Effect.fail(invalidAmount());
    yield* atMost(cmd.amountSats + cmd.feeSats, from.balance);
    const port = yield* portOf(ctx);
    const bolt11 = yield* ask(ctx, () => port.meltInvoice(from.mint, cmd.quoteId));
    const invoice = bolt11 ? decodeBolt11(bolt11) : null;
    if (!invoice || invoice.amountMsat !== cmd.amountSats * 1000n)
      return yield* Effect.fail(notTheDestination());
    const awaited = yield* ask(ctx, () => port.openReceive(to.mint, invoice.paymentHash));
    if (awaited !== cmd.amountSats) return yield* Effect.fail(notTheDestination());
    const paid = yield* ask(ctx, () =>
      port.melt(from.mint, cmd.quoteId, cmd.amountSats, cmd.feeSats, "transfer"),
    );
    if (paid.status === "pending")
      return outcome({ status: "pending" as const, amountSats: cmd.amountSats, feeSats: 0n }, paid.events);
    // Paid: the destination mints it now, or at its next check if it does not answer (nothing is lost).
    const arrived = yield* Effect.result(ask(ctx, () => port.checkReceives(to.mint)));
    return outcome({ status: "paid" as const, amountSats: cmd.amountSats, feeSats: paid.feeSats }, [
      ...paid.events,
      ...(arrived._tag === "Success" ? arrived.success : []),
    ]);
  });

/** ecash → the wallet's own lightning: an invoice of the node, and the source's melt quote for it. */
export const prepareSwapToLightning: Handler<"PrepareSwapToLightning"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const c = custodian(ctx, cmd.federationId);
    if (!c) return yield* Effect.fail(noFederation());
    yield* positive(cmd.amountSats);
    yield* atMost(cmd.amountSats, c.balance);
    const port = yield* portOf(ctx);
    const ln = yield* nodeOf(ctx);
    const tooSmall = () =>
      new InvalidInput({ message: "This amount is too small to swap.", key: "swap_lightning.too_small" });
    // Without room in a channel, the LSP opens one just in time (for its setup fee), as for any receive.
    const jit = yield* jitInvoice(cmd.amountSats, [], ctx).pipe(
      Effect.mapError((e) => (e.key === "receive.error_fee_exceeds_amount" ? tooSmall() : e)),
    );
    const invoice =
      jit ??
      (yield* Effect.map(newInvoice(ln, ctx, cmd.amountSats * 1000n, `Swap from ${c.name}`, []), (o) => ({
        bolt11: o.result.bolt11,
        events: o.events,
      })));
    const q = yield* ask(ctx, () => port.meltQuote(c.mint, invoice.bolt11)).pipe(
      Effect.mapError((e) => (e._tag === "InsufficientFunds" ? tooSmall() : e)),
    );
    const channelFeeMsat = invoice.events.reduce(
      (sum, e) => (e.type === "ln.lsp_fee" ? sum + BigInt(e.payload.fee_msat) : sum),
      0n,
    );
    return outcome(
      {
        quoteId: q.quoteId,
        bolt11: q.bolt11,
        amountSats: q.amountSats,
        feeSats: q.feeSats,
        channelFeeSats: (channelFeeMsat + 999n) / 1000n,
      },
      invoice.events,
    );
  });

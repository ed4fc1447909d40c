/**
 * Ecash out over lightning (NUT-05): a melt quote checked against the invoice and the wallet's fee limit,
 * then the melt, written down before it goes out and paid at most once (a lost answer is settled by asking
 * the mint for the quote's state, never by paying again).
 */
import { ecashMoved } from "../moved";
import { MeltQuoteState, type Wallet } from "@cashu/cashu-ts";
import { decodeBolt11 } from "../../parse";
import { type EcashAdapter, type MeltQuote, otherInvoiceRefusal, reserveRefusal } from "../port";
import { fromMint, refusal, sats, toLike, toStored } from "./proofs";
import { addProofs, type Cashu, record } from "./session";
import { guarded, settled } from "./settle";
import { type PendingOp, sumProofs } from "./state";

/** The invoice a mint's quote names (`request`, absent from older mints) is `bolt11`, in either case. */
const sameInvoice = (request: string | undefined, bolt11: string) =>
  request === undefined || request.trim().toLowerCase() === bolt11.trim().toLowerCase();

/** What paying `bolt11` from the mint of `mint` costs, with the proofs it would take. */
export const meltQuote = (cashu: Cashu, mint: string, bolt11: string): Promise<MeltQuote> =>
  cashu.withMint(mint, async (s) => {
    const w = await cashu.walletOf(s);
    const q = await fromMint(w.createMeltQuoteBolt11(bolt11));
    // A quote that names its invoice (NUT-05 `request`) names this one: the mint pays no other.
    if (!sameInvoice(q.request, bolt11)) throw otherInvoiceRefusal();
    const amountSats = sats(q.amount);
    const reserve = sats(q.fee_reserve);
    // The mint quotes the invoice asked about, for its amount, and a fee within the wallet's limit.
    const invoice = decodeBolt11(bolt11);
    if (!invoice || invoice.amountMsat === null || amountSats !== (invoice.amountMsat + 999n) / 1000n)
      throw refusal("The amount does not match the invoice.");
    const refused = reserveRefusal(amountSats, reserve);
    if (refused) throw refused;
    const selection = w.selectProofsToSend(s.state.proofs.map(toLike), amountSats + reserve, true);
    if (sumProofs(selection.send.map(toStored)) < amountSats + reserve) throw refusal("Insufficient balance");
    const feeSats = reserve + sats(w.getFeesForProofs(selection.send));
    const quote = { quoteId: q.quote, bolt11, amountSats, feeSats, reserveSats: reserve };
    cashu.melts.set(q.quote, {
      ...quote,
      mint: s.url,
      paymentHash: decodeBolt11(bolt11)?.paymentHash ?? null,
    });
    return quote;
  });

/** Pays the melt quote `quoteId` this run prepared, for no more fee than the owner saw. */
export const melt = (
  cashu: Cashu,
  ...[mint, quoteId, amountSats, feeSats, via = "lightning"]: Parameters<EcashAdapter["melt"]>
) =>
  cashu.withMint(mint, async (s) => {
    const seen = cashu.melts.get(quoteId);
    if (!seen || seen.mint !== s.url) throw refusal("This payment was not prepared; start again.");
    if (seen.amountSats !== amountSats) throw refusal("The amount does not match the invoice.");
    if (s.state.pending) throw refusal("An earlier payment is still on its way.");
    const w = await cashu.walletOf(s);
    const q = await fromMint(w.checkMeltQuoteBolt11(quoteId));
    if (q.state !== MeltQuoteState.UNPAID) throw refusal("This invoice was already paid.");
    if (!sameInvoice(q.request, seen.bolt11)) throw otherInvoiceRefusal();
    const reserve = sats(q.fee_reserve);
    if (sats(q.amount) !== amountSats) throw refusal("The amount does not match the invoice.");
    const refused = reserveRefusal(amountSats, reserve);
    if (refused) throw refused;
    const selection = w.selectProofsToSend(s.state.proofs.map(toLike), amountSats + reserve, true);
    const inputs = selection.send.map(toStored);
    const fee = reserve + sats(w.getFeesForProofs(selection.send));
    if (sumProofs(inputs) < amountSats + reserve) throw refusal("Insufficient balance");
    // The worker pays what the owner saw: a fee above it is refused.
    if (fee > feeSats) throw refusal("The fee changed; check the payment again.");
    const op = cashu.uuid();
    const pending: PendingOp = {
      kind: "melt",
      op,
      inputs,
      own: true,
      ranges: [],
      quote: quoteId,
      amount: amountSats.toString(),
      paymentHash: seen.paymentHash,
      via,
    };
    s.state.proofs = selection.keep.map(toStored);
    let res: Awaited<ReturnType<Wallet["meltProofsBolt11"]>>;
    try {
      res = await guarded(cashu, s, pending, () => w.meltProofsBolt11(q, selection.send));
    } catch (e) {
      // The answer was lost, but the mint said what happened (NUT-05 quote state): paid, or on its way.
      const settledEvent = s.state.outbox.find(
        (x) => x.type === "ecash.sent" && x.payload.op === op && x.payload.amount !== "0",
      );
      if (settledEvent?.type === "ecash.sent") {
        cashu.melts.delete(quoteId);
        return {
          status: "paid" as const,
          amountSats,
          feeSats: BigInt(settledEvent.payload.fee),
          preimage: null,
          events: [settledEvent],
        };
      }
      if ((s.state.pending as PendingOp | null)?.op === op)
        return { status: "pending" as const, amountSats, feeSats: 0n, preimage: null, events: [] };
      throw e;
    }
    cashu.melts.delete(quoteId);
    if (res.quote.state !== MeltQuoteState.PAID) {
      // Pending at the mint: it stays written down, settled later by asking (never paid again).
      const events = res.quote.state === MeltQuoteState.PENDING ? [] : await settled(cashu, s);
      if (res.quote.state === MeltQuoteState.PENDING)
        return { status: "pending" as const, amountSats, feeSats: 0n, preimage: null, events };
      throw refusal("Payment failed");
    }
    const change = res.change.map(toStored);
    addProofs(s, change);
    const paidFee = sumProofs(inputs) - amountSats - sumProofs(change);
    const events = record(s, [
      ecashMoved("ecash.sent", s.url, op, amountSats, paidFee, via, seen.paymentHash),
    ]);
    s.state.pending = null;
    await cashu.persist(s);
    return {
      status: "paid" as const,
      amountSats,
      feeSats: paidFee < 0n ? 0n : paidFee,
      preimage: res.quote.payment_preimage ?? null,
      events,
    };
  });

/**
 * Ecash in over lightning (NUT-04): a mint quote's invoice, checked against what was asked, and the proofs
 * minted once the mint says it was paid (or restored, when an earlier mint request's answer was lost).
 */
import { ecashMoved } from "../moved";
import { MintQuoteState } from "@cashu/cashu-ts";
import type { NewEvent } from "../../../events/make";
import { decodeBolt11 } from "../../parse";
import { fromMint, refusal, restoreRanges, sats, toStored } from "./proofs";
import { addProofs, type Cashu, record } from "./session";
import { type StoredProof, sumProofs } from "./state";

/** An invoice of the mint of `mint` that mints `amountSats` into the wallet once paid. */
export const receiveQuote = (cashu: Cashu, mint: string, amountSats: bigint, via: "lightning" | "transfer") =>
  cashu.withMint(mint, async (s) => {
    const w = await cashu.walletOf(s);
    const q = await fromMint(w.createMintQuoteBolt11(amountSats));
    const invoice = decodeBolt11(q.request);
    if (!invoice || invoice.amountMsat !== amountSats * 1000n || sats(q.amount) !== amountSats)
      throw refusal("The mint answered an invoice for another amount.");
    s.state.quotes.push({
      quote: q.quote,
      op: cashu.uuid(),
      amount: amountSats.toString(),
      bolt11: q.request,
      paymentHash: invoice.paymentHash,
      expiresAt: q.expiry ?? invoice.expiresAt,
      ranges: [],
      via,
    });
    await cashu.persist(s);
    return {
      bolt11: q.request,
      paymentHash: invoice.paymentHash,
      amountSats,
      expiresAt: q.expiry ?? invoice.expiresAt,
    };
  });

/** Mints what was paid of the open quotes of `mint`, and forgets the ones that expired unpaid. */
export const checkQuotes = (cashu: Cashu, mint: string) =>
  cashu.withMint(mint, async (s) => {
    if (s.state.quotes.length === 0) return [] as NewEvent[];
    const w = await cashu.walletOf(s);
    const events: NewEvent[] = [];
    for (const q of [...s.state.quotes]) {
      const drop = () => {
        s.state.quotes = s.state.quotes.filter((x) => x.quote !== q.quote);
      };
      const status = await w.checkMintQuoteBolt11(q.quote);
      let proofs: StoredProof[] | null = null;
      if (status.state === MintQuoteState.PAID) {
        s.current = q.ranges;
        try {
          proofs = (await w.mintProofsBolt11(BigInt(q.amount), q.quote)).map(toStored);
        } finally {
          s.current = null;
        }
      } else if (status.state === MintQuoteState.ISSUED) {
        proofs = q.ranges.length > 0 ? await restoreRanges(w, q.ranges) : [];
      } else if (q.expiresAt !== null && q.expiresAt * 1000 < cashu.now()) {
        drop();
        await cashu.persist(s);
        continue;
      }
      if (proofs === null) continue;
      addProofs(s, proofs);
      drop();
      const got = sumProofs(proofs);
      events.push(
        ecashMoved("ecash.received", s.url, q.op, got, BigInt(q.amount) - got, q.via, q.paymentHash),
      );
      record(s, events.slice(-1));
      await cashu.persist(s);
    }
    return events;
  });

/** The payment strings written in chat messages (spec 2 chat: invoice from message), and what they leave. */
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { parsePaymentRequest } from "../../engine/parse/parse";
import type { Network } from "../../events/types";
import type { LightningState } from "../../projections/lightning";

/** Message words longer than this are tried as payment strings (spec 2 chat). */
export const INVOICE_WORD_MIN = 16;

/**
 * The payment strings in `text`: each word longer than 15 characters that parses as a payment request with
 * a lightning invoice. Never throws, whatever the text.
 */
export const invoicesIn = (
  text: string,
  network: Network,
): { original: string; invoice: string; amount_sats: bigint | null; paymentHash: string | null }[] => {
  const out: { original: string; invoice: string; amount_sats: bigint | null; paymentHash: string | null }[] =
    [];
  for (const word of text.split(/\s+/)) {
    if (word.length < INVOICE_WORD_MIN) continue;
    try {
      const parsed = parsePaymentRequest(word, network);
      if (!parsed.invoice) continue;
      const decoded = decodeBolt11(parsed.invoice);
      out.push({
        original: word,
        invoice: parsed.invoice,
        amount_sats: parsed.amount_sats,
        paymentHash: decoded?.paymentHash ?? null,
      });
    } catch {
      // Not a payment string: a word like any other.
    }
  }
  return out;
};

/** A message's own words beside the payment strings in it (a request's note), lines kept as written. */
export const noteBeside = (text: string, found: readonly { original: string }[]): string =>
  found
    .reduce((rest, inv) => rest.replace(inv.original, " "), text)
    .replace(/[ \t]{2,}/g, " ")
    .trim();

/** Whether the invoice with `hash` was paid: received by the wallet, or paid by it. */
export const invoicePaid = (lightning: LightningState, hash: string | null): boolean => {
  if (hash === null) return false;
  if (lightning.invoices.get(hash)?.paidMsat != null) return true;
  for (const p of lightning.payments.values())
    if (p.paymentHash === hash && p.status === "succeeded") return true;
  return false;
};

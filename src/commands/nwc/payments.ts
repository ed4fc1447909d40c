/**
 * The wallet-connect desk's payments: which payments a request asks for (an invoice, several, a keysend),
 * checked as the owner's own send checks them; then making each accepted one through the owner's payment
 * commands (exact amount, fee limit, network, expiry) and answering the app with its outcome.
 */
import { msatToSatsUp } from "../../engine/amount";
import type { Reply } from "../../engine/nwc/service";
import {
  failure,
  MultiPayInvoiceParams,
  type Nip47Response,
  PayInvoiceParams,
  PayKeysendParams,
  paramsOf,
  success,
} from "../../engine/nwc/protocol";
import { decodeBolt11, networkAccepted } from "../../engine/parse";
import type { NwcProfileRecord } from "../../crdt/doc";
import type { States } from "../../projections";
import type { PaymentOutcome } from "../command";
import { ALREADY_PAID, alreadyPaid, feeLimitMsatOf, place } from "./budget";
import { type Desk, nextCommit, type PaymentPart, profileOf, recordAnswer, type Turn } from "./turn";

/**
 * How a payment request of connection `profile` is decided (`t` answers it); with `ask`, it waits for the
 * owner whatever the connection's settings.
 */
type DecidePayment = (
  desk: Desk,
  t: Turn,
  s: States,
  profile: NwcProfileRecord,
  now: number,
  ask: boolean,
) => void;

/**
 * pay_invoice and multi_pay_invoice: each invoice checked, then placed (paid, held or over budget); with
 * `ask`, every payment waits for the owner whatever the connection's settings.
 */
export const decideInvoices: DecidePayment = (desk, t, s, profile, now, ask) => {
  const { r } = t;
  const multi = r.method === "multi_pay_invoice";
  const list = multi
    ? (paramsOf(MultiPayInvoiceParams, r.params)?.invoices ?? [null])
    : [paramsOf(PayInvoiceParams, r.params)];
  if (multi && list.length === 0) {
    t.record();
    t.answer(failure(r.method, "OTHER", "No invoices to pay."));
    return;
  }
  let budgetSpent = 0n;
  // Parts decided in this turn are not in the log yet: the same part or invoice twice is paid once.
  const partsNow = new Set<string>();
  const hashesNow = new Set<string>();
  for (const [n, p] of list.entries()) {
    const tag = multi ? (p?.id ?? decodeBolt11(p?.invoice ?? "")?.paymentHash ?? String(n)) : undefined;
    const requestId = multi ? `${r.requestId}:${tag}` : r.requestId;
    if (multi) {
      if (s.nwc.requests.has(requestId) || partsNow.has(requestId)) continue;
      partsNow.add(requestId);
      t.record(requestId);
    }
    const refuse = (code: Parameters<typeof failure>[1], message: string) =>
      t.answer(failure(r.method, code, message), requestId, tag);
    const decoded = p ? decodeBolt11(p.invoice.trim().replace(/^lightning:/i, "")) : null;
    if (!p || !decoded) {
      refuse("OTHER", "Invalid payment request");
      continue;
    }
    if (!networkAccepted(decoded.network, desk.host.network)) {
      refuse("OTHER", `Destination is for ${decoded.network} but you're on ${desk.host.network}`);
      continue;
    }
    if (decoded.expiresAt * 1000 <= now) {
      refuse("OTHER", "This invoice has expired.");
      continue;
    }
    const given = p.amount === undefined ? null : Number.isSafeInteger(p.amount) ? BigInt(p.amount) : -1n;
    const amountMsat = decoded.amountMsat ?? given;
    if (
      amountMsat === null ||
      amountMsat <= 0n ||
      (decoded.amountMsat !== null && given !== null && given !== decoded.amountMsat) ||
      (decoded.amountMsat === null && amountMsat % 1000n !== 0n)
    ) {
      refuse("OTHER", "The amount does not match the invoice.");
      continue;
    }
    if (s.lightning.invoices.has(decoded.paymentHash)) {
      refuse("OTHER", "This invoice was made by this wallet.");
      continue;
    }
    if (alreadyPaid(s, decoded.paymentHash) || hashesNow.has(decoded.paymentHash)) {
      refuse("PAYMENT_FAILED", ALREADY_PAID);
      continue;
    }
    const part: PaymentPart = {
      requestId,
      ...(tag === undefined ? {} : { d: tag }),
      method: r.method,
      bolt11: decoded.invoice,
      keysendTo: null,
      paymentHash: decoded.paymentHash,
      amountMsat,
      feeLimitMsat: feeLimitMsatOf(amountMsat),
      expiresAt: decoded.expiresAt,
    };
    hashesNow.add(decoded.paymentHash);
    const { placed, reserved } = place(desk, t.d, s, profile, part, budgetSpent, now, { hold: true, ask });
    budgetSpent += reserved;
    if (placed === "over_budget") refuse("QUOTA_EXCEEDED", "This payment is over the connection's budget.");
  }
};

/** pay_keysend: checked, then paid now or refused (a keysend cannot wait for the owner). */
export const decideKeysend: DecidePayment = (desk, t, s, profile, now, ask) => {
  const { r } = t;
  const p = paramsOf(PayKeysendParams, r.params);
  const pubkey = p?.pubkey.trim().toLowerCase() ?? "";
  if (!p || !/^0[23][0-9a-f]{64}$/.test(pubkey) || !Number.isSafeInteger(p.amount) || p.amount <= 0) {
    t.answer(failure(r.method, "OTHER", "Invalid payment request"));
    return;
  }
  if (p.preimage !== undefined) {
    t.answer(failure(r.method, "NOT_IMPLEMENTED", "The wallet chooses a keysend's preimage itself."));
    return;
  }
  const amountMsat = BigInt(p.amount);
  if (amountMsat % 1000n !== 0n) {
    t.answer(failure(r.method, "OTHER", "The amount must be a whole number of sats."));
    return;
  }
  if (profile.require_approval || ask) {
    t.answer(
      failure(
        r.method,
        "RESTRICTED",
        "This connection asks the owner for each payment: keysend cannot wait.",
      ),
    );
    return;
  }
  const part: PaymentPart = {
    requestId: r.requestId,
    method: r.method,
    bolt11: null,
    keysendTo: pubkey,
    paymentHash: null,
    amountMsat,
    feeLimitMsat: feeLimitMsatOf(amountMsat),
    expiresAt: 0,
  };
  const { placed } = place(desk, t.d, s, profile, part, 0n, now, { hold: false, ask });
  if (placed === "over_budget")
    t.answer(failure(r.method, "QUOTA_EXCEEDED", "This payment is over the connection's budget."));
};

const paidAnswer = (part: PaymentPart, paymentHash: string, preimage: string, feeMsat: bigint) =>
  success(part.method, {
    preimage,
    fees_paid: Number(feeMsat),
    ...(part.keysendTo !== null ? { payment_hash: paymentHash } : {}),
  });

/** Waits until the log holds the payment's final outcome (a payment that timed out is still on its way). */
const settled = async (desk: Desk, part: PaymentPart, paymentHash: string): Promise<Nip47Response> => {
  for (;;) {
    const s = desk.host.states();
    const all = [...s.lightning.payments.values()].filter((p) => p.paymentHash === paymentHash);
    const won = all.find((p) => p.status === "succeeded");
    if (won) return paidAnswer(part, paymentHash, won.preimage ?? "", won.feeMsat);
    if (all.length > 0 && all.every((p) => p.status === "failed"))
      return failure(part.method, "PAYMENT_FAILED", all.at(-1)?.reason ?? "The payment failed.");
    await nextCommit(desk);
  }
};

/**
 * Makes an accepted payment through the owner's own payment command and answers with its outcome: at once
 * when the node says it succeeded (its preimage and fee), else once the log holds its final outcome. The
 * answer is recorded in the queue while it goes out: the app waits for nothing but the payment. Recorded or
 * not, the request is decided (it is never paid again); one a stop left unrecorded is answered again, alike,
 * at the next start (`recover.ts`).
 */
export const pay = async (desk: Desk, index: number, part: PaymentPart): Promise<Reply> => {
  const { host } = desk;
  if (part.keysendTo !== null || part.bolt11 !== null) await host.whenChannelsBack();
  const profile = profileOf(host.states(), index);
  const labels = profile ? [profile.name] : [];
  // The fee limit reserved from the budget is the most the payment may pay in fees.
  const maxFeeSats = part.feeLimitMsat / 1000n;
  const answer = await host.run(
    part.keysendTo !== null
      ? { _tag: "Keysend", pubkey: part.keysendTo, amountSats: part.amountMsat / 1000n, labels, maxFeeSats }
      : {
          _tag: "PayInvoice",
          bolt11: part.bolt11 ?? "",
          amountSats: msatToSatsUp(part.amountMsat),
          labels,
          maxFeeSats,
        },
  );
  let response: Nip47Response;
  if (answer.ok) {
    const v = answer.value as PaymentOutcome;
    response =
      v.status === "succeeded" && v.preimage !== undefined && v.feeMsat !== undefined
        ? paidAnswer(part, v.paymentHash, v.preimage, v.feeMsat)
        : await settled(desk, part, v.paymentHash);
  } else {
    const code =
      answer.error._tag === "InsufficientFunds"
        ? "INSUFFICIENT_BALANCE"
        : answer.error._tag === "PaymentFailed"
          ? "PAYMENT_FAILED"
          : "OTHER";
    response = failure(part.method, code, answer.error.message);
  }
  void recordAnswer(desk, part.requestId, response).catch(() => undefined);
  return part.d === undefined ? { response } : { response, d: part.d };
};

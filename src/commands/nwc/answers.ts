/**
 * The wallet-connect desk's NIP-47 answers that move no money: what the wallet is, holds and did
 * (get_info, get_balance, lookup_invoice, list_transactions) and the invoices an app asks for
 * (make_invoice). Each reads the log as it is; an invoice is made through the owner's own command.
 */
import type { IncomingRequest, Reply } from "../../engine/nwc/service";
import {
  failure,
  ListTransactionsParams,
  LookupInvoiceParams,
  MakeInvoiceParams,
  METHODS,
  type Nip47Response,
  type Nip47Transaction,
  NOTIFICATIONS,
  paramsOf,
  success,
} from "../../engine/nwc/protocol";
import { decodeBolt11 } from "../../engine/parse";
import type { States } from "../../projections";
import { balanceOf } from "../../projections/balance";
import type { Invoice, OutgoingPayment } from "../../projections/lightning";
import { type Desk, type InvoiceAsked, profileOf, recordAnswer, seconds, type Turn } from "./turn";

export const incomingTransaction = (i: Invoice): Nip47Transaction => ({
  type: "incoming",
  state: i.paidMsat !== null ? "settled" : "pending",
  invoice: i.bolt11,
  description: i.description,
  description_hash: "",
  preimage: "",
  payment_hash: i.paymentHash,
  amount: Number(i.paidMsat ?? i.amountMsat ?? 0n),
  fees_paid: 0,
  created_at: seconds(i.createdAt),
  expires_at: i.expiresAt,
  settled_at: i.paidAt === null ? null : seconds(i.paidAt),
  metadata: {},
});

export const outgoingTransaction = (p: OutgoingPayment): Nip47Transaction => ({
  type: "outgoing",
  state: p.status === "succeeded" ? "settled" : p.status === "failed" ? "failed" : "pending",
  invoice: p.bolt11 ?? "",
  description: "",
  description_hash: "",
  preimage: p.preimage ?? "",
  payment_hash: p.paymentHash ?? "",
  amount: Number(p.amountMsat),
  fees_paid: Number(p.feeMsat),
  created_at: seconds(p.startedAt),
  expires_at: null,
  settled_at: p.finishedAt === null ? null : seconds(p.finishedAt),
  metadata: {},
});

const info = (desk: Desk, s: States) => {
  let height = 0;
  let hash = "";
  for (const t of s.onchain.txs.values())
    if (t.confirmation && t.confirmation.height > height) {
      height = t.confirmation.height;
      hash = t.confirmation.blockHash;
    }
  const network = desk.host.network === "bitcoin" ? "mainnet" : desk.host.network;
  return {
    alias: "Mutiny",
    color: "#000000",
    pubkey: desk.host.lightning()?.node.nodeId ?? "",
    network,
    block_height: height,
    block_hash: hash,
    methods: [...METHODS],
    notifications: [...NOTIFICATIONS],
  };
};

const transactions = (
  s: States,
  p: NonNullable<ReturnType<typeof paramsOf<typeof ListTransactionsParams>>>,
): Nip47Transaction[] => {
  const all: Nip47Transaction[] = [];
  if (p.type !== "outgoing")
    for (const i of s.lightning.invoices.values())
      if (i.paidMsat !== null || p.unpaid === true) all.push(incomingTransaction(i));
  if (p.type !== "incoming")
    for (const x of s.lightning.payments.values())
      if (x.status === "succeeded" || p.unpaid === true) all.push(outgoingTransaction(x));
  const from = p.from ?? 0;
  const until = p.until ?? Number.MAX_SAFE_INTEGER;
  const offset = Math.max(0, Math.trunc(p.offset ?? 0));
  const limit = Math.max(0, Math.min(Math.trunc(p.limit ?? 50), 500));
  return all
    .filter((t) => t.created_at >= from && t.created_at <= until)
    .sort((a, b) => b.created_at - a.created_at || (a.payment_hash < b.payment_hash ? -1 : 1))
    .slice(offset, offset + limit);
};

/** The answer to a request that reads the wallet, or null when `r` is not one of them. */
export const readAnswer = (desk: Desk, r: IncomingRequest, s: States): Nip47Response | null => {
  switch (r.method) {
    case "get_info":
      return success(r.method, info(desk, s));
    case "get_balance":
      return success(r.method, { balance: Number(balanceOf(s.onchain, s.lightning).lightning * 1000n) });
    case "lookup_invoice": {
      const p = paramsOf(LookupInvoiceParams, r.params);
      const hash =
        p?.payment_hash?.toLowerCase() ??
        (p?.invoice ? (decodeBolt11(p.invoice)?.paymentHash ?? null) : null);
      const invoice = hash ? s.lightning.invoices.get(hash) : undefined;
      const payment = hash
        ? [...s.lightning.payments.values()].find((x) => x.paymentHash === hash)
        : undefined;
      if (invoice) return success(r.method, incomingTransaction(invoice));
      if (payment) return success(r.method, outgoingTransaction(payment));
      return failure(r.method, "NOT_FOUND", "The wallet knows no invoice with this payment hash.");
    }
    case "list_transactions": {
      const p = paramsOf(ListTransactionsParams, r.params);
      if (!p) return failure(r.method, "OTHER", "The parameters of list_transactions are malformed.");
      return success(r.method, { transactions: transactions(s, p) });
    }
    default:
      return null;
  }
};

/** make_invoice: refused now when its parameters are wrong, else the invoice to make after the turn. */
export const decideInvoice = (t: Turn): void => {
  const { r } = t;
  const p = paramsOf(MakeInvoiceParams, r.params);
  const msat = p ? BigInt(Math.max(0, Math.trunc(p.amount))) : 0n;
  if (!p || !Number.isSafeInteger(p.amount) || msat <= 0n || msat % 1000n !== 0n) {
    t.answer(failure(r.method, "OTHER", "The amount must be a whole number of sats above 0."));
    return;
  }
  const descriptionHash = p.description_hash?.toLowerCase() ?? null;
  if (descriptionHash !== null && !/^[0-9a-f]{64}$/.test(descriptionHash)) {
    t.answer(failure(r.method, "OTHER", "The description hash must be 32 bytes in hex."));
    return;
  }
  // An invoice for a lightning address or a zap commits to the payer's metadata by its hash.
  t.d.invoice = { amountSats: msat / 1000n, description: p.description ?? "", descriptionHash };
};

/**
 * The label of an invoice an app asked for: what the payer wrote (the description: a lightning address's
 * comment, a zap's note; from LUD-06 metadata, its text), as the closed-tab path labels its ecash; the
 * connection's name only when the payer wrote nothing, so a payment to the owner's lightning address made
 * through the Plus connection never reads like a Plus charge.
 */
export const invoiceLabels = (connection: string | null, description: string): string[] => {
  const text = metadataText(description) ?? description.trim();
  if (text !== "") return [text.slice(0, 255)];
  return connection ? [connection] : [];
};

/** The text/plain entry of LUD-06 metadata (a JSON array of [type, content] pairs), or null. */
const metadataText = (description: string): string | null => {
  if (!description.startsWith("[")) return null;
  try {
    const entries: unknown = JSON.parse(description);
    if (!Array.isArray(entries)) return null;
    const plain = entries.find(
      (e): e is [string, string] => Array.isArray(e) && e[0] === "text/plain" && typeof e[1] === "string",
    );
    return plain ? plain[1].trim() : "";
  } catch {
    return null;
  }
};

/** Makes the invoice an app asked for through the owner's own command, and answers with it. */
export const makeInvoice = async (desk: Desk, r: IncomingRequest, inv: InvoiceAsked): Promise<Reply> => {
  const profile = profileOf(desk.host.states(), r.index);
  const answer = await desk.host.run({
    _tag: "CreateInvoice",
    amountSats: inv.amountSats,
    labels: invoiceLabels(profile?.name ?? null, inv.description),
    description: inv.description,
    ...(inv.descriptionHash !== null ? { descriptionHash: inv.descriptionHash } : {}),
  });
  let response: Nip47Response;
  if (answer.ok) {
    const v = answer.value as { paymentHash: string };
    const invoice = desk.host.states().lightning.invoices.get(v.paymentHash);
    response = invoice
      ? success(r.method, incomingTransaction(invoice))
      : failure(r.method, "INTERNAL", "The invoice was not recorded.");
  } else response = failure(r.method, "OTHER", answer.error.message);
  await recordAnswer(desk, r.requestId, response);
  return { response };
};

/**
 * The wallet's side of wallet-connect: what to answer each app request, decided in the command queue on
 * the log as it is, and recorded before anything is paid.
 *
 * Money rules kept here:
 * - A request id is decided once: its `nwc.request` event is appended in the same queue turn that decides
 *   it, so a second delivery (the relay twice, a reload, another subscription) finds it and pays nothing.
 * - A payment is recorded as accepted (counting against the budget) before it is made, and is made through
 *   the same `PayInvoice`/`Keysend` commands the owner uses (exact amount, fee limit, network, expiry). A
 *   payment accepted but never answered (a crash) is answered from the payment's outcome, never made again.
 * - Budgets are a fold of those events (`src/projections/nwc.ts`); a payment over budget or on a connection
 *   that requires approval waits for the owner in the requests tab.
 */
import { msatToSatsUp } from "../engine/amount";
import type { LightningPort } from "../engine/lightning/live";
import type { IncomingRequest, NwcHooks, NwcPort, Reply, ReplyTarget } from "../engine/nwc/service";
import {
  failure,
  LookupInvoiceParams,
  ListTransactionsParams,
  MakeInvoiceParams,
  METHODS,
  MultiPayInvoiceParams,
  type Nip47Response,
  type Nip47Transaction,
  NOTIFICATIONS,
  type NotificationType,
  PayInvoiceParams,
  PayKeysendParams,
  paramsOf,
  success,
} from "../engine/nwc/protocol";
import { decodeBolt11, networkAccepted } from "../engine/parse";
import type { NwcProfileRecord } from "../crdt/doc";
import { type NewEvent, newEvent } from "../events/make";
import type { Network, WalletEvent } from "../events/types";
import type { States } from "../projections";
import { crdtProjection } from "../projections/crdt";
import type { Invoice, OutgoingPayment } from "../projections/lightning";
import {
  budgetRemaining,
  type NwcRequest,
  nwcProfileOf,
  nwcProfilesOf,
  unansweredPayments,
} from "../projections/nwc";
import { balanceOf } from "../projections/balance";
import type { Command } from "./command";
import type { WireError } from "../errors";

type CommandAnswer = { ok: true; value: unknown } | { ok: false; error: WireError };

export interface NwcDeskHost {
  readonly enqueue: <T>(f: () => Promise<T>) => Promise<T>;
  readonly commit: (events: readonly NewEvent[]) => Promise<void>;
  readonly states: () => States;
  /** Runs a command as the owner's screens do (it takes its own turn in the queue). */
  readonly run: (command: Command) => Promise<CommandAnswer>;
  readonly nwc: () => NwcPort | null;
  readonly lightning: () => LightningPort | null;
  /** Resolves once the lightning node runs, failed, or will not start. */
  readonly whenLightning: () => Promise<void>;
  /** Resolves once the node's channels are back with their peers (or it has none), or after a while. */
  readonly whenChannelsBack: () => Promise<void>;
  readonly now: () => number;
  readonly network: Network;
}

/** One payment a request asks for (a multi-payment has several, each with its own id). */
interface PaymentPart {
  readonly requestId: string;
  readonly d?: string;
  readonly method: string;
  readonly bolt11: string | null;
  readonly keysendTo: string | null;
  readonly paymentHash: string | null;
  readonly amountMsat: bigint;
  readonly expiresAt: number;
}

/** What a request turned into in its queue turn: replies now, and payments to make after it. */
interface Decision {
  readonly events: NewEvent[];
  readonly replies: Reply[];
  readonly pay: PaymentPart[];
  readonly invoice: { amountSats: bigint; description: string; descriptionHash: string | null } | null;
}

export const APPROVAL_DENIED = "The owner denied this payment.";
const ALREADY_PAID = "An invoice must not get paid twice.";

const responseOf = (json: string): Nip47Response | null => {
  try {
    return JSON.parse(json) as Nip47Response;
  } catch {
    return null;
  }
};

const seconds = (ms: number): number => Math.floor(ms / 1000);

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

/** A payment's outcome as the log knows it, by payment hash (or, for keysend, by what started it). */
const outcomeOf = (
  s: States,
  r: NwcRequest,
  profileName: string,
): { status: "succeeded"; preimage: string; feeMsat: bigint } | { status: "failed" | "pending" } | null => {
  const hash = r.payment?.paymentHash ?? null;
  const matches = [...s.lightning.payments.values()].filter((p) =>
    hash !== null
      ? p.paymentHash === hash
      : p.bolt11 === null &&
        p.amountMsat === r.payment?.amountMsat &&
        p.startedAt >= (r.acceptedAt ?? 0) &&
        p.labels.includes(profileName),
  );
  const won = matches.find((p) => p.status === "succeeded");
  if (won) return { status: "succeeded", preimage: won.preimage ?? "", feeMsat: won.feeMsat };
  if (matches.some((p) => p.status === "pending")) return { status: "pending" };
  if (matches.length > 0) return { status: "failed" };
  return null;
};

const profileOf = (s: States, index: number): NwcProfileRecord | null =>
  nwcProfileOf(crdtProjection.view(s.crdt), index);

export class NwcDesk {
  private readonly waiters = new Set<() => void>();
  private recovering = false;
  /** Requests this run accepted: their payments are under way here, not left over by a stop. */
  private readonly acceptedHere = new Set<string>();

  constructor(private readonly host: NwcDeskHost) {}

  /** What the service engine asks of the wallet. */
  hooks(): NwcHooks {
    return {
      connections: () =>
        nwcProfilesOf(crdtProjection.view(this.host.states().crdt))
          .filter((p) => p.enabled)
          .map((p) => ({ index: p.index, appPubkey: p.app_pubkey })),
      since: () => {
        // Requests that waited on the relay while the wallet was off: from the last one seen (a minute of
        // slack for clocks), at most a day back. Those already decided are recognised by their id.
        let last = 0;
        for (const r of this.host.states().nwc.requests.values()) last = Math.max(last, r.receivedAt);
        const dayAgo = seconds(this.host.now()) - 86_400;
        return Math.max(dayAgo, seconds(last) - 60);
      },
      request: (r) => this.request(r),
    };
  }

  /** After each commit: wakes payments waiting for their outcome and sends the apps' notifications. */
  observe(fresh: readonly WalletEvent[]): void {
    for (const w of [...this.waiters]) w();
    const port = this.host.nwc();
    if (!port) return;
    const s = this.host.states();
    for (const e of fresh) {
      if (e.type === "ln.payment_received") {
        const invoice = s.lightning.invoices.get(e.payload.payment_hash);
        const index = invoice ? this.invoiceConnection(s, invoice.paymentHash) : null;
        if (invoice && index !== null)
          this.notify(port, index, "payment_received", incomingTransaction(invoice));
      } else if (e.type === "ln.payment_sent") {
        const payment = s.lightning.payments.get(e.payload.payment_id);
        const index = this.paymentConnection(s, e.payload.payment_hash);
        if (payment && index !== null) this.notify(port, index, "payment_sent", outgoingTransaction(payment));
      }
    }
  }

  private notify(port: NwcPort, index: number, type: NotificationType, tx: Nip47Transaction): void {
    const profile = profileOf(this.host.states(), index);
    if (!profile?.enabled) return;
    void port.notify(index, profile.app_pubkey ?? port.clientPubkey(index), type, tx).catch(() => undefined);
  }

  /** The connection whose `make_invoice` made the invoice `hash`. */
  private invoiceConnection(s: States, hash: string): number | null {
    for (const r of s.nwc.requests.values()) {
      if (r.method !== "make_invoice") continue;
      for (const json of r.responses) {
        const result = responseOf(json)?.result as { payment_hash?: string } | undefined;
        if (result?.payment_hash === hash) return r.index;
      }
    }
    return null;
  }

  private paymentConnection(s: States, hash: string): number | null {
    for (const r of s.nwc.requests.values())
      if (r.acceptedAt !== null && r.payment?.paymentHash === hash) return r.index;
    return null;
  }

  /** Decides a request and, for a payment, makes it; resolves with what to send the app now. */
  async request(r: IncomingRequest): Promise<readonly Reply[]> {
    const decision = await this.host.enqueue(async () => {
      const d = this.decide(r, this.host.states());
      await this.host.commit(d.events);
      return d;
    });
    const replies = [...decision.replies];
    if (decision.invoice) replies.push(await this.makeInvoice(r, decision.invoice));
    // The parts of a multi-payment go out side by side; each answers for itself.
    const paid = await Promise.all(decision.pay.map((part) => this.pay(r.index, part)));
    return [...replies, ...paid];
  }

  /** The decision of one request on the log as it is; appends nothing itself. */
  private decide(r: IncomingRequest, s: States): Decision {
    const seen = s.nwc.requests.get(r.requestId);
    const events: NewEvent[] = [];
    const replies: Reply[] = [];
    const d: Decision = { events, replies, pay: [], invoice: null };
    if (seen) {
      // Delivered again: the answers already sent go out again; nothing is decided twice.
      for (const json of seen.responses) {
        const response = responseOf(json);
        if (response) replies.push({ response });
      }
      return d;
    }
    const parts = s.nwc.requests;
    const recordRequest = (requestId: string) =>
      events.push(
        newEvent("nwc.request", {
          request_id: requestId,
          index: r.index,
          method: r.method,
          app: r.app,
          encryption: r.encryption,
          expires_at: r.expiresAt,
        }),
      );
    const answer = (response: Nip47Response, requestId = r.requestId, tag?: string) => {
      events.push(newEvent("nwc.answered", { request_id: requestId, response: JSON.stringify(response) }));
      replies.push(tag === undefined ? { response } : { response, d: tag });
    };
    // A multi-payment's parts are recorded under their own ids; the request itself under its event id.
    if (r.method !== "multi_pay_invoice") recordRequest(r.requestId);
    const profile = profileOf(s, r.index);
    const now = this.host.now();
    if (!profile?.enabled) {
      if (r.method === "multi_pay_invoice") recordRequest(r.requestId);
      answer(failure(r.method, "UNAUTHORIZED", "This connection is not enabled in the wallet."));
      return d;
    }
    if (r.expiresAt !== null && r.expiresAt * 1000 <= now) {
      if (r.method === "multi_pay_invoice") recordRequest(r.requestId);
      answer(failure(r.method, "OTHER", "The request expired before the wallet saw it."));
      return d;
    }
    switch (r.method) {
      case "get_info": {
        answer(success(r.method, this.info(s)));
        return d;
      }
      case "get_balance": {
        answer(success(r.method, { balance: Number(balanceOf(s.onchain, s.lightning).lightning * 1000n) }));
        return d;
      }
      case "get_budget": {
        const spends = s.nwc.spends.get(r.index) ?? [];
        const total = BigInt(profile.budget_sats);
        const left = budgetRemaining(total, profile.budget_period, spends, now);
        answer(
          success(
            r.method,
            profile.require_approval
              ? {}
              : {
                  used_budget: Number((total - left) * 1000n),
                  total_budget: Number(total * 1000n),
                  renewal_period: ["daily", "weekly", "monthly", "yearly"][profile.budget_period],
                },
          ),
        );
        return d;
      }
      case "lookup_invoice": {
        const p = paramsOf(LookupInvoiceParams, r.params);
        const hash =
          p?.payment_hash?.toLowerCase() ??
          (p?.invoice ? (decodeBolt11(p.invoice)?.paymentHash ?? null) : null);
        const invoice = hash ? s.lightning.invoices.get(hash) : undefined;
        const payment = hash
          ? [...s.lightning.payments.values()].find((x) => x.paymentHash === hash)
          : undefined;
        if (invoice) answer(success(r.method, incomingTransaction(invoice)));
        else if (payment) answer(success(r.method, outgoingTransaction(payment)));
        else answer(failure(r.method, "NOT_FOUND", "The wallet knows no invoice with this payment hash."));
        return d;
      }
      case "list_transactions": {
        const p = paramsOf(ListTransactionsParams, r.params);
        if (!p) {
          answer(failure(r.method, "OTHER", "The parameters of list_transactions are malformed."));
          return d;
        }
        answer(success(r.method, { transactions: this.transactions(s, p) }));
        return d;
      }
      case "make_invoice": {
        const p = paramsOf(MakeInvoiceParams, r.params);
        const msat = p ? BigInt(Math.max(0, Math.trunc(p.amount))) : 0n;
        if (!p || !Number.isSafeInteger(p.amount) || msat <= 0n || msat % 1000n !== 0n) {
          answer(failure(r.method, "OTHER", "The amount must be a whole number of sats above 0."));
          return d;
        }
        const descriptionHash = p.description_hash?.toLowerCase() ?? null;
        if (descriptionHash !== null && !/^[0-9a-f]{64}$/.test(descriptionHash)) {
          answer(failure(r.method, "OTHER", "The description hash must be 32 bytes in hex."));
          return d;
        }
        // An invoice for a lightning address or a zap commits to the payer's metadata by its hash.
        return {
          ...d,
          invoice: { amountSats: msat / 1000n, description: p.description ?? "", descriptionHash },
        };
      }
      case "pay_invoice":
      case "multi_pay_invoice": {
        const list =
          r.method === "pay_invoice"
            ? [paramsOf(PayInvoiceParams, r.params)]
            : (paramsOf(MultiPayInvoiceParams, r.params)?.invoices ?? [null]);
        if (r.method === "multi_pay_invoice" && list.length === 0) {
          recordRequest(r.requestId);
          answer(failure(r.method, "OTHER", "No invoices to pay."));
          return d;
        }
        let budgetSpent = 0n;
        // Parts decided in this turn are not in the log yet: the same part or invoice twice is paid once.
        const partsNow = new Set<string>();
        const hashesNow = new Set<string>();
        for (const [n, p] of list.entries()) {
          const multi = r.method === "multi_pay_invoice";
          const tag = multi ? (p?.id ?? decodeBolt11(p?.invoice ?? "")?.paymentHash ?? String(n)) : undefined;
          const requestId = multi ? `${r.requestId}:${tag}` : r.requestId;
          if (multi) {
            if (parts.has(requestId) || partsNow.has(requestId)) continue;
            partsNow.add(requestId);
            recordRequest(requestId);
          }
          const refuse = (code: Parameters<typeof failure>[1], message: string) =>
            answer(failure(r.method, code, message), requestId, tag);
          const decoded = p ? decodeBolt11(p.invoice.trim().replace(/^lightning:/i, "")) : null;
          if (!p || !decoded) {
            refuse("OTHER", "Invalid payment request");
            continue;
          }
          if (!networkAccepted(decoded.network, this.host.network)) {
            refuse("OTHER", `Destination is for ${decoded.network} but you're on ${this.host.network}`);
            continue;
          }
          if (decoded.expiresAt * 1000 <= now) {
            refuse("OTHER", "This invoice has expired.");
            continue;
          }
          const given =
            p.amount === undefined ? null : Number.isSafeInteger(p.amount) ? BigInt(p.amount) : -1n;
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
          if (this.alreadyPaid(s, decoded.paymentHash) || hashesNow.has(decoded.paymentHash)) {
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
            expiresAt: decoded.expiresAt,
          };
          hashesNow.add(decoded.paymentHash);
          const sats = msatToSatsUp(amountMsat);
          const placed = this.place(d, s, profile, part, sats + budgetSpent, now);
          if (placed === "accepted") budgetSpent += sats;
          if (placed === "over_budget")
            refuse("QUOTA_EXCEEDED", "This payment is over the connection's budget.");
        }
        return d;
      }
      case "pay_keysend": {
        const p = paramsOf(PayKeysendParams, r.params);
        const pubkey = p?.pubkey.trim().toLowerCase() ?? "";
        if (!p || !/^0[23][0-9a-f]{64}$/.test(pubkey) || !Number.isSafeInteger(p.amount) || p.amount <= 0) {
          answer(failure(r.method, "OTHER", "Invalid payment request"));
          return d;
        }
        if (p.preimage !== undefined) {
          answer(failure(r.method, "NOT_IMPLEMENTED", "The wallet chooses a keysend's preimage itself."));
          return d;
        }
        const amountMsat = BigInt(p.amount);
        if (amountMsat % 1000n !== 0n) {
          answer(failure(r.method, "OTHER", "The amount must be a whole number of sats."));
          return d;
        }
        if (profile.require_approval) {
          answer(
            failure(
              r.method,
              "RESTRICTED",
              "This connection asks the owner for each payment: keysend cannot wait.",
            ),
          );
          return d;
        }
        const part: PaymentPart = {
          requestId: r.requestId,
          method: r.method,
          bolt11: null,
          keysendTo: pubkey,
          paymentHash: null,
          amountMsat,
          expiresAt: 0,
        };
        const placed = this.place(d, s, profile, part, msatToSatsUp(amountMsat), now, false);
        if (placed === "over_budget")
          answer(failure(r.method, "QUOTA_EXCEEDED", "This payment is over the connection's budget."));
        return d;
      }
      default:
        answer(failure(r.method, "NOT_IMPLEMENTED", `The wallet does not serve ${r.method}.`));
        return d;
    }
  }

  /** Puts a payment where it belongs: paid now, held for the owner, or over budget (and held). */
  private place(
    d: Decision,
    s: States,
    profile: NwcProfileRecord,
    part: PaymentPart,
    withEarlierParts: bigint,
    now: number,
    hold = true,
  ): "accepted" | "held" | "over_budget" {
    const held = (reason: "approval" | "budget") => {
      if (!hold || part.bolt11 === null || part.paymentHash === null) return;
      d.events.push(
        newEvent("nwc.payment_held", {
          request_id: part.requestId,
          index: profile.index,
          payment_hash: part.paymentHash,
          bolt11: part.bolt11,
          amount_msat: part.amountMsat.toString(),
          reason,
          expires_at: part.expiresAt,
        }),
      );
    };
    if (profile.require_approval) {
      held("approval");
      return "held";
    }
    const left = budgetRemaining(
      BigInt(profile.budget_sats),
      profile.budget_period,
      s.nwc.spends.get(profile.index) ?? [],
      now,
    );
    if (withEarlierParts > left) {
      held("budget");
      return "over_budget";
    }
    d.events.push(this.accepted(profile.index, part));
    d.pay.push(part);
    return "accepted";
  }

  private accepted(index: number, part: PaymentPart): NewEvent {
    this.acceptedHere.add(part.requestId);
    return newEvent("nwc.payment_accepted", {
      request_id: part.requestId,
      index,
      payment_hash: part.paymentHash,
      bolt11: part.bolt11,
      amount_msat: part.amountMsat.toString(),
    });
  }

  /** Paid, on its way, or accepted for another request and not failed: the invoice is not paid again. */
  private alreadyPaid(s: States, hash: string): boolean {
    for (const p of s.lightning.payments.values())
      if (p.paymentHash === hash && p.status !== "failed") return true;
    for (const r of s.nwc.requests.values())
      if (
        r.acceptedAt !== null &&
        r.payment?.paymentHash === hash &&
        (s.nwc.spends.get(r.index)?.some((x) => x.requestId === r.requestId) ?? false)
      )
        return true;
    return false;
  }

  private info(s: States) {
    let height = 0;
    let hash = "";
    for (const t of s.onchain.txs.values())
      if (t.confirmation && t.confirmation.height > height) {
        height = t.confirmation.height;
        hash = t.confirmation.blockHash;
      }
    const network = this.host.network === "bitcoin" ? "mainnet" : this.host.network;
    return {
      alias: "Mutiny",
      color: "#000000",
      pubkey: this.host.lightning()?.node.nodeId ?? "",
      network,
      block_height: height,
      block_hash: hash,
      methods: [...METHODS],
      notifications: [...NOTIFICATIONS],
    };
  }

  private transactions(
    s: States,
    p: NonNullable<ReturnType<typeof paramsOf<typeof ListTransactionsParams>>>,
  ): Nip47Transaction[] {
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
  }

  private async makeInvoice(
    r: IncomingRequest,
    inv: { amountSats: bigint; description: string; descriptionHash: string | null },
  ): Promise<Reply> {
    const profile = profileOf(this.host.states(), r.index);
    const answer = await this.host.run({
      _tag: "CreateInvoice",
      amountSats: inv.amountSats,
      labels: [profile?.name ?? ""].filter((x) => x !== ""),
      description: inv.description,
      ...(inv.descriptionHash !== null ? { descriptionHash: inv.descriptionHash } : {}),
    });
    const response = answer.ok
      ? (() => {
          const v = answer.value as { paymentHash: string };
          const invoice = this.host.states().lightning.invoices.get(v.paymentHash);
          return invoice
            ? success(r.method, incomingTransaction(invoice))
            : failure(r.method, "INTERNAL", "The invoice was not recorded.");
        })()
      : failure(r.method, "OTHER", answer.error.message);
    await this.record(r.requestId, response);
    return { response };
  }

  private record(requestId: string, response: Nip47Response): Promise<void> {
    return this.host.enqueue(() =>
      this.host.commit([
        newEvent("nwc.answered", { request_id: requestId, response: JSON.stringify(response) }),
      ]),
    );
  }

  /** Makes an accepted payment through the owner's own payment command and answers with its outcome. */
  private async pay(index: number, part: PaymentPart): Promise<Reply> {
    if (part.keysendTo !== null || part.bolt11 !== null) await this.host.whenChannelsBack();
    const profile = profileOf(this.host.states(), index);
    const labels = profile ? [profile.name] : [];
    const sats = part.amountMsat / 1000n;
    const answer = await this.host.run(
      part.keysendTo !== null
        ? { _tag: "Keysend", pubkey: part.keysendTo, amountSats: sats, labels }
        : {
            _tag: "PayInvoice",
            bolt11: part.bolt11 ?? "",
            amountSats: msatToSatsUp(part.amountMsat),
            labels,
          },
    );
    let response: Nip47Response;
    if (answer.ok) {
      const v = answer.value as { status: string; paymentHash: string };
      response = await this.settled(part, v.paymentHash);
    } else {
      const code =
        answer.error._tag === "InsufficientFunds"
          ? "INSUFFICIENT_BALANCE"
          : answer.error._tag === "PaymentFailed"
            ? "PAYMENT_FAILED"
            : "OTHER";
      response = failure(part.method, code, answer.error.message);
    }
    await this.record(part.requestId, response);
    return part.d === undefined ? { response } : { response, d: part.d };
  }

  /** Waits until the log holds the payment's final outcome (a payment that timed out is still on its way). */
  private async settled(part: PaymentPart, paymentHash: string): Promise<Nip47Response> {
    for (;;) {
      const s = this.host.states();
      const won = [...s.lightning.payments.values()].find(
        (p) => p.paymentHash === paymentHash && p.status === "succeeded",
      );
      if (won)
        return success(part.method, {
          preimage: won.preimage ?? "",
          fees_paid: Number(won.feeMsat),
          ...(part.keysendTo !== null ? { payment_hash: paymentHash } : {}),
        });
      const all = [...s.lightning.payments.values()].filter((p) => p.paymentHash === paymentHash);
      if (all.length > 0 && all.every((p) => p.status === "failed"))
        return failure(part.method, "PAYMENT_FAILED", all.at(-1)?.reason ?? "The payment failed.");
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
      });
    }
  }

  /** The held payment `requestId`, when the owner may still decide it. */
  private heldRequest(requestId: string): NwcRequest | null {
    const r = this.host.states().nwc.requests.get(requestId);
    return r && r.held !== null && r.acceptedAt === null && !r.denied ? r : null;
  }

  private target(r: NwcRequest): { target: ReplyTarget; d?: string } {
    const cut = r.requestId.indexOf(":");
    return {
      target: {
        index: r.index,
        app: r.app,
        requestId: cut < 0 ? r.requestId : r.requestId.slice(0, cut),
        encryption: r.encryption,
      },
      ...(cut < 0 ? {} : { d: r.requestId.slice(cut + 1) }),
    };
  }

  /**
   * The owner approves a held payment (in the command queue): it is accepted now and made once the queue
   * moves on (`settle`). Answers an error text when it cannot be: gone, expired, or already paid (the
   * screen then denies it).
   */
  async approve(requestId: string): Promise<{ settle: () => Promise<{ paid: boolean }> } | string> {
    const r = this.heldRequest(requestId);
    const payment = r?.payment;
    if (!r || !payment || !r.held) return "This request is no longer waiting.";
    const s = this.host.states();
    if (payment.paymentHash !== null && this.alreadyPaid(s, payment.paymentHash)) return ALREADY_PAID;
    if (r.held.expiresAt * 1000 <= this.host.now()) return "This invoice has expired.";
    const { target, d } = this.target(r);
    const part: PaymentPart = {
      requestId: r.requestId,
      ...(d === undefined ? {} : { d }),
      method: r.method,
      bolt11: payment.bolt11,
      keysendTo: null,
      paymentHash: payment.paymentHash,
      amountMsat: payment.amountMsat,
      expiresAt: r.held.expiresAt,
    };
    await this.host.commit([this.accepted(r.index, part)]);
    return {
      settle: async () => {
        const reply = await this.pay(r.index, part);
        await this.host
          .nwc()
          ?.reply(target, [reply])
          .catch(() => undefined);
        return { paid: reply.response.error === undefined };
      },
    };
  }

  /** The owner denies held payments (in the command queue); an app still waiting is told. */
  async deny(requestIds: readonly string[]): Promise<number> {
    const held = requestIds.map((id) => this.heldRequest(id)).filter((r): r is NwcRequest => r !== null);
    const events: NewEvent[] = [];
    const replies: { target: ReplyTarget; reply: Reply }[] = [];
    for (const r of held) {
      events.push(newEvent("nwc.payment_denied", { request_id: r.requestId }));
      // A payment over budget was answered already (QUOTA_EXCEEDED); one awaiting approval is answered now.
      if (r.responses.length === 0) {
        const response = failure(r.method, "RESTRICTED", APPROVAL_DENIED);
        events.push(
          newEvent("nwc.answered", { request_id: r.requestId, response: JSON.stringify(response) }),
        );
        const { target, d } = this.target(r);
        replies.push({ target, reply: d === undefined ? { response } : { response, d } });
      }
    }
    await this.host.commit(events);
    for (const x of replies)
      void this.host
        .nwc()
        ?.reply(x.target, [x.reply])
        .catch(() => undefined);
    return held.length;
  }

  /**
   * Payments accepted but never answered (the wallet stopped between paying and answering): each is
   * answered from its outcome in the log, once the node had its say; none is paid again.
   */
  async recover(): Promise<void> {
    if (this.recovering) return;
    this.recovering = true;
    try {
      await this.host.whenLightning();
      const s = this.host.states();
      await Promise.all(
        unansweredPayments(s.nwc)
          .filter((r) => !this.acceptedHere.has(r.requestId))
          .map(async (r) => {
            const profile = profileOf(s, r.index);
            const method = r.method;
            const { target, d: tag } = this.target(r);
            let response: Nip47Response;
            for (;;) {
              const o = outcomeOf(this.host.states(), r, profile?.name ?? "");
              if (o === null) {
                response = failure(
                  method,
                  "PAYMENT_FAILED",
                  "The wallet stopped before this payment went out; it was not paid.",
                );
                break;
              }
              if (o.status === "succeeded") {
                response = success(method, { preimage: o.preimage, fees_paid: Number(o.feeMsat) });
                break;
              }
              if (o.status === "failed") {
                response = failure(method, "PAYMENT_FAILED", "The payment failed.");
                break;
              }
              await new Promise<void>((resolve) => {
                const wake = () => {
                  this.waiters.delete(wake);
                  resolve();
                };
                this.waiters.add(wake);
              });
            }
            await this.record(r.requestId, response);
            await this.host
              .nwc()
              ?.reply(target, [tag === undefined ? { response } : { response, d: tag }])
              .catch(() => undefined);
          }),
      );
    } finally {
      this.recovering = false;
    }
  }
}

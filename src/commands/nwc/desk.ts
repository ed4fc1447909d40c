/**
 * The wallet's side of wallet-connect: what to answer each app request, decided in the command queue on
 * the log as it is, and recorded before anything is paid. This file is the request intake (a request is
 * decided once; a second delivery gets the stored answer) and the desk's face to the host; its parts:
 *
 * - `answers.ts`   NIP-47 answers that move no money (info, balance, lookups, invoices made)
 * - `budget.ts`    budgets and approvals (record before paying; pay once)
 * - `payments.ts`  the payments a request asks for, made and answered from their outcome
 * - `recover.ts`   restart recovery (answer from the outcome after a restart)
 */
import type { IncomingRequest, NwcHooks, NwcPort, Reply } from "../../engine/nwc/service";
import { failure, type Nip47Transaction, type NotificationType } from "../../engine/nwc/protocol";
import type { WalletEvent } from "../../events/types";
import type { States } from "../../projections";
import { crdtProjection } from "../../projections/crdt";
import { nwcProfilesOf } from "../../projections/nwc";
import { decideInvoice, incomingTransaction, makeInvoice, outgoingTransaction, readAnswer } from "./answers";
import { acceptHeld, budgetAnswer, deny } from "./budget";
import { decideInvoices, decideKeysend, pay } from "./payments";
import { recover } from "./recover";
import { type Decision, type Desk, type NwcDeskHost, profileOf, responseOf, seconds, turnOf } from "./turn";

export type { NwcDeskHost } from "./turn";

/**
 * A request older than this (by its `created_at`) when it arrives is refused: an app's request is answered
 * within moments, so an old one is a replay (someone kept a signed request to spend it later). A request
 * that waited on the relay while no service listened (the wallet was closed) is old for a good reason:
 * it is served, but a payment it asks for waits for the owner.
 */
export const MAX_REQUEST_AGE_MS = 5 * 60_000;

export class NwcDesk {
  private readonly desk: Desk;
  private recovering = false;

  constructor(private readonly host: NwcDeskHost) {
    this.desk = { host, waiters: new Set(), acceptedHere: new Set() };
  }

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
    for (const w of [...this.desk.waiters]) w();
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
    if (decision.invoice) replies.push(await makeInvoice(this.desk, r, decision.invoice));
    // The parts of a multi-payment go out side by side; each answers for itself.
    const paid = await Promise.all(decision.pay.map((part) => pay(this.desk, r.index, part)));
    return [...replies, ...paid];
  }

  /**
   * The decision of one request on the log as it is; appends nothing itself.
   *
   * Money rule, pay once per request: a request id is decided once. Its `nwc.request` event is appended in
   * the same queue turn that decides it, so a second delivery (the relay twice, a reload, another
   * subscription) finds it and gets the answers already sent, and nothing is decided or paid again.
   */
  private decide(r: IncomingRequest, s: States): Decision {
    const t = turnOf(r);
    const seen = s.nwc.requests.get(r.requestId);
    if (seen) {
      for (const json of seen.responses) {
        const response = responseOf(json);
        if (response) t.d.replies.push({ response });
      }
      return t.d;
    }
    // A multi-payment's parts are recorded under their own ids; the request itself under its event id.
    const multi = r.method === "multi_pay_invoice";
    if (!multi) t.record();
    const refuse = (message: string, code: "UNAUTHORIZED" | "OTHER" = "OTHER") => {
      if (multi) t.record();
      t.answer(failure(r.method, code, message));
      return t.d;
    };
    const profile = profileOf(s, r.index);
    const now = this.host.now();
    if (!profile?.enabled) return refuse("This connection is not enabled in the wallet.", "UNAUTHORIZED");
    if (r.expiresAt !== null && r.expiresAt * 1000 <= now)
      return refuse("The request expired before the wallet saw it.");
    const old = r.createdAt * 1000 < now - MAX_REQUEST_AGE_MS;
    if (old && r.waited !== true) return refuse("The request is too old: send it again.");
    const read = readAnswer(this.desk, r, s);
    if (read) t.answer(read);
    else if (r.method === "get_budget") t.answer(budgetAnswer(s, profile, r.method, now));
    else if (r.method === "make_invoice") decideInvoice(t);
    else if (r.method === "pay_invoice" || multi) decideInvoices(this.desk, t, s, profile, now, old);
    else if (r.method === "pay_keysend") decideKeysend(this.desk, t, s, profile, now, old);
    else t.answer(failure(r.method, "NOT_IMPLEMENTED", `The wallet does not serve ${r.method}.`));
    return t.d;
  }

  /**
   * The owner approves a held payment (in the command queue): it is accepted now and made once the queue
   * moves on (`settle`). Answers an error text when it cannot be: gone, expired, or already paid (the
   * screen then denies it).
   */
  async approve(requestId: string): Promise<{ settle: () => Promise<{ paid: boolean }> } | string> {
    const accepted = await acceptHeld(this.desk, requestId);
    if (typeof accepted === "string") return accepted;
    const { index, part, target } = accepted;
    return {
      settle: async () => {
        const reply = await pay(this.desk, index, part);
        await this.host
          .nwc()
          ?.reply(target, [reply])
          .catch(() => undefined);
        return { paid: reply.response.error === undefined };
      },
    };
  }

  /** The owner denies held payments (in the command queue); an app still waiting is told. */
  deny(requestIds: readonly string[]): Promise<number> {
    return deny(this.desk, requestIds);
  }

  /** Payments accepted but never answered in an earlier run are answered from their outcome (once at a time). */
  async recover(): Promise<void> {
    if (this.recovering) return;
    this.recovering = true;
    try {
      await recover(this.desk);
    } finally {
      this.recovering = false;
    }
  }
}

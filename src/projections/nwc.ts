import type { BudgetPeriod, Doc, NwcProfileRecord } from "../crdt/doc";
import type { NwcEncryption } from "../events/types";
import { msatToSatsUp } from "../engine/amount";
import { projection } from "./projection";

/**
 * Wallet-connect requests and what became of them, folded from the `nwc.*` events: which request ids were
 * seen (a request is decided once), which payments were made (never twice), which wait for the owner, and
 * what each connection spent. Budgets are a function of these events and a moment: replaying the log gives
 * the same budgets on any machine.
 */

export interface NwcRequest {
  readonly requestId: string;
  readonly index: number;
  readonly method: string;
  readonly app: string;
  readonly encryption: NwcEncryption;
  readonly expiresAt: number | null;
  readonly receivedAt: number;
  /** The invoice (or keysend) a payment request asked to pay, once the wallet looked at it. */
  payment: {
    readonly paymentHash: string | null;
    readonly bolt11: string | null;
    readonly amountMsat: bigint;
  } | null;
  /** Waiting for the owner: why, and until when (the invoice's expiry, unix seconds). */
  held: { readonly reason: "approval" | "budget"; readonly expiresAt: number } | null;
  /** The payment was decided and started (at most once); unix ms. */
  acceptedAt: number | null;
  denied: boolean;
  /** The accepted payment's outcome was answered (success or failure). */
  settled: boolean;
  /** The NIP-47 responses sent, as JSON, in order. */
  readonly responses: string[];
}

/**
 * A payment counted against a connection's budget: accepted, and not answered with a failure. Routing fees
 * count: from acceptance it spends its amount plus the most it may pay in fees (the fee limit is reserved),
 * and once answered its amount plus the fee it actually paid (the rest of the reserve comes back).
 */
export interface Spend {
  readonly requestId: string;
  /** Unix ms. */
  readonly at: number;
  readonly sats: bigint;
}

export interface NwcState {
  readonly requests: Map<string, NwcRequest>;
  /** Spends by connection index, in log order. */
  readonly spends: Map<number, Spend[]>;
}

/** How long each budget period lasts: a rolling window ending now. Day, Week, Month (30 days), Year (365). */
export const PERIOD_MS: { readonly [P in BudgetPeriod]: number } = {
  0: 86_400_000,
  1: 7 * 86_400_000,
  2: 30 * 86_400_000,
  3: 365 * 86_400_000,
};

/** What a connection spent in the period that ends at `now` (unix ms): spends strictly inside the window. */
export const spentInPeriod = (spends: readonly Spend[], period: BudgetPeriod, now: number): bigint => {
  const from = now - PERIOD_MS[period];
  let sum = 0n;
  for (const s of spends) if (s.at > from && s.at <= now) sum += s.sats;
  return sum;
};

/** What a connection may still pay without asking in the period ending at `now`; never below zero. */
export const budgetRemaining = (
  budgetSats: bigint,
  period: BudgetPeriod,
  spends: readonly Spend[],
  now: number,
): bigint => {
  const left = budgetSats - spentInPeriod(spends, period, now);
  return left > 0n ? left : 0n;
};

/** A response as the budget reads it: a failure, a success with the fee it paid (msat), or unreadable. */
const outcomeOf = (response: string): { failed: true } | { failed: false; feeMsat: bigint | null } | null => {
  try {
    const r = JSON.parse(response) as { error?: unknown; result?: { fees_paid?: unknown } };
    if (typeof r !== "object" || r === null) return null;
    if (r.error !== undefined && r.error !== null) return { failed: true };
    const fee = r.result?.fees_paid;
    return {
      failed: false,
      feeMsat: typeof fee === "number" && Number.isSafeInteger(fee) && fee >= 0 ? BigInt(fee) : null,
    };
  } catch {
    return null;
  }
};

export const nwcProjection = projection<NwcState, NwcState>({
  name: "nwc",
  initial: () => ({ requests: new Map(), spends: new Map() }),
  apply: (s, e) => {
    switch (e.type) {
      case "nwc.request": {
        const p = e.payload;
        if (s.requests.has(p.request_id)) return s;
        s.requests.set(p.request_id, {
          requestId: p.request_id,
          index: p.index,
          method: p.method,
          app: p.app,
          encryption: p.encryption,
          expiresAt: p.expires_at,
          receivedAt: e.at,
          payment: null,
          held: null,
          acceptedAt: null,
          denied: false,
          settled: false,
          responses: [],
        });
        return s;
      }
      case "nwc.payment_held": {
        const r = s.requests.get(e.payload.request_id);
        if (!r || r.acceptedAt !== null) return s;
        const p = e.payload;
        r.payment = { paymentHash: p.payment_hash, bolt11: p.bolt11, amountMsat: BigInt(p.amount_msat) };
        r.held = { reason: p.reason, expiresAt: p.expires_at };
        return s;
      }
      case "nwc.payment_accepted": {
        const r = s.requests.get(e.payload.request_id);
        // A payment is made once: a second acceptance of the same request (another device's log) is ignored.
        if (!r || r.acceptedAt !== null) return s;
        const p = e.payload;
        const amountMsat = BigInt(p.amount_msat);
        r.payment = { paymentHash: p.payment_hash, bolt11: p.bolt11, amountMsat };
        r.acceptedAt = e.at;
        const list = s.spends.get(p.index) ?? [];
        // The fee limit is reserved with the amount: an app cannot spend past its budget through fees.
        const reserve = BigInt(p.fee_limit_msat ?? "0");
        list.push({ requestId: p.request_id, at: e.at, sats: msatToSatsUp(amountMsat + reserve) });
        s.spends.set(p.index, list);
        return s;
      }
      case "nwc.payment_denied": {
        const r = s.requests.get(e.payload.request_id);
        if (r && r.acceptedAt === null) r.denied = true;
        return s;
      }
      case "nwc.answered": {
        const r = s.requests.get(e.payload.request_id);
        if (!r) return s;
        r.responses.push(e.payload.response);
        if (r.acceptedAt === null || r.settled) return s;
        r.settled = true;
        const list = s.spends.get(r.index);
        const at = list?.findIndex((x) => x.requestId === r.requestId) ?? -1;
        const outcome = outcomeOf(e.payload.response);
        if (!list || at < 0 || !outcome) return s;
        // A payment that failed spent nothing: the whole reserve comes back. One that went out spent its
        // amount and the fee it paid: what it did not pay of the fee limit comes back.
        if (outcome.failed) list.splice(at, 1);
        else if (outcome.feeMsat !== null && r.payment) {
          const spend = list[at] as Spend;
          list[at] = { ...spend, sats: msatToSatsUp(r.payment.amountMsat + outcome.feeMsat) };
        }
        return s;
      }
      default:
        return s;
    }
  },
  view: (s) => s,
});

/** A request is answered once a response went out (a held payment over budget was answered and waits). */
export const isAnswered = (r: NwcRequest): boolean => r.responses.length > 0;

/** Held payments the owner has not decided yet (the requests tab), oldest first. */
export const pendingPayments = (s: NwcState): NwcRequest[] =>
  [...s.requests.values()].filter((r) => r.held !== null && r.acceptedAt === null && !r.denied);

/** Payments accepted but never answered: a crash came between paying and answering. */
export const unansweredPayments = (s: NwcState): NwcRequest[] =>
  [...s.requests.values()].filter((r) => r.acceptedAt !== null && !r.settled);

/** Every index ever given to a connection, deleted ones included (they are never given again). */
export const nwcIndexesOf = (doc: Doc): number[] => Object.values(doc.nwc ?? {}).map((p) => p.index);

/** The connections as a list, by index (deleted ones left out). */
export const nwcProfilesOf = (doc: Doc): NwcProfileRecord[] =>
  Object.values(doc.nwc ?? {})
    .filter((p) => p.deleted !== true)
    .map((p) => ({ ...p }))
    .sort((a, b) => a.index - b.index);

export const nwcProfileOf = (doc: Doc, index: number): NwcProfileRecord | null => {
  const p = doc.nwc?.[String(index)];
  return p && p.deleted !== true ? p : null;
};

/** A connection as the screens show it: its settings and what it spent recently (for what remains). */
export interface NwcProfileView {
  readonly index: number;
  readonly name: string;
  readonly label: string | null;
  readonly tag: string;
  readonly require_approval: boolean;
  readonly budget_amount: bigint;
  readonly budget_period: BudgetPeriod;
  readonly budget_fixed: boolean;
  readonly enabled: boolean;
  /** The app asked for this connection (authorization request): no URI to show. */
  readonly from_app: boolean;
  /** What the connection may still pay without asking in the period ending when the view was made. */
  readonly budget_remaining: bigint;
}

/** A payment waiting for the owner in the requests tab (spec 1 §3 pending wallet-connect invoice). */
export interface PendingNwcInvoice {
  readonly id: string;
  readonly index: number;
  readonly name: string;
  readonly app: string;
  readonly amount_sats: bigint;
  /** Unix seconds. */
  readonly expiry: number;
  readonly reason: "approval" | "budget";
}

export interface NwcView {
  readonly profiles: readonly NwcProfileView[];
  readonly pending: readonly PendingNwcInvoice[];
}

/** The connections and waiting payments; budgets left are reckoned at `now` (unix ms). */
export const nwcViewOf = (doc: Doc, s: NwcState, now: number): NwcView => {
  const profiles = nwcProfilesOf(doc);
  const names = new Map(profiles.map((p) => [p.index, p.name]));
  return {
    profiles: profiles.map((p) => {
      const budget = BigInt(p.budget_sats);
      return {
        index: p.index,
        name: p.name,
        label: p.label,
        tag: p.tag,
        require_approval: p.require_approval,
        budget_amount: budget,
        budget_period: p.budget_period,
        budget_fixed: p.budget_fixed,
        enabled: p.enabled,
        from_app: p.app_pubkey !== null,
        budget_remaining: budgetRemaining(budget, p.budget_period, s.spends.get(p.index) ?? [], now),
      };
    }),
    pending: pendingPayments(s)
      .filter((r) => names.has(r.index))
      .map((r) => ({
        id: r.requestId,
        index: r.index,
        name: names.get(r.index) ?? "",
        app: r.app,
        amount_sats: msatToSatsUp(r.payment?.amountMsat ?? 0n),
        expiry: r.held?.expiresAt ?? 0,
        reason: r.held?.reason ?? "approval",
      })),
  };
};

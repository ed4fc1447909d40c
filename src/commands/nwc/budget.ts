/**
 * The wallet-connect desk's budgets and approvals: whether a payment an app asks for goes out now, waits
 * for the owner (a connection that asks for each payment, or a payment over budget), and what the owner
 * then decides. Budgets are a fold of the `nwc.*` events (`src/projections/nwc.ts`).
 */
import { msatToSatsUp } from "../../engine/amount";
import { feeLimitSats } from "../../engine/lightning/policy";
import type { Reply, ReplyTarget } from "../../engine/nwc/service";
import { failure, type Nip47Response, success } from "../../engine/nwc/protocol";
import type { NwcProfileRecord } from "../../crdt/doc";
import { type NewEvent, newEvent } from "../../events/make";
import type { States } from "../../projections";
import { budgetRemaining, type NwcRequest } from "../../projections/nwc";
import { answered, type Decision, type Desk, type PaymentPart, targetOf } from "./turn";

export const APPROVAL_DENIED = "The owner denied this payment.";
export const ALREADY_PAID = "An invoice must not get paid twice.";
const HELD_GONE = "This request is no longer waiting.";
const HELD_EXPIRED = "This invoice has expired.";
/** Why a held payment cannot be approved, as the owner reads it: each refusal's catalogue key. */
export const HELD_REFUSAL_KEYS: Readonly<Record<string, string>> = {
  [HELD_GONE]: "home.requests.error_gone",
  [ALREADY_PAID]: "home.requests.error_already_paid",
  [HELD_EXPIRED]: "home.requests.error_expired",
};

/** What connection `profile` may still pay without asking, at `now` (unix ms). */
const leftOf = (s: States, profile: NwcProfileRecord, now: number): bigint =>
  budgetRemaining(
    BigInt(profile.budget_sats),
    profile.budget_period,
    s.nwc.spends.get(profile.index) ?? [],
    now,
  );

/** The routing fee limit the owner's own send uses for `amountMsat` (1 %, at least 10 sats). */
export const feeLimitMsatOf = (amountMsat: bigint): bigint => feeLimitSats(msatToSatsUp(amountMsat)) * 1000n;

/**
 * What a payment takes from its connection's budget when it is accepted: its amount and the most it may
 * pay in routing fees, so an app cannot spend past its budget through fees (many tiny payments through a
 * node that charges high fees). Where the budget has less room than the wallet's fee limit, the payment's
 * fee limit is lowered to the room left (a payment that needs more fails and spends nothing). Once it
 * settles the budget keeps its amount and the fee it paid; the rest of the reserve comes back
 * (`src/projections/nwc.ts`).
 */
const reserveOf = (part: PaymentPart, room: bigint): { feeLimitMsat: bigint; sats: bigint } | null => {
  const amount = msatToSatsUp(part.amountMsat);
  if (amount > room) return null;
  const roomMsat = (room - amount) * 1000n;
  const feeLimitMsat = part.feeLimitMsat < roomMsat ? part.feeLimitMsat : roomMsat;
  return { feeLimitMsat, sats: msatToSatsUp(part.amountMsat + feeLimitMsat) };
};

/**
 * get_budget: the connection's budget and what it used, routing fees included (fees paid, and the fee
 * limit of payments still on their way); nothing for a connection that asks the owner each time.
 */
export const budgetAnswer = (
  s: States,
  profile: NwcProfileRecord,
  method: string,
  now: number,
): Nip47Response => {
  const total = BigInt(profile.budget_sats);
  const left = leftOf(s, profile, now);
  return success(
    method,
    profile.require_approval
      ? {}
      : {
          used_budget: Number((total - left) * 1000n),
          total_budget: Number(total * 1000n),
          renewal_period: ["daily", "weekly", "monthly", "yearly"][profile.budget_period],
        },
  );
};

/**
 * Money rule, record before paying: a payment is accepted by an `nwc.payment_accepted` event appended in
 * the turn that decides it, before the payment command runs. The budget counts it from that event on, and
 * a crash after it finds the request accepted and answers from the outcome (`recover.ts`) instead of
 * deciding, or paying, it again.
 */
export const acceptedEvent = (desk: Desk, index: number, part: PaymentPart): NewEvent => {
  desk.acceptedHere.add(part.requestId);
  return newEvent("nwc.payment_accepted", {
    request_id: part.requestId,
    index,
    payment_hash: part.paymentHash,
    bolt11: part.bolt11,
    amount_msat: part.amountMsat.toString(),
    fee_limit_msat: part.feeLimitMsat.toString(),
  });
};

/**
 * Puts a payment where it belongs: paid now, held for the owner, or over budget (and held). `earlier` is
 * what the parts of the same request accepted before it reserved; answers what this one reserved.
 */
export const place = (
  desk: Desk,
  d: Decision,
  s: States,
  profile: NwcProfileRecord,
  part: PaymentPart,
  earlier: bigint,
  now: number,
  /** `hold`: a payment that must wait is recorded as held (a keysend cannot wait); `ask`: the owner decides. */
  opts: { readonly hold: boolean; readonly ask: boolean },
): { placed: "accepted" | "held" | "over_budget"; reserved: bigint } => {
  const held = (reason: "approval" | "budget") => {
    if (!opts.hold || part.bolt11 === null || part.paymentHash === null) return;
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
  if (profile.require_approval || opts.ask) {
    held("approval");
    return { placed: "held", reserved: 0n };
  }
  const reserve = reserveOf(part, leftOf(s, profile, now) - earlier);
  if (!reserve) {
    held("budget");
    return { placed: "over_budget", reserved: 0n };
  }
  const accepted: PaymentPart = { ...part, feeLimitMsat: reserve.feeLimitMsat };
  d.events.push(acceptedEvent(desk, profile.index, accepted));
  d.pay.push(accepted);
  return { placed: "accepted", reserved: reserve.sats };
};

/**
 * Money rule, pay once: an invoice paid, on its way, or accepted for another request and not failed is not
 * paid again, whichever request or connection asks (the node would refuse a second payment of a hash, but
 * only once the first is known to it; the log knows it from acceptance on).
 */
export const alreadyPaid = (s: States, hash: string): boolean => {
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
};

/** The held payment `requestId`, when the owner may still decide it. */
const heldRequest = (desk: Desk, requestId: string): NwcRequest | null => {
  const r = desk.host.states().nwc.requests.get(requestId);
  return r && r.held !== null && r.acceptedAt === null && !r.denied ? r : null;
};

/**
 * The owner approves a held payment (in the command queue): it is accepted now, to be made once the queue
 * moves on. Answers an error text when it cannot be: gone, expired, or already paid.
 */
export const acceptHeld = async (
  desk: Desk,
  requestId: string,
): Promise<{ index: number; part: PaymentPart; target: ReplyTarget } | string> => {
  const r = heldRequest(desk, requestId);
  const payment = r?.payment;
  if (!r || !payment || !r.held) return HELD_GONE;
  const s = desk.host.states();
  if (payment.paymentHash !== null && alreadyPaid(s, payment.paymentHash)) return ALREADY_PAID;
  if (r.held.expiresAt * 1000 <= desk.host.now()) return HELD_EXPIRED;
  const { target, d } = targetOf(r);
  const part: PaymentPart = {
    requestId: r.requestId,
    ...(d === undefined ? {} : { d }),
    method: r.method,
    bolt11: payment.bolt11,
    keysendTo: null,
    paymentHash: payment.paymentHash,
    amountMsat: payment.amountMsat,
    // The owner approved this payment: the wallet's own fee limit, counted against the budget as it settles.
    feeLimitMsat: feeLimitMsatOf(payment.amountMsat),
    expiresAt: r.held.expiresAt,
  };
  await desk.host.commit([acceptedEvent(desk, r.index, part)]);
  return { index: r.index, part, target };
};

/** The owner denies held payments (in the command queue); an app still waiting is told. */
export const deny = async (desk: Desk, requestIds: readonly string[]): Promise<number> => {
  const held = requestIds.map((id) => heldRequest(desk, id)).filter((r): r is NwcRequest => r !== null);
  const events: NewEvent[] = [];
  const replies: { target: ReplyTarget; reply: Reply }[] = [];
  for (const r of held) {
    events.push(newEvent("nwc.payment_denied", { request_id: r.requestId }));
    // A payment over budget was answered already (QUOTA_EXCEEDED); one awaiting approval is answered now.
    if (r.responses.length === 0) {
      const response = failure(r.method, "RESTRICTED", APPROVAL_DENIED);
      events.push(answered(r.requestId, response));
      const { target, d } = targetOf(r);
      replies.push({ target, reply: d === undefined ? { response } : { response, d } });
    }
  }
  await desk.host.commit(events);
  for (const x of replies)
    void desk.host
      .nwc()
      ?.reply(x.target, [x.reply])
      .catch(() => undefined);
  return held.length;
};

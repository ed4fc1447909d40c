/**
 * Plus membership as the log knows it: the membership service's plans and the owner's subscription, as the
 * wallet last read them (`plus.status`, recorded when they change). Whether the owner is a member, and
 * whether each plan can be joined, are the spec's rules applied at a moment and a balance (see `plusViewOf`).
 */
import type { PlusStatus } from "../events/types";
import { projection } from "./projection";

/** A period's grace after its end: the subscription stays active 3 days past its timestamp (spec 1). */
export const GRACE_SECONDS = 3 * 24 * 3600;

/** Spec 1: the subscription is active when its timestamp plus 3 days is later than now. */
export const isPlusActive = (timestamp: number | null, nowSeconds: number): boolean =>
  timestamp !== null && timestamp + GRACE_SECONDS > nowSeconds;

/** Spec 2 §5: joining needs lightning plus federation balance above the plan's price. */
export const canJoin = (balanceSats: bigint, priceSats: bigint): boolean => balanceSats > priceSats;

export interface PlusState {
  status: PlusStatus | null;
}

export const plusProjection = projection<PlusState, PlusState>({
  name: "plus",
  initial: () => ({ status: null }),
  apply: (s, e) => {
    if (e.type === "plus.status") s.status = e.payload;
    return s;
  },
  view: (s) => s,
});

/** What the Plus screen, the logo and the call to action read. */
export interface PlusView {
  /** The membership service was read at least once. */
  readonly known: boolean;
  readonly plan_id: number | null;
  /** End of the paid period (unix seconds): the renewal date; null when never paid. */
  readonly subscription_timestamp: number | null;
  /** The derived membership flag (spec 1 mutiny_plus): active at the moment the view was made. */
  readonly mutiny_plus: boolean;
  readonly plans: readonly {
    readonly id: number;
    readonly amount_sats: bigint;
    /** Lightning plus federation balance is above the price. */
    readonly can_join: boolean;
  }[];
}

/** The view at `nowMs` (unix ms) with `spendableSats` of lightning plus federation balance. */
export const plusViewOf = (s: PlusState, nowMs: number, spendableSats: bigint): PlusView => {
  const st = s.status;
  const timestamp = st?.timestamp ?? null;
  return {
    known: st !== null,
    plan_id: st?.plan_id ?? null,
    subscription_timestamp: timestamp,
    mutiny_plus: isPlusActive(timestamp, Math.floor(nowMs / 1000)),
    plans: (st?.plans ?? []).map((p) => {
      const amount = BigInt(p.amount);
      return { id: p.id, amount_sats: amount, can_join: canJoin(spendableSats, amount) };
    }),
  };
};

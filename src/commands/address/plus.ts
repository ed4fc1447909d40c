/**
 * Plus membership (spec 2 Plus, spec 1 subscription rules). The wallet reads the membership service's plans
 * and its own subscription, and joins: the subscription connection (wallet-connect index 0, its budget the
 * plan's price per month, fixed) is made, the service is given it and answers an invoice for the price,
 * which the screen pays like any other after the owner confirmed. Join needs lightning plus federation
 * balance above the price.
 */
import { Effect } from "effect";
import { makeChange, type NwcProfileRecord } from "../../crdt/doc";
import { boundedFetch, globalFetch } from "../../engine/http/bounded";
import { nwcKeys } from "../../engine/nwc/keys";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import {
  fetchPlans,
  fetchSubscription,
  type Plan,
  PlusServiceError,
  subscribe,
} from "../../engine/plus/client";
import { InsufficientFunds, InvalidInput, ServerUnavailable, type WalletError } from "../../errors";
import { newEvent } from "../../events/make";
import type { PlusStatus } from "../../events/types";
import { balanceOf } from "../../projections/balance";
import { crdtProjection } from "../../projections/crdt";
import { ecashTotal } from "../../projections/ecash";
import { canJoin, isPlusActive } from "../../projections/plus";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";

/** The subscription's wallet-connect connection. */
export const SUBSCRIPTION_INDEX = 0;
/** Month (spec 2 budget periods: Day, Week, Month, Year). */
const MONTH = 2 as const;

export const PLUS_LIMITS = { timeoutMs: 15_000, maxBytes: 64_000 } as const;
const http = boundedFetch(globalFetch, PLUS_LIMITS);

const notConfigured = () =>
  new InvalidInput({
    message: "No membership service is configured.",
    key: "settings.plus.error_no_service",
  });
const noPlan = () => new InvalidInput({ message: "No plan found.", key: "error_no_plan" });

const call = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
  Effect.tryPromise({
    try: f,
    catch: (e) =>
      new ServerUnavailable({
        message: e instanceof PlusServiceError ? e.message : "The membership service could not be reached",
        key: "error_connection",
      }),
  });

/** Lightning plus federation balance (spec 1: what joining may spend). */
export const spendableForPlus = (ctx: HandlerContext): bigint =>
  balanceOf(ctx.states.onchain, ctx.states.lightning).lightning + ecashTotal(ctx.states.ecash);

/** The service's answer as an event, when it differs from what the log says (the plus view folds it). */
const statusEvents = (ctx: HandlerContext, status: PlusStatus) => {
  const known = ctx.states.plus.status;
  return known && JSON.stringify(known) === JSON.stringify(status) ? [] : [newEvent("plus.status", status)];
};

const clientSecret = (ctx: HandlerContext) =>
  Effect.map(ctx.keys.mnemonic(), (m) => nwcKeys(m, SUBSCRIPTION_INDEX).clientSecret);

export const getPlus: Handler<"GetPlus"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const secret = yield* clientSecret(ctx);
    const [plans, sub] = yield* ctx.outside(
      call(() => Promise.all([fetchPlans(http, cmd.host), fetchSubscription(http, cmd.host, secret)])),
    );
    const nowS = Math.floor(ctx.stamp.now() / 1000);
    const status: PlusStatus = {
      host: cmd.host,
      plan_id: sub.planId,
      timestamp: sub.timestamp,
      plans: plans.map((p) => ({ id: p.id, amount: p.amountSats.toString() })),
    };
    return outcome(
      {
        plans: plans.map((p) => ({ id: p.id, amountSats: p.amountSats })),
        planId: sub.planId,
        timestamp: sub.timestamp,
        active: isPlusActive(sub.timestamp, nowS),
        balanceSats: spendableForPlus(ctx),
      },
      statusEvents(ctx, status),
    );
  });

const planOf = (plans: readonly Plan[], id: number) => plans.find((p) => p.id === id) ?? null;

/**
 * Makes (or renews the budget of) the subscription connection for plan `planId`: index 0, the plan's price
 * per month, paid without asking, its budget fixed. Refused unless the balance is above the price.
 */
export const preparePlus: Handler<"PreparePlus"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const plans = yield* ctx.outside(call(() => fetchPlans(http, cmd.host)));
    const plan = planOf(plans, cmd.planId);
    if (!plan) return yield* Effect.fail(noPlan());
    if (!canJoin(spendableForPlus(ctx), plan.amountSats))
      return yield* Effect.fail(
        new InsufficientFunds({
          message: "Not enough lightning and federation balance to join.",
          key: "settings.plus.error_balance",
        }),
      );
    const record: NwcProfileRecord = {
      index: SUBSCRIPTION_INDEX,
      name: "Plus",
      label: "Plus",
      tag: "Subscription",
      require_approval: false,
      budget_sats: plan.amountSats.toString(),
      budget_period: MONTH,
      budget_fixed: true,
      enabled: true,
      app_pubkey: null,
      created_at: ctx.stamp.now(),
    };
    const doc = crdtProjection.view(ctx.states.crdt);
    const change = makeChange(doc, ctx.stamp.device, (d) => {
      d.nwc[String(SUBSCRIPTION_INDEX)] = record;
    });
    return outcome(
      { index: SUBSCRIPTION_INDEX, amountSats: plan.amountSats },
      change ? [newEvent("crdt.change", { change })] : [],
    );
  });

/** Gives the service the subscription connection; answers its invoice, checked to ask exactly the price. */
export const subscribePlus: Handler<"SubscribePlus"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host) return yield* Effect.fail(notConfigured());
    const secret = yield* clientSecret(ctx);
    const { plans, bolt11 } = yield* ctx.outside(
      call(async () => {
        const plans = await fetchPlans(http, cmd.host);
        return { plans, bolt11: await subscribe(http, cmd.host, secret, cmd.planId, cmd.nwc) };
      }),
    );
    const plan = planOf(plans, cmd.planId);
    if (!plan) return yield* Effect.fail(noPlan());
    const invoice = decodeBolt11(bolt11);
    if (!invoice || invoice.network !== ctx.network || invoice.amountMsat !== plan.amountSats * 1000n)
      return yield* Effect.fail(
        new InvalidInput({
          message: "The membership invoice does not ask for the plan's price",
          key: "settings.plus.error_invoice_price",
        }),
      );
    return outcome({ bolt11, amountSats: plan.amountSats });
  });

export const plusHandlers = {
  GetPlus: getPlus,
  PreparePlus: preparePlus,
  SubscribePlus: subscribePlus,
} as const;

export const plusNeeds: Needs = { GetPlus: "seed", SubscribePlus: "seed" };

/**
 * The membership (Plus) service's protocol: plans, subscribe (an invoice for the plan's price, and the
 * wallet-connect URI renewals are charged through), and the subscription's state. Requests are signed with
 * the subscription connection's client key (NIP-98); every answer goes through a schema.
 */
import { Schema } from "effect";
import type { FetchFn } from "../http/bounded";
import { getSigned, postSigned, readAnswer } from "../http/signed-api";

export interface Plan {
  readonly id: number;
  readonly amountSats: bigint;
}

export interface Subscription {
  readonly planId: number | null;
  /** End of the paid period, in seconds; null when never paid. */
  readonly timestamp: number | null;
}

const Sats = Schema.Number.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 1, maximum: 2_100_000_000_000_000 }),
);
const PlansAnswer = Schema.Array(
  Schema.Struct({ id: Schema.Number.check(Schema.isInt()), amount_sat: Sats }),
);
const SubscribeAnswer = Schema.Struct({ invoice: Schema.String });
const StatusAnswer = Schema.Struct({
  plan_id: Schema.NullOr(Schema.Number.check(Schema.isInt())),
  timestamp: Schema.NullOr(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
});

/** The service answered with an error or with something the wallet does not read. */
export class PlusServiceError extends Error {}

const base = (host: string) => host.replace(/\/+$/, "");

const read = <A>(res: Response, decode: (u: unknown) => A): Promise<A> =>
  readAnswer(
    res,
    decode,
    (message) => new PlusServiceError(message),
    "The membership service gave an answer the wallet cannot read",
  );

export const fetchPlans = async (http: FetchFn, host: string): Promise<Plan[]> => {
  const plans = await read(await http(`${base(host)}/plus/plans`), Schema.decodeUnknownSync(PlansAnswer));
  return plans.map((p) => ({ id: p.id, amountSats: BigInt(p.amount_sat) }));
};

export const subscribe = async (
  http: FetchFn,
  host: string,
  secret: Uint8Array,
  planId: number,
  nwc: string,
): Promise<string> => {
  const url = `${base(host)}/plus/subscribe`;
  const res = await postSigned(http, url, secret, { plan_id: planId, nwc });
  return (await read(res, Schema.decodeUnknownSync(SubscribeAnswer))).invoice;
};

export const fetchSubscription = async (
  http: FetchFn,
  host: string,
  secret: Uint8Array,
): Promise<Subscription> => {
  const url = `${base(host)}/plus/subscription`;
  const res = await getSigned(http, url, secret);
  const s = await read(res, Schema.decodeUnknownSync(StatusAnswer));
  return { planId: s.plan_id, timestamp: s.timestamp };
};

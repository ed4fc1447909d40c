/**
 * What the Fedimint client answers, read into the ecash port's shape: every answer is input, decoded with a
 * schema (the client relays what the federation and its gateways said). Pure, so it is tested without a
 * federation, which cannot run here.
 */
import { Schema } from "effect";

const Text = Schema.String.check(Schema.isMaxLength(4000));

/** The part of a federation's client config the wallet reads: its meta fields (all strings). */
const ConfigSchema = Schema.Struct({
  global: Schema.Struct({ meta: Schema.optional(Schema.Record(Schema.String, Text)) }),
});

export interface FederationMeta {
  readonly name: string;
  readonly welcome: string;
  /** Unix seconds the federation announced it stops, or null. */
  readonly expiresAt: number | null;
}

/** Name, welcome message and end date from a federation's config (`get_config`); the id names it if unnamed. */
export const federationMeta = (config: unknown, federationId: string): FederationMeta => {
  const meta = Schema.decodeUnknownSync(ConfigSchema)(config).global.meta ?? {};
  const expiry = Number(meta.federation_expiry_timestamp ?? "");
  return {
    name: (meta.federation_name ?? "").trim().slice(0, 200) || `Federation ${federationId.slice(0, 8)}`,
    welcome: (meta.welcome_message ?? "").trim(),
    expiresAt: Number.isSafeInteger(expiry) && expiry > 0 ? expiry : null,
  };
};

const Msats = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0));

/** A balance in msats (`get_balance`) as whole sats the wallet can spend (rounded down). */
export const satsOfMsats = (msats: unknown): bigint => BigInt(Schema.decodeUnknownSync(Msats)(msats)) / 1000n;

const GatewaySchema = Schema.Struct({
  info: Schema.Struct({
    gateway_id: Schema.String,
    fees: Schema.Struct({ base_msat: Msats, proportional_millionths: Msats }),
  }),
  vetted: Schema.Boolean,
});
export type Gateway = typeof GatewaySchema.Type;

/** The gateway a payment goes through: a vetted one first, then the cheapest for `amountMsat`. */
export const chooseGateway = (gateways: unknown, amountMsat: bigint): Gateway | null => {
  const list = Schema.decodeUnknownSync(Schema.Array(GatewaySchema))(gateways);
  const sorted = [...list].sort((a, b) => {
    if (a.vetted !== b.vetted) return a.vetted ? -1 : 1;
    const d = gatewayFeeMsat(a, amountMsat) - gatewayFeeMsat(b, amountMsat);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
  return sorted[0] ?? null;
};

/** What the gateway charges to pay `amountMsat`: its base fee and its proportional fee (rounded up). */
export const gatewayFeeMsat = (g: Gateway, amountMsat: bigint): bigint =>
  BigInt(g.info.fees.base_msat) +
  (amountMsat * BigInt(g.info.fees.proportional_millionths) + 999_999n) / 1_000_000n;

/** msats rounded up to sats: what a fee costs the owner. */
export const feeSats = (msats: bigint): bigint => (msats + 999n) / 1000n;

const PaymentSchema = Schema.Struct({
  payment_type: Schema.Union([
    Schema.Struct({ lightning: Schema.String }),
    Schema.Struct({ internal: Schema.String }),
  ]),
  fee: Msats,
});

/** `pay_bolt11_invoice`'s answer: the operation to follow, and whether it stays inside the federation. */
export const paymentOf = (answer: unknown): { operationId: string; internal: boolean; feeMsat: bigint } => {
  const p = Schema.decodeUnknownSync(PaymentSchema)(answer);
  return "lightning" in p.payment_type
    ? { operationId: p.payment_type.lightning, internal: false, feeMsat: BigInt(p.fee) }
    : { operationId: p.payment_type.internal, internal: true, feeMsat: BigInt(p.fee) };
};

export type PayOutcome =
  | { readonly status: "paid"; readonly preimage: string | null }
  | { readonly status: "failed"; readonly reason: string }
  | { readonly status: "pending" };

const field = (state: unknown, key: string): unknown =>
  typeof state === "object" && state !== null && key in state
    ? (state as Record<string, unknown>)[key]
    : undefined;

const textOf = (x: unknown): string => (typeof x === "string" ? x : JSON.stringify(x ?? null));

/**
 * Where a payment stands, from a state of `subscribe_ln_pay` (to a lightning invoice) or
 * `subscribe_internal_pay` (to another member of the federation).
 */
export const payOutcome = (state: unknown): PayOutcome => {
  const success = field(state, "success");
  if (success !== undefined) {
    const preimage = field(success, "preimage");
    return { status: "paid", preimage: typeof preimage === "string" ? preimage : null };
  }
  const internalPreimage = field(state, "preimage");
  if (typeof internalPreimage === "string") return { status: "paid", preimage: internalPreimage };
  if (state === "canceled") return { status: "failed", reason: "canceled" };
  for (const k of ["refunded", "unexpected_error", "refund_success", "refund_error", "funding_failed"]) {
    const v = field(state, k);
    if (v !== undefined) return { status: "failed", reason: textOf(v) };
  }
  return { status: "pending" };
};

/** Where a receive stands, from a state of `subscribe_ln_receive`. */
export const receiveOutcome = (state: unknown): "claimed" | "canceled" | "waiting" =>
  state === "claimed" ? "claimed" : field(state, "canceled") !== undefined ? "canceled" : "waiting";

const ProgressSchema = Schema.Struct({
  module_id: Schema.Number,
  progress: Schema.Struct({ complete: Msats, total: Msats }),
});

/** One module's recovery progress (`subscribe_to_recovery_progress`), merged into the federation's total. */
export const mergeProgress = (
  byModule: Map<number, { complete: number; total: number }>,
  update: unknown,
): { complete: number; total: number } => {
  const u = Schema.decodeUnknownSync(ProgressSchema)(update);
  byModule.set(u.module_id, u.progress);
  let complete = 0;
  let total = 0;
  for (const p of byModule.values()) {
    complete += Math.min(p.complete, p.total);
    total += p.total;
  }
  return { complete, total };
};

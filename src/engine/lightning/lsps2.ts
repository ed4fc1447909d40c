/**
 * LSPS2 (bLIP-52): a just-in-time channel bought from an LSP over the lightning connection (LSPS0).
 *
 *   lsps2.get_info {token}                             -> {opening_fee_params_menu: [params…]}
 *   lsps2.buy {opening_fee_params, payment_size_msat}  -> {jit_channel_scid, lsp_cltv_expiry_delta, …}
 *
 * The wallet picks the cheapest params valid for the amount, buys, and invoices the full amount with a
 * route hint through the LSP's intercept SCID. When the payment reaches the LSP it opens a zero-conf
 * channel and forwards the payment less the opening fee; the wallet claims it only if the LSP kept no
 * more than that fee. The fee arithmetic and the params' shape live here for both sides (the local
 * world's LSP uses them too).
 */
import { WALLET_TO_SELF_DELAY } from "./delay";
import type { LightningNode } from "./node";
import { LspsRpcError } from "./lsps-rpc";
import type { PeerAddress } from "./socket";

export const LSPS2_GET_INFO = "lsps2.get_info";
export const LSPS2_BUY = "lsps2.buy";

/** bLIP-52's error codes. */
export const LSPS2_ERROR = {
  unrecognizedOrStaleToken: 200,
  invalidOpeningFeeParams: 201,
  paymentSizeTooSmall: 202,
  paymentSizeTooLarge: 203,
} as const;

/** One entry of the LSP's menu, as it travels (amounts are decimal strings of msat). */
export interface OpeningFeeParams {
  readonly min_fee_msat: string;
  /** Millionths of the payment. */
  readonly proportional: number;
  /** ISO 8601 UTC. */
  readonly valid_until: string;
  readonly min_lifetime: number;
  readonly max_client_to_self_delay: number;
  readonly min_payment_size_msat: string;
  readonly max_payment_size_msat: string;
  /** The LSP's proof that it made these params (opaque to the client). */
  readonly promise: string;
}

export interface BuyResult {
  readonly scid: bigint;
  readonly cltvExpiryDelta: number;
  readonly clientTrustsLsp: boolean;
}

const U64_MAX = (1n << 64n) - 1n;
/** The `to_self_delay` the wallet's node asks of its peers (two weeks, `delay.ts`): the LSP must allow it. */
export { WALLET_TO_SELF_DELAY };

/**
 * bLIP-52's opening fee: max(min_fee_msat, ceil(payment_size_msat × proportional / 1,000,000)); null when
 * the product overflows 64 bits (the params cannot be used for that amount).
 */
export const openingFeeMsat = (
  paymentSizeMsat: bigint,
  minFeeMsat: bigint,
  proportional: bigint,
): bigint | null => {
  const product = paymentSizeMsat * proportional;
  if (product + 999_999n > U64_MAX) return null;
  const fee = (product + 999_999n) / 1_000_000n;
  return fee > minFeeMsat ? fee : minFeeMsat;
};

const DIGITS = /^\d{1,20}$/;
const isU32 = (v: unknown): v is number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff;
const isMsat = (v: unknown): v is string => typeof v === "string" && DIGITS.test(v) && BigInt(v) <= U64_MAX;

/** The menu entry if it has bLIP-52's shape, else null. */
export const readOpeningFeeParams = (v: unknown): OpeningFeeParams | null => {
  if (typeof v !== "object" || v === null) return null;
  const p = v as Record<string, unknown>;
  if (
    !isMsat(p.min_fee_msat) ||
    !isU32(p.proportional) ||
    typeof p.valid_until !== "string" ||
    Number.isNaN(Date.parse(p.valid_until)) ||
    !isU32(p.min_lifetime) ||
    !isU32(p.max_client_to_self_delay) ||
    !isMsat(p.min_payment_size_msat) ||
    !isMsat(p.max_payment_size_msat) ||
    typeof p.promise !== "string"
  )
    return null;
  return {
    min_fee_msat: p.min_fee_msat,
    proportional: p.proportional,
    valid_until: p.valid_until,
    min_lifetime: p.min_lifetime,
    max_client_to_self_delay: p.max_client_to_self_delay,
    min_payment_size_msat: p.min_payment_size_msat,
    max_payment_size_msat: p.max_payment_size_msat,
    promise: p.promise,
  };
};

/**
 * The fee `params` charge for `paymentSizeMsat` (maybe all of it), or null when they cannot serve it at
 * `nowMs` to a wallet asking a delay of `delay` blocks.
 */
const chargeOf = (
  params: OpeningFeeParams,
  paymentSizeMsat: bigint,
  nowMs: number,
  delay: number = WALLET_TO_SELF_DELAY,
): bigint | null => {
  if (Date.parse(params.valid_until) <= nowMs) return null;
  if (params.max_client_to_self_delay < delay) return null;
  if (paymentSizeMsat < BigInt(params.min_payment_size_msat)) return null;
  if (paymentSizeMsat > BigInt(params.max_payment_size_msat)) return null;
  return openingFeeMsat(paymentSizeMsat, BigInt(params.min_fee_msat), BigInt(params.proportional));
};

/** The fee `params` charge for `paymentSizeMsat`, or null when they cannot serve it at `nowMs`. */
export const feeFor = (
  params: OpeningFeeParams,
  paymentSizeMsat: bigint,
  nowMs: number,
  delay: number = WALLET_TO_SELF_DELAY,
): bigint | null => {
  const fee = chargeOf(params, paymentSizeMsat, nowMs, delay);
  // Something must be left to arrive.
  return fee !== null && fee < paymentSizeMsat ? fee : null;
};

/** Why no params of a menu serve an amount: the nearest limit, for the owner. */
export type NoParams =
  | { readonly reason: "below_min"; readonly limitMsat: bigint }
  | { readonly reason: "above_max"; readonly limitMsat: bigint }
  /** The cheapest fee would take the whole payment. */
  | { readonly reason: "fee_exceeds_amount"; readonly feeMsat: bigint }
  /**
   * Every offer would shorten the delay the wallet asks of the LSP (`WALLET_TO_SELF_DELAY`, or the shorter
   * one the owner accepted for it) to at most `maxDelay` blocks: the wallet does not take a channel it could
   * not keep safe while closed unless the owner accepts that delay (`delay-consent.ts`).
   */
  | { readonly reason: "delay_refused"; readonly maxDelay: number }
  | { readonly reason: "none" };

/** The cheapest params valid for `paymentSizeMsat` now to a wallet asking `delay` blocks, with its fee; or why none is. */
export const cheapestParams = (
  menu: readonly OpeningFeeParams[],
  paymentSizeMsat: bigint,
  nowMs: number,
  delay: number = WALLET_TO_SELF_DELAY,
): { readonly params: OpeningFeeParams; readonly feeMsat: bigint } | NoParams => {
  let best: { params: OpeningFeeParams; feeMsat: bigint } | null = null;
  for (const params of menu) {
    const feeMsat = feeFor(params, paymentSizeMsat, nowMs, delay);
    if (feeMsat !== null && (best === null || feeMsat < best.feeMsat)) best = { params, feeMsat };
  }
  if (best) return best;
  const charges = menu
    .map((p) => chargeOf(p, paymentSizeMsat, nowMs, delay))
    .filter((f): f is bigint => f !== null);
  if (charges.length > 0)
    return { reason: "fee_exceeds_amount", feeMsat: charges.reduce((a, b) => (a < b ? a : b)) };
  const valid = menu.filter((p) => Date.parse(p.valid_until) > nowMs);
  const live = valid.filter((p) => p.max_client_to_self_delay >= delay);
  if (live.length === 0 && valid.length > 0)
    return { reason: "delay_refused", maxDelay: Math.max(...valid.map((p) => p.max_client_to_self_delay)) };
  if (live.length === 0) return { reason: "none" };
  const mins = live.map((p) => BigInt(p.min_payment_size_msat));
  const maxes = live.map((p) => BigInt(p.max_payment_size_msat));
  const lowest = mins.reduce((a, b) => (a < b ? a : b));
  const highest = maxes.reduce((a, b) => (a > b ? a : b));
  if (paymentSizeMsat < lowest) return { reason: "below_min", limitMsat: lowest };
  if (paymentSizeMsat > highest) return { reason: "above_max", limitMsat: highest };
  return { reason: "none" };
};

/** `block x tx x output`, as bLIP-52 writes a short channel id. */
export const scidText = (scid: bigint): string =>
  `${scid >> 40n}x${(scid >> 16n) & 0xff_ffffn}x${scid & 0xffffn}`;

export const parseScid = (text: string): bigint | null => {
  const m = /^(\d{1,8})x(\d{1,8})x(\d{1,5})$/.exec(text);
  if (!m) return null;
  const [block, tx, out] = [BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!)];
  if (block > 0xff_ffffn || tx > 0xff_ffffn || out > 0xffffn) return null;
  return (block << 40n) | (tx << 16n) | out;
};

/** The LSP refused in a way the owner can act on (an amount out of range, a token it does not know). */
export class Lsps2Refusal extends Error {
  constructor(
    readonly refusal: NoParams | { readonly reason: "token" } | { readonly reason: "stale_params" },
    message: string,
    /** The LSP's node and the delay the wallet asked of it, for a delay it refused. */
    readonly asked: { readonly lsp: string; readonly delay: number } | null = null,
  ) {
    super(message);
  }
}

const refusalOf = (e: unknown): unknown => {
  if (!(e instanceof LspsRpcError)) return e;
  switch (e.code) {
    case LSPS2_ERROR.unrecognizedOrStaleToken:
      return new Lsps2Refusal({ reason: "token" }, "The LSP does not recognise the token.");
    case LSPS2_ERROR.invalidOpeningFeeParams:
      return new Lsps2Refusal({ reason: "stale_params" }, "The LSP's fee offer has expired; try again.");
    case LSPS2_ERROR.paymentSizeTooSmall:
    case LSPS2_ERROR.paymentSizeTooLarge:
      return new Lsps2Refusal({ reason: "none" }, e.message);
    default:
      return e;
  }
};

/** The wallet's side of bLIP-52 with one LSP. */
export class Lsps2Client {
  constructor(
    private readonly node: LightningNode,
    readonly lsp: PeerAddress,
    private readonly token: string | null,
    private readonly now: () => number = Date.now,
    /** The delay (blocks) the wallet's node asks of its partners: offers must allow it. */
    readonly delay: number = WALLET_TO_SELF_DELAY,
  ) {}

  private async ask(method: string, params: Record<string, unknown>): Promise<unknown> {
    await this.node.connectPeer(this.lsp);
    try {
      return await this.node.lsps0.request(this.lsp.pubkey, method, params);
    } catch (e) {
      throw refusalOf(e);
    }
  }

  /** The LSP's menu, entries of another shape left out. */
  async menu(): Promise<OpeningFeeParams[]> {
    const r = (await this.ask(LSPS2_GET_INFO, this.token ? { token: this.token } : {})) as {
      opening_fee_params_menu?: unknown;
    } | null;
    const menu = r?.opening_fee_params_menu;
    if (!Array.isArray(menu)) throw new Error("The LSP's answer to get_info has no menu");
    return menu.map(readOpeningFeeParams).filter((p): p is OpeningFeeParams => p !== null);
  }

  /** The cheapest params for a payment of `paymentSizeMsat`, with their fee. */
  async quote(paymentSizeMsat: bigint): Promise<{ params: OpeningFeeParams; feeMsat: bigint }> {
    const pick = cheapestParams(await this.menu(), paymentSizeMsat, this.now(), this.delay);
    if ("params" in pick) return pick;
    throw new Lsps2Refusal(pick, `The LSP opens no channel for a payment of ${paymentSizeMsat} msat`, {
      lsp: this.lsp.pubkey,
      delay: this.delay,
    });
  }

  async buy(params: OpeningFeeParams, paymentSizeMsat: bigint): Promise<BuyResult> {
    const r = (await this.ask(LSPS2_BUY, {
      opening_fee_params: params,
      payment_size_msat: paymentSizeMsat.toString(),
    })) as Record<string, unknown> | null;
    const scid = typeof r?.jit_channel_scid === "string" ? parseScid(r.jit_channel_scid) : null;
    const delta = r?.lsp_cltv_expiry_delta;
    if (scid === null || !isU32(delta) || delta > 0xffff)
      throw new Error("The LSP's answer to buy is unreadable");
    return { scid, cltvExpiryDelta: delta, clientTrustsLsp: r?.client_trusts_lsp === true };
  }

  /**
   * An invoice for `paymentSizeMsat` that opens a channel from the LSP when paid, and the fee the LSP may
   * keep of it. The node stays connected to the LSP while the invoice can be paid.
   */
  async invoice(
    paymentSizeMsat: bigint,
    description: string,
    expirySecs: number,
  ): Promise<{ bolt11: string; paymentHash: string; feeMsat: bigint }> {
    const { params, feeMsat } = await this.quote(paymentSizeMsat);
    const bought = await this.buy(params, paymentSizeMsat);
    const invoice = this.node.createInvoiceWithHint(paymentSizeMsat, description, expirySecs, {
      pubkey: this.lsp.pubkey,
      scid: bought.scid,
      feeBaseMsat: 0,
      feeProportionalMillionths: 0,
      cltvExpiryDelta: bought.cltvExpiryDelta,
    });
    this.node.keepConnected(this.lsp.pubkey, this.now() + expirySecs * 1000);
    return { ...invoice, feeMsat };
  }
}

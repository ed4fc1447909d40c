import { Data, Result } from "effect";
import { formatScaled, parseDecimal } from "../amount/decimal";
import { priceUrl, type PriceSource } from "./source";

/** The price of BTC in `code` could not be had: unreachable server, bad status or an answer without it. */
export class PriceUnavailable extends Data.TaggedError("PriceUnavailable")<{
  readonly message: string;
  readonly code: string;
  readonly status?: number;
}> {}

/** The part of `fetch` the price feed uses; the global `fetch` fits it. */
export type PriceFetch = (
  url: string,
  init?: { readonly signal?: AbortSignal },
) => Promise<{ readonly ok: boolean; readonly status: number; json(): Promise<unknown> }>;

export type PriceResult = Result.Result<string, PriceUnavailable>;

/** The price of one BTC in BTC, used while the chosen fiat is BTC itself or the feed is failing. */
export const BTC_PRICE_IN_BTC = "1";

/**
 * The prices of one BTC the wallet believes, in any currency: from a cent to ten trillion units, with at
 * most 8 decimals. A feed that says 1e308 or 1e-300 is lying or broken, and such a price once turned
 * amounts into 300-digit numbers.
 */
const MIN_PRICE = { units: 1n, scale: 2 };
const MAX_PRICE_UNITS = 10_000_000_000_000n;
const MAX_PRICE_DECIMALS = 8;

/** Whether `units × 10^-scale` lies within the believable range. */
const believable = ({ units, scale }: { units: bigint; scale: number }): boolean => {
  if (scale > MAX_PRICE_DECIMALS + 30) return false;
  const pow = (n: number) => 10n ** BigInt(n);
  // Compare at a common scale: at least a cent, at most the ceiling.
  const atLeastCent = units * pow(MIN_PRICE.scale) >= MIN_PRICE.units * pow(scale);
  const atMostCeiling = units <= MAX_PRICE_UNITS * pow(scale);
  return atLeastCent && atMostCeiling;
};

/**
 * A price off the wire (number or string) as a plain decimal string ("98765.43", "0.01"), or null when it
 * is not a finite positive decimal within the believable range (trailing decimals past 8 are dropped).
 */
export const priceString = (value: unknown): string | null => {
  if (typeof value !== "number" && typeof value !== "string") return null;
  const read = parseDecimal(value);
  if (read === null || read.units === 0n || !believable(read)) return null;
  const parsed =
    read.scale > MAX_PRICE_DECIMALS
      ? { units: read.units / 10n ** BigInt(read.scale - MAX_PRICE_DECIMALS), scale: MAX_PRICE_DECIMALS }
      : read;
  const plain = formatScaled(parsed.units, parsed.scale);
  return plain.includes(".") ? plain.replace(/0+$/, "").replace(/\.$/, "") : plain;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const priceInAnswer = (source: PriceSource, body: unknown, code: string): unknown => {
  if (!isRecord(body)) return undefined;
  if (source.shape === "table") return body[code];
  const currency = body.currency;
  if (typeof currency === "string" && currency.toUpperCase() !== code) return undefined;
  return body.price;
};

/**
 * The price of one BTC in `code` (either case; upper-cased here) from `source`, as a decimal string.
 * BTC itself is "1" without a request. Every failure, including a thrown `fetchFn`, is a
 * `PriceUnavailable` failure; this never rejects.
 */
export const fetchPrice = async (
  fetchFn: PriceFetch,
  source: PriceSource,
  code: string,
  signal?: AbortSignal,
): Promise<PriceResult> => {
  const upper = code.toUpperCase();
  if (upper === "BTC") return Result.succeed(BTC_PRICE_IN_BTC);
  const unavailable = (message: string, status?: number) =>
    Result.fail(new PriceUnavailable({ message, code: upper, ...(status === undefined ? {} : { status }) }));
  let body: unknown;
  try {
    const response = await fetchFn(priceUrl(source, upper), signal ? { signal } : undefined);
    if (!response.ok) return unavailable(`Price server answered ${response.status}`, response.status);
    body = await response.json();
  } catch (cause) {
    return unavailable(cause instanceof Error && cause.message ? cause.message : "Price server unreachable");
  }
  const price = priceString(priceInAnswer(source, body, upper));
  return price === null ? unavailable(`No ${upper} price in the answer`) : Result.succeed(price);
};

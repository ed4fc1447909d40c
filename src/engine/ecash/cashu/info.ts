/**
 * What a Cashu mint says of itself (NUT-06 `/v1/info`) and whether it has a keyset the wallet can use
 * (NUT-02 `/v1/keysets`): read before the owner joins, with the wallet's bounded fetch and a schema on
 * each answer. Small on purpose (no cashu-ts): joining must not load the ecash engine's code.
 */
import { Schema } from "effect";
import { MAX_MONEY_SATS } from "../../../money";
import { boundedFetch, type FetchFn } from "../../http/bounded";
import { inputFeeRefusal } from "../port";

export const MINT_LIMITS = { timeoutMs: 15_000, maxBytes: 512 * 1024 } as const;

const Text = Schema.String.check(Schema.isMaxLength(4000));

export const MintInfoSchema = Schema.Struct({
  name: Schema.optional(Schema.NullOr(Text)),
  pubkey: Schema.optional(Schema.NullOr(Schema.String)),
  version: Schema.optional(Schema.NullOr(Text)),
  description: Schema.optional(Schema.NullOr(Text)),
  description_long: Schema.optional(Schema.NullOr(Text)),
  motd: Schema.optional(Schema.NullOr(Text)),
  /** Not in NUT-06: the end date (unix seconds) a mint announces before it stops serving. */
  end_of_service: Schema.optional(
    Schema.NullOr(Schema.Number.check(Schema.isInt(), Schema.isGreaterThan(0))),
  ),
  nuts: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
});

export const KeysetsSchema = Schema.Struct({
  keysets: Schema.Array(
    Schema.Struct({
      id: Schema.String.check(Schema.isPattern(/^[0-9a-fA-F]{16,66}$/)),
      unit: Schema.String,
      active: Schema.Boolean,
      input_fee_ppk: Schema.optional(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
    }),
  ),
});

export interface MintDescription {
  readonly url: string;
  readonly name: string;
  /** The welcome message: the mint's description (its long one when it has no short one). */
  readonly welcome: string;
  /** A message the mint wants shown now (NUT-06 motd), or null. */
  readonly motd: string | null;
  readonly expiresAt: number | null;
  /** The most sats it mints in one lightning receive (NUT-04 bolt11 `max_amount`), or null when unsaid. */
  readonly maxReceiveSats: bigint | null;
}

const Nut04Schema = Schema.Struct({
  methods: Schema.Array(
    Schema.Struct({
      method: Schema.String,
      unit: Schema.String,
      max_amount: Schema.optional(
        Schema.NullOr(Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
      ),
    }),
  ).check(Schema.isMaxLength(100)),
});

/** NUT-04's most for a bolt11 receive in sats, when the mint announces one (anything else reads as none). */
const maxReceiveOf = (nuts: Readonly<Record<string, unknown>> | undefined): bigint | null => {
  try {
    const nut04 = Schema.decodeUnknownSync(Nut04Schema)(nuts?.["4"]);
    const m = nut04.methods.find((x) => x.method === "bolt11" && x.unit === "sat");
    if (typeof m?.max_amount !== "number" || !Number.isSafeInteger(m.max_amount)) return null;
    // More than can exist is no limit at all.
    const max = BigInt(m.max_amount);
    return max > MAX_MONEY_SATS ? null : max;
  } catch {
    return null;
  }
};

/**
 * A mint URL as the wallet keeps it: http(s), no credentials, query or fragment, no trailing slash. Null
 * when `text` is not one.
 */
export const normaliseMintUrl = (text: string): string | null => {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
};

const getJson = async <S extends Schema.Top>(
  fetchFn: FetchFn,
  url: string,
  schema: S,
): Promise<S["Type"]> => {
  const res = await fetchFn(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return Schema.decodeUnknownSync(schema as never)(JSON.parse(await res.text())) as S["Type"];
};

/**
 * Reads the mint at `url` (normalised); rejects when it does not answer as a Cashu mint with a sat keyset, or
 * with `inputFeeRefusal`'s failure when its keysets charge more per coin spent than the wallet allows.
 */
export const describeMint = async (fetchFn: FetchFn, url: string): Promise<MintDescription> => {
  const bounded = boundedFetch(fetchFn, MINT_LIMITS);
  const [info, keysets] = await Promise.all([
    getJson(bounded, `${url}/v1/info`, MintInfoSchema),
    getJson(bounded, `${url}/v1/keysets`, KeysetsSchema),
  ]);
  const sat = keysets.keysets.filter((k) => k.unit === "sat");
  if (!sat.some((k) => k.active)) throw new Error(`${url} has no active keyset in sats`);
  // A mint charging more per coin spent than the wallet allows is not joined (port.ts MAX_INPUT_FEE_PPK).
  const refused = inputFeeRefusal(Math.max(0, ...sat.map((k) => k.input_fee_ppk ?? 0)));
  if (refused) throw refused;
  const host = new URL(url).host;
  return {
    url,
    name: (info.name ?? "").trim().slice(0, 200) || host,
    welcome: (info.description ?? info.description_long ?? "").trim(),
    motd: info.motd?.trim().slice(0, 4000) || null,
    expiresAt: info.end_of_service ?? null,
    maxReceiveSats: maxReceiveOf(info.nuts),
  };
};

/**
 * The social-profile cache service (spec 1 §7): `POST <base>` with a JSON array body, `["user_search",
 * {query, limit: 10}]` or `["user_profile", {pubkey}]`, answered with an array of nostr events of which the
 * kind 0 ones are profiles. The service is a server like any other: the answer is read within a deadline and
 * a byte cap, must be an array, and each profile must be a kind 0 event signed by the key it describes, so a
 * cache cannot put its own lightning address on somebody else's profile. Fields are cleaned before use: a
 * lightning address that is not one, or a picture that is not an http(s) URL, is dropped.
 */
import { Data, Schema } from "effect";
import { decode, npubEncode } from "nostr-tools/nip19";
import { verifyEvent } from "nostr-tools/pure";
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import { decodeLightningAddress } from "../parse/lightning-address";
import { jsonOrNull } from "../parse/json";

/** Spec 1 §9: a global search answers at most 10 profiles. */
export const SEARCH_LIMIT = 10;

/** Each exchange with the cache within 10 s and 1 MB (ten profiles with long "about" texts fit easily). */
export const CACHE_LIMITS = { timeoutMs: 10_000, maxBytes: 1_000_000 } as const;

/** Longest name kept from a profile; longer ones are cut (a profile is somebody else's input). */
const MAX_NAME = 100;
const MAX_URL = 2_000;

/** A profile found by the search (spec 1 §3 profile search result), with its npub for the screens. */
export interface ProfileSearchResult {
  readonly hexpub: string;
  readonly npub: string;
  readonly name: string;
  readonly ln_address: string | null;
  readonly lnurl: string | null;
  readonly image_url: string | null;
  /** The cache's proxied copy of the picture; this client does not ask for one. */
  readonly primal_image_url: string | null;
}

export type CacheFailureKind = "missing_base" | "search" | "profile";

/** The cache service could not be asked or answered unusably; `message` is the catalogue's text. */
export class CacheFailed extends Data.TaggedError("CacheFailed")<{
  readonly message: string;
  readonly kind: CacheFailureKind;
  readonly cause?: unknown;
}> {}

export const MISSING_BASE_TEXT = "Missing PRIMAL_API environment variable";
const TEXT: Record<Exclude<CacheFailureKind, "missing_base">, string> = {
  search: "Failed to search",
  profile: "Failed to load profile",
};

const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/));
const Hex128 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{128}$/));
const Whole = Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0));

/** A nostr event as NIP-01 defines it; anything else in the answer is not a profile. */
const EventSchema = Schema.Struct({
  id: Hex64,
  pubkey: Hex64,
  created_at: Whole,
  kind: Whole,
  tags: Schema.Array(Schema.Array(Schema.String)),
  content: Schema.String,
  sig: Hex128,
});
type NostrEvent = typeof EventSchema.Type;
const isEvent = Schema.is(EventSchema);

/** The answer must be an array (of events and whatever else the cache adds, which is skipped). */
const AnswerSchema = Schema.Array(Schema.Unknown);
const decodeAnswer = Schema.decodeUnknownSync(AnswerSchema);

const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

const httpUrl = (v: unknown): string | null => {
  const s = text(v);
  if (s === null || s.length > MAX_URL) return null;
  try {
    const u = new URL(s);
    return u.protocol === "https:" || u.protocol === "http:" ? u.href : null;
  } catch {
    return null;
  }
};

const LNURL = /^lnurl1[02-9ac-hj-np-z]+$/i;

/** A signed kind 0 event's content as a search result; null when it is not a readable profile. */
export const profileOf = (e: NostrEvent): ProfileSearchResult | null => {
  if (e.kind !== 0) return null;
  const content = jsonOrNull(e.content);
  if (typeof content !== "object" || content === null || Array.isArray(content)) return null;
  const c = content as Record<string, unknown>;
  const lud16 = text(c.lud16);
  const lud06 = text(c.lud06);
  const name = text(c.display_name) ?? text(c.displayName) ?? text(c.name) ?? "";
  return {
    hexpub: e.pubkey,
    npub: npubEncode(e.pubkey),
    name: [...name].slice(0, MAX_NAME).join(""),
    ln_address: lud16 !== null ? (decodeLightningAddress(lud16)?.address ?? null) : null,
    lnurl: lud06 !== null && LNURL.test(lud06) ? lud06.toLowerCase() : null,
    image_url: httpUrl(c.picture) ?? httpUrl(c.image),
    primal_image_url: null,
  };
};

/**
 * The signed kind 0 profiles in a cache answer, the newest per key, in the order the cache ranked them.
 * Throws when the answer is not an array.
 */
export const profilesIn = (answer: unknown): ProfileSearchResult[] => {
  const newest = new Map<string, NostrEvent>();
  const order: string[] = [];
  for (const item of decodeAnswer(answer)) {
    if (!isEvent(item) || item.kind !== 0) continue;
    const seen = newest.get(item.pubkey);
    if (seen && seen.created_at >= item.created_at) continue;
    // A copy, so the check's cache on the object never leaks into the caller's data.
    if (!verifyEvent({ ...item, tags: item.tags.map((t) => [...t]) })) continue;
    if (!seen) order.push(item.pubkey);
    newest.set(item.pubkey, item);
  }
  const out: ProfileSearchResult[] = [];
  for (const key of order) {
    const p = profileOf(newest.get(key) as NostrEvent);
    if (p) out.push(p);
  }
  return out;
};

/**
 * The hex public key a query names on its own, as nostr clients read a pasted key: an npub or an nprofile,
 * with or without a `nostr:` prefix; null for any other query (a name is searched for).
 */
export const pubkeyOfQuery = (query: string): string | null => {
  const q = query.trim().replace(/^nostr:/i, "");
  if (!/^(npub|nprofile)1[02-9ac-hj-np-z]+$/i.test(q)) return null;
  try {
    const d = decode(q.toLowerCase());
    if (d.type === "npub") return d.data;
    if (d.type === "nprofile") return d.data.pubkey;
    return null;
  } catch {
    return null;
  }
};

/** The person a key names when no profile of theirs is known: found, by their npub, with nothing else. */
export const bareProfile = (hexpub: string): ProfileSearchResult => ({
  hexpub,
  npub: npubEncode(hexpub),
  name: "",
  ln_address: null,
  lnurl: null,
  image_url: null,
  primal_image_url: null,
});

export interface CacheClient {
  /**
   * `user_search`: up to 10 profiles for a query (trimmed; an empty one asks nothing). A query that is a key
   * (npub, nprofile) is looked up directly (`user_profile`): that person, with the profile the cache knows, or
   * found by their key alone when it knows none.
   */
  readonly search: (query: string) => Promise<ProfileSearchResult[]>;
  /** `user_profile`: the profile of a hex public key, or null when the cache has none. */
  readonly profile: (hexpub: string) => Promise<ProfileSearchResult | null>;
}

/** A client of the cache at `base` (the primal_api setting), over `fetchFn` bounded by `CACHE_LIMITS`. */
export const cacheClient = (
  fetchFn: FetchFn,
  base: string,
  limits: RequestLimits = CACHE_LIMITS,
): CacheClient => {
  const http = boundedFetch(fetchFn, limits);
  const ask = async (body: unknown, kind: Exclude<CacheFailureKind, "missing_base">): Promise<unknown> => {
    if (base.trim() === "") throw new CacheFailed({ message: MISSING_BASE_TEXT, kind: "missing_base" });
    try {
      const res = await http(base.trim(), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`status ${res.status}`);
      return await res.json();
    } catch (cause) {
      throw new CacheFailed({ message: TEXT[kind], kind, cause });
    }
  };
  const read = (answer: unknown, kind: Exclude<CacheFailureKind, "missing_base">) => {
    try {
      return profilesIn(answer);
    } catch (cause) {
      throw new CacheFailed({ message: TEXT[kind], kind, cause });
    }
  };
  return {
    search: async (query) => {
      const q = query.trim();
      if (q === "") return [];
      const key = pubkeyOfQuery(q);
      if (key !== null) {
        const answer = await ask(["user_profile", { pubkey: key }], "search");
        return [read(answer, "search").find((p) => p.hexpub === key) ?? bareProfile(key)];
      }
      const answer = await ask(["user_search", { query: q, limit: SEARCH_LIMIT }], "search");
      return read(answer, "search").slice(0, SEARCH_LIMIT);
    },
    profile: async (hexpub) => {
      if (!/^[0-9a-f]{64}$/.test(hexpub))
        throw new CacheFailed({ message: TEXT.profile, kind: "profile", cause: "not a hex public key" });
      const answer = await ask(["user_profile", { pubkey: hexpub }], "profile");
      return read(answer, "profile").find((p) => p.hexpub === hexpub) ?? null;
    },
  };
};

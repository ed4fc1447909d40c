/**
 * The social-profile cache service (spec 1 §7), answering from the relay's events: `POST` with a JSON array
 * body `[verb, payload]`, answering a JSON array of events.
 *
 *   ["user_profile", {pubkey}]                               → [kind 0]
 *   ["user_search", {query, limit = 10}]                     → kind 0 events whose name, display_name,
 *                                                              nip05 or lud16 holds the query (any case)
 *   ["zaps_feed", {kinds, limit = 100, pubkeys, since?, until?}] → zap receipts (9735) whose p or P tag is one
 *                                                              of the pubkeys, newest first; the kind 0 of
 *                                                              everyone in them; a paging marker (kind
 *                                                              10000113, content {"since","until","order_by"})
 */
import { type Event, finalizeEvent } from "nostr-tools/pure";
import type { NostrRelay } from "./relay";
import { HttpFailure } from "./http";

export const ZAP_RECEIPT = 9735;
export const PAGING_MARKER = 10000113;
const HEX64 = /^[0-9a-f]{64}$/;

const obj = (v: unknown): Record<string, unknown> => {
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw new HttpFailure(400, "The payload must be an object");
  return v as Record<string, unknown>;
};

const pubkey = (v: unknown, what = "pubkey"): string => {
  if (typeof v !== "string" || !HEX64.test(v))
    throw new HttpFailure(400, `${what} must be 64 hex characters`);
  return v;
};

const count = (v: unknown, fallback: number, max: number, what: string): number => {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new HttpFailure(400, `${what} must be a whole number`);
  return Math.min(v, max);
};

const profileFields = (e: Event): Record<string, unknown> => {
  try {
    const c = JSON.parse(e.content);
    return c && typeof c === "object" && !Array.isArray(c) ? c : {};
  } catch {
    return {};
  }
};

/** The sender of a zap: its `P` tag, else the pubkey of the zap request in its description. */
const zapSender = (receipt: Event): string | null => {
  const P = receipt.tags.find((t) => t[0] === "P")?.[1];
  if (P && HEX64.test(P)) return P;
  try {
    const request = JSON.parse(receipt.tags.find((t) => t[0] === "description")?.[1] ?? "");
    return typeof request?.pubkey === "string" && HEX64.test(request.pubkey) ? request.pubkey : null;
  } catch {
    return null;
  }
};

export interface CacheService {
  readonly answer: (body: unknown) => Event[];
}

export const createCache = (
  relay: Pick<NostrRelay, "query" | "events">,
  markerKey: Uint8Array,
): CacheService => {
  const profilesOf = (pubkeys: string[]) =>
    pubkeys.length === 0 ? [] : relay.query([{ kinds: [0], authors: [...new Set(pubkeys)], limit: 500 }]);

  const userSearch = (p: Record<string, unknown>): Event[] => {
    if (typeof p.query !== "string") throw new HttpFailure(400, "query must be a string");
    const query = p.query.trim().toLowerCase();
    const limit = count(p.limit, 10, 100, "limit");
    if (query === "" || limit === 0) return [];
    // Names that start with the query first, then those that hold it; newest profile first within each.
    const starts: Event[] = [];
    const holds: Event[] = [];
    for (const e of relay.events()) {
      if (e.kind !== 0) continue;
      const f = profileFields(e);
      if (f.deleted === true || f.deleted === "true") continue;
      const hay = [f.name, f.display_name, f.displayName, f.nip05, f.lud16]
        .filter((x): x is string => typeof x === "string")
        .map((x) => x.toLowerCase());
      if (hay.some((h) => h.startsWith(query))) starts.push(e);
      else if (hay.some((h) => h.includes(query))) holds.push(e);
    }
    return [...starts, ...holds].slice(0, limit);
  };

  const zapsFeed = (p: Record<string, unknown>): Event[] => {
    if (!Array.isArray(p.pubkeys)) throw new HttpFailure(400, "pubkeys must be a list");
    const pubkeys = p.pubkeys.map((k) => pubkey(k, "each pubkey"));
    const kinds = p.kinds === undefined ? [ZAP_RECEIPT, 0, PAGING_MARKER] : p.kinds;
    if (!Array.isArray(kinds)) throw new HttpFailure(400, "kinds must be a list");
    const limit = count(p.limit, 100, 500, "limit");
    const since = count(p.since, 0, Number.MAX_SAFE_INTEGER, "since");
    const until = p.until === undefined ? undefined : count(p.until, 0, Number.MAX_SAFE_INTEGER, "until");
    if (pubkeys.length === 0 || limit === 0) return [];
    const receipts = [
      ...relay.query([
        { kinds: [ZAP_RECEIPT], "#p": pubkeys, since, ...(until !== undefined ? { until } : {}), limit },
        { kinds: [ZAP_RECEIPT], "#P": pubkeys, since, ...(until !== undefined ? { until } : {}), limit },
      ]),
    ].slice(0, limit);
    const out: Event[] = kinds.includes(ZAP_RECEIPT) ? [...receipts] : [];
    if (kinds.includes(0)) {
      const people = receipts.flatMap((r) => [
        ...r.tags.filter((t) => t[0] === "p" && t[1] && HEX64.test(t[1])).map((t) => t[1]!),
        ...(zapSender(r) ? [zapSender(r)!] : []),
      ]);
      out.push(...profilesOf(people));
    }
    if (kinds.includes(PAGING_MARKER) && receipts.length > 0) {
      const oldest = receipts[receipts.length - 1]!.created_at;
      const newest = receipts[0]!.created_at;
      out.push(
        finalizeEvent(
          {
            kind: PAGING_MARKER,
            created_at: Math.floor(Date.now() / 1000),
            tags: [],
            content: JSON.stringify({
              since: newest,
              until: oldest,
              order_by: "created_at",
              elements: receipts.map((r) => r.id),
            }),
          },
          markerKey,
        ),
      );
    }
    return out;
  };

  return {
    answer: (body) => {
      if (!Array.isArray(body) || typeof body[0] !== "string")
        throw new HttpFailure(400, 'The body must be a JSON array: ["verb", {payload}]');
      const payload = obj(body[1] ?? {});
      switch (body[0]) {
        case "user_profile":
          return profilesOf([pubkey(payload.pubkey)]).slice(0, 1);
        case "user_search":
          return userSearch(payload);
        case "zaps_feed":
          return zapsFeed(payload);
        default:
          throw new HttpFailure(400, `Unknown request ${body[0].slice(0, 40)}`);
      }
    },
  };
};

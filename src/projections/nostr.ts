/**
 * The wallet's nostr identity, its profile and follow list, and the outbox of events still to publish, folded
 * from the log. The newest kind 0 and kind 3 of each key win by NIP-01's rule for replaceable events, so two
 * devices' logs merged by an import agree on the same profile.
 */
import { newerThan, type NostrEvent } from "../events/nostr-event";
import type { WalletEvent } from "../events/types";
import { npubEncode } from "nostr-tools/nip19";
import { projection } from "./projection";
import { DELETION_KIND, RECOMMENDATION_KIND, recommendationAddress, recommendationId } from "../events/nip87";

export interface NostrState {
  /** The key in use as last recorded; null until the wallet first used nostr. */
  identity: { pubkey: string; imported: boolean } | null;
  /** The newest profile (kind 0) and follow list (kind 3) of each key. */
  readonly profiles: Map<string, NostrEvent>;
  readonly follows: Map<string, NostrEvent>;
  /** Queued events no relay has accepted yet, in the order they were queued. */
  readonly outbox: Map<string, NostrEvent>;
  /** Queued events every relay refused for good, with the first relay's reason: no longer sent. */
  readonly failed: Map<string, string>;
  /** The relays a queued event goes to instead of the wallet's (the addressee's inbox relays), by id. */
  readonly targets: Map<string, readonly string[]>;
  readonly published: Set<string>;
  /** The newest NIP-87 recommendation (kind 38000) of each author and custodian, by its address. */
  readonly recommendations: Map<string, NostrEvent>;
  /** The time of the newest deletion of each recommendation address. */
  readonly withdrawn: Map<string, number>;
}

/**
 * Keeps `e` when it is the newest of its key and kind; a queued event it replaces no longer needs sending
 * (a relay keeps only the newest). Answers whether `e` is the newest.
 */
const keep = (s: NostrState, m: Map<string, NostrEvent>, e: NostrEvent): boolean => {
  const had = m.get(e.pubkey);
  if (!newerThan(e, had)) return had?.id === e.id;
  if (had) s.outbox.delete(had.id);
  m.set(e.pubkey, e);
  return true;
};

/**
 * A recommendation replaces an older one of the same address; a deletion (NIP-09) by the address's author
 * ends it and every version up to the deletion's time (one fetched again later does not come back).
 */
const recommendation = (s: NostrState, e: NostrEvent): boolean => {
  if (e.kind === RECOMMENDATION_KIND) {
    const id = recommendationId(e.tags);
    if (id === null) return true;
    const address = recommendationAddress(e.pubkey, id);
    if ((s.withdrawn.get(address) ?? -1) >= e.created_at) return false;
    const had = s.recommendations.get(address);
    if (!newerThan(e, had)) return had?.id === e.id;
    if (had) s.outbox.delete(had.id);
    s.recommendations.set(address, e);
    return true;
  }
  for (const t of e.tags) {
    const address = t[0] === "a" ? t[1] : undefined;
    if (!address?.startsWith(`${RECOMMENDATION_KIND}:${e.pubkey}:`)) continue;
    s.withdrawn.set(address, Math.max(s.withdrawn.get(address) ?? -1, e.created_at));
    const had = s.recommendations.get(address);
    if (had && had.created_at <= e.created_at) {
      s.recommendations.delete(address);
      s.outbox.delete(had.id);
    }
  }
  return true;
};

const seen = (s: NostrState, e: NostrEvent): boolean =>
  e.kind === 0
    ? keep(s, s.profiles, e)
    : e.kind === 3
      ? keep(s, s.follows, e)
      : e.kind === RECOMMENDATION_KIND || e.kind === DELETION_KIND
        ? recommendation(s, e)
        : true;

export const nostrProjection = projection<NostrState, NostrState>({
  name: "nostr",
  initial: () => ({
    identity: null,
    profiles: new Map(),
    follows: new Map(),
    outbox: new Map(),
    failed: new Map(),
    targets: new Map(),
    published: new Set(),
    recommendations: new Map(),
    withdrawn: new Map(),
  }),
  apply: (s, e: WalletEvent) => {
    switch (e.type) {
      case "nostr.identity":
        s.identity = { pubkey: e.payload.pubkey, imported: e.payload.imported };
        return s;
      case "nostr.queued":
        // An edit already replaced by a newer one (from another device) is not sent.
        if (seen(s, e.payload.event) && !s.published.has(e.payload.event.id)) {
          s.outbox.set(e.payload.event.id, e.payload.event);
          if (e.payload.relays && e.payload.relays.length > 0)
            s.targets.set(e.payload.event.id, e.payload.relays);
        }
        return s;
      case "nostr.published":
        s.published.add(e.payload.id);
        s.outbox.delete(e.payload.id);
        s.targets.delete(e.payload.id);
        return s;
      case "nostr.fetched":
        seen(s, e.payload.event);
        return s;
      case "nostr.failed":
        s.failed.set(e.payload.id, e.payload.refusals[0]?.reason ?? "");
        return s;
      default:
        return s;
    }
  },
  view: (s) => s,
});

/** The events still to publish, oldest first (not those every relay refused for good). */
export const pendingEvents = (s: NostrState): NostrEvent[] =>
  [...s.outbox.values()].filter((e) => !s.failed.has(e.id));

/** The queued events every relay refused for good, oldest first, with a relay's reason. */
export const failedEvents = (s: NostrState): { readonly event: NostrEvent; readonly reason: string }[] =>
  [...s.outbox.values()].flatMap((event) => {
    const reason = s.failed.get(event.id);
    return reason === undefined ? [] : [{ event, reason }];
  });

/** The recommendation of custodian `id` by the key in use, or null. */
export const ownRecommendation = (s: NostrState, id: string): NostrEvent | null =>
  s.identity ? (s.recommendations.get(recommendationAddress(s.identity.pubkey, id)) ?? null) : null;

/** Where queued event `id` goes instead of the wallet's relays; undefined for the wallet's own. */
export const targetRelays = (s: NostrState, id: string): readonly string[] | undefined => s.targets.get(id);

/** The newest profile event of the key in use, or null. */
export const ownProfileEvent = (s: NostrState): NostrEvent | null =>
  s.identity ? (s.profiles.get(s.identity.pubkey) ?? null) : null;

export const ownFollowsEvent = (s: NostrState): NostrEvent | null =>
  s.identity ? (s.follows.get(s.identity.pubkey) ?? null) : null;

/** A profile as the screens show it. */
export interface NostrProfile {
  readonly name: string | null;
  readonly display_name: string | null;
  readonly picture: string | null;
  readonly lud16: string | null;
  readonly lud06: string | null;
  readonly nip05: string | null;
  /** Deleted (spec: `deleted` true, or the string 'true'). */
  readonly deleted: boolean;
}

const MAX_FIELD = 2_000;

const text = (x: unknown): string | null => {
  if (typeof x !== "string") return null;
  const t = x.trim();
  return t === "" ? null : t.slice(0, MAX_FIELD);
};

/** The content's JSON object, or an empty one when it is not one. */
export const contentObject = (content: string): Record<string, unknown> => {
  try {
    const o: unknown = JSON.parse(content);
    return typeof o === "object" && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export const readProfile = (content: string): NostrProfile => {
  const o = contentObject(content);
  return {
    name: text(o.name),
    display_name: text(o.display_name) ?? text(o.displayName),
    picture: text(o.picture) ?? text(o.image),
    lud16: text(o.lud16),
    lud06: text(o.lud06),
    nip05: text(o.nip05),
    deleted: o.deleted === true || o.deleted === "true",
  };
};

/** What the profile screens read: the key in use, its profile, and how many events wait for a relay. */
export interface ProfileView {
  readonly npub: string | null;
  readonly imported: boolean;
  readonly profile: NostrProfile | null;
  /** When the profile shown was signed (unix seconds), or null. */
  readonly updated_at: number | null;
  readonly pending: number;
  /** Events every relay refused for good (never sent again), with the newest one's reason as a relay gave it. */
  readonly failed: { readonly count: number; readonly reason: string | null };
}

export const profileView = (s: NostrState): ProfileView => {
  const event = ownProfileEvent(s);
  const refused = failedEvents(s);
  return {
    npub: s.identity ? npubEncode(s.identity.pubkey) : null,
    imported: s.identity?.imported ?? false,
    profile: event ? readProfile(event.content) : null,
    updated_at: event?.created_at ?? null,
    pending: pendingEvents(s).length,
    failed: { count: refused.length, reason: refused.at(-1)?.reason ?? null },
  };
};

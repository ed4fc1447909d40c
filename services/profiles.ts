/**
 * The social-profile cache service (`POST /primal`, the wallet's `primal_api`) for the services: the local
 * world's cache (harness/nostr/cache.ts) answering from what this process fetched from the configured relays.
 * Each request first asks the relays for what it needs (the profile, the zap receipts and their people, a
 * NIP-50 search where a relay offers one), each ask bounded in time and count, keeps the signed events it
 * gets, and answers from them.
 */
import type { Filter } from "nostr-tools/filter";
import { SimplePool } from "nostr-tools/pool";
import type { Event } from "nostr-tools/pure";
import { createCache, ZAP_RECEIPT } from "./nostr/cache";
import { HttpFailure } from "./nostr/http";
import { createRelay, type NostrRelay } from "./nostr/relay";
import { installRelaySocket } from "./nostr/socket";
import { HttpError, type RouteTable } from "./http";

// Node 20 has no global WebSocket: the relay connections use one that a stalled handshake cannot crash.
installRelaySocket();

/** How long one ask of the relays may take, and the most events kept before the store starts over. */
const ASK_MS = 4_000;
const MAX_KEPT = 50_000;
const MAX_ASKED = 200;
const HEX64 = /^[0-9a-f]{64}$/;

const hexKeys = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((k): k is string => typeof k === "string" && HEX64.test(k)).slice(0, 50) : [];

export const startProfileCache = (relays: readonly string[]) => {
  const pool = new SimplePool();
  let store: NostrRelay = createRelay();
  const markerKey = crypto.getRandomValues(new Uint8Array(32));
  const ask = async (filter: Filter): Promise<Event[]> => {
    if (relays.length === 0) return [];
    const events = await pool
      .querySync(
        [...relays],
        { ...filter, limit: Math.min(filter.limit ?? MAX_ASKED, MAX_ASKED) },
        { maxWait: ASK_MS },
      )
      .catch(() => [] as Event[]);
    if (store.events().length + events.length > MAX_KEPT) store = createRelay();
    // The store checks each event's id and signature, as a relay does.
    for (const e of events.slice(0, MAX_ASKED)) store.publish(e);
    return events;
  };
  /** Fetches what the request will be answered from. */
  const fetchFor = async (verb: unknown, payload: Record<string, unknown>) => {
    if (verb === "user_profile" && typeof payload.pubkey === "string" && HEX64.test(payload.pubkey))
      await ask({ kinds: [0], authors: [payload.pubkey], limit: 1 });
    else if (verb === "user_search" && typeof payload.query === "string" && payload.query.trim() !== "")
      await ask({ kinds: [0], search: payload.query.trim().slice(0, 100), limit: 20 });
    else if (verb === "zaps_feed") {
      const pubkeys = hexKeys(payload.pubkeys);
      if (pubkeys.length === 0) return;
      const receipts = await ask({ kinds: [ZAP_RECEIPT], "#p": pubkeys, limit: 100 });
      const people = receipts.flatMap((r) =>
        r.tags.filter((t) => t[0] === "p" || t[0] === "P").map((t) => t[1]),
      );
      const authors = [...new Set(people.filter((p): p is string => typeof p === "string" && HEX64.test(p)))];
      if (authors.length > 0) await ask({ kinds: [0], authors: authors.slice(0, 100) });
    }
  };
  const routes: RouteTable = [
    [
      "POST",
      /^\/primal$/,
      async (_m, body) => {
        if (body.length > 64 * 1024) throw new HttpError(413, "The body is too large");
        let request: unknown;
        try {
          request = JSON.parse(body);
        } catch {
          throw new HttpError(400, "The body must be JSON");
        }
        const [verb, payload] = Array.isArray(request) ? request : [];
        if (payload && typeof payload === "object" && !Array.isArray(payload))
          await fetchFor(verb, payload as Record<string, unknown>);
        try {
          return { json: createCache(store, markerKey).answer(request) };
        } catch (e) {
          if (e instanceof HttpFailure) throw new HttpError(e.status, e.message);
          throw e;
        }
      },
    ],
  ];
  return { routes, stop: () => pool.destroy() };
};

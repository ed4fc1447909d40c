/**
 * The local world's nostr services on its one HTTP server:
 *
 *   ws://…/nostr           the relay (NIP-11 on GET /nostr with Accept: application/nostr+json)
 *   POST /nostr/seed       {name, display_name?, about?, lud16?, picture?} → a new person {pubkey, npub, nsec, …}
 *   POST /primal           the social-profile cache service (user_profile, user_search, zaps_feed); under
 *                          /hostile/<scope>/primal it lies as that scope's `primal` mode says, or reads the
 *                          scope's lying relay when its `relay` mode is set
 *   ws://…/hostile/<scope>/nostr  the relay with that scope's `relay` lies mixed in
 *   /blossom/…             the Blossom media server (PUT /blossom/upload, GET /blossom/<sha256>)
 *
 * and the seeded people, published into the relay at start.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createHash } from "node:crypto";
import type { Filter } from "nostr-tools/filter";
import type { Event } from "nostr-tools/pure";
import type { Hostility } from "../hostile";
import type { LnurlService } from "../lnurl";
import { type BlossomServer, createBlossom } from "./blossom";
import { createCache } from "../../services/nostr/cache";
import { liesFor } from "./hostile-relay";
import { lieAsCache, strangerProfile } from "./hostile-cache";
import { answer, CORS, HttpFailure, readBytes, sendJson } from "../../services/nostr/http";
import { mountInFront } from "./mount";
import { BadPerson, createPeople, type NewPerson, type Person, parseNewPerson } from "./people";
import { createRelay, type NostrRelay, parseFilter } from "../../services/nostr/relay";

export type { NewPerson, Person };

export interface NostrWorld {
  /** `ws://host:port/nostr`. */
  readonly relayUrl: string;
  /** `http://host:port/primal`: the social-profile cache service (the wallet's `primal_api` setting). */
  readonly cacheUrl: string;
  /** `http://host:port/blossom`: the Blossom server (`PUT <blossomUrl>/upload`). */
  readonly blossomUrl: string;
  /** The seeded people (fixed keys), with their lightning addresses on the world's LNURL service. */
  readonly seeded: readonly Person[];
  /** Adds a person: a new key, a profile on the relay, a picture and (by default) a lightning address. */
  readonly seed: (p: NewPerson) => Person;
  /** Every event the relay holds, newest first. */
  readonly events: () => Event[];
  /** The relay itself (publish as a client would, query as its operator). */
  readonly relay: NostrRelay;
  readonly blossom: BlossomServer;
  readonly stop: () => void;
}

const MAX_JSON_BYTES = 64 * 1024;

const pathOf = (req: IncomingMessage) => (req.url ?? "/").split("?")[0]!;

const jsonBody = async (req: IncomingMessage): Promise<unknown> => {
  const bytes = await readBytes(req, MAX_JSON_BYTES);
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new HttpFailure(400, "The body must be JSON");
  }
};

export const startNostr = (
  server: Server,
  base: string,
  /**
   * The world's LNURL service, for the people's lightning addresses (none in the bare services), and its
   * hostile modes (the cache service lies under `/hostile/<scope>/primal`).
   */
  opts: { lnurl?: LnurlService; hostility?: Hostility; zapSecret?: Uint8Array } = {},
): NostrWorld => {
  const relayUrl = `${base.replace(/^http/, "ws")}/nostr`;
  const lies = (scope: string, filters: readonly Filter[]): Event[] => {
    const setting = opts.hostility?.of("relay", scope);
    return setting ? liesFor(setting, filters, opts.zapSecret ?? null) : [];
  };
  const relay = createRelay({ path: "/nostr", lies });
  const blossom = createBlossom(base, "/blossom");
  // The cache service signs its paging markers with a key of its own.
  const markerKey = new Uint8Array(createHash("sha256").update("local-world cache service").digest());
  const cache = createCache(relay, markerKey);
  /** The cache service reading a hostile scope's relay: the stored events and that scope's lies. */
  const lyingCache = (scope: string) =>
    createCache(
      {
        events: relay.events,
        query: (filters) =>
          [...relay.query(filters), ...lies(scope, filters.map(parseFilter))].sort(
            (a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1),
          ),
      },
      markerKey,
    );
  const strangerKey = new Uint8Array(createHash("sha256").update("local-world stranger").digest());
  const people = createPeople(relay, relayUrl, blossom, opts.lnurl ?? null);

  const onRequest = (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = pathOf(req);
    const method = req.method ?? "GET";
    const hostile = /^\/hostile\/([a-z0-9-]{1,40})\/primal$/.exec(path);
    if (path === "/primal" || path === "/nostr/seed" || hostile) {
      answer(res, async () => {
        if (method === "OPTIONS") {
          res.writeHead(204, CORS);
          res.end();
          return;
        }
        if (method !== "POST") throw new HttpFailure(405, "POST only");
        const body = await jsonBody(req);
        if (hostile) {
          const mode = opts.hostility?.of("primal", hostile[1]!)?.mode;
          if (mode)
            return lieAsCache(
              res,
              mode,
              () => cache.answer(body),
              () => strangerProfile(strangerKey),
            );
          if (opts.hostility?.of("relay", hostile[1]!))
            return sendJson(res, 200, lyingCache(hostile[1]!).answer(body));
        }
        if (path !== "/nostr/seed") return sendJson(res, 200, cache.answer(body));
        if (!body || typeof body !== "object" || Array.isArray(body))
          throw new HttpFailure(400, "The body must be a JSON object");
        try {
          const p = people.add(parseNewPerson(body as Record<string, unknown>));
          sendJson(res, 200, p);
        } catch (e) {
          throw e instanceof BadPerson ? new HttpFailure(400, e.message) : e;
        }
      });
      return true;
    }
    if (path === "/nostr" && method === "OPTIONS") {
      res.writeHead(204, CORS);
      res.end();
      return true;
    }
    return relay.handleInfo(req, res) || blossom.handle(req, res);
  };

  mountInFront(server, onRequest, (req, socket, head) => relay.handleUpgrade(req, socket, head));
  return {
    relayUrl,
    cacheUrl: `${base}/primal`,
    blossomUrl: blossom.url,
    seeded: people.seeded,
    seed: people.add,
    events: relay.events,
    relay,
    blossom,
    stop: relay.close,
  };
};

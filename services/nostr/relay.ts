/**
 * The local world's nostr relay, held in memory: NIP-01 (EVENT, REQ, CLOSE, COUNT; OK, EOSE, CLOSED, NOTICE),
 * NIP-09 deletions, NIP-11 information document, NIP-42 AUTH (gift wraps, kind 1059, are served only to the
 * authenticated addressee), replaceable / addressable / ephemeral kinds, and limits answered with CLOSED or
 * NOTICE. Every frame is input: nothing a client sends may throw out of the handler.
 *
 * Written small on `ws` and nostr-tools (event checks, filters, kinds) rather than on an npm relay library:
 * the ones on npm are pre-1.0 and bring their own stores and runtimes, and this one must gate gift wraps and
 * answer limits exactly as the README says.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type Event, getEventHash, validateEvent, verifyEvent } from "nostr-tools/pure";
import { type Filter, matchFilter } from "nostr-tools/filter";
import { isAddressableKind, isEphemeralKind, isReplaceableKind } from "nostr-tools/kinds";
import { type WebSocket, WebSocketServer } from "ws";
import { plainEvent } from "../../src/events/nostr-event";

export const LIMITS = {
  /** Bytes of one frame; a longer one gets a NOTICE. */
  maxMessageLength: 256 * 1024,
  /** Frames past this are not even read: the connection is closed (1009). */
  hardMessageLength: 1024 * 1024,
  maxSubscriptions: 20,
  maxFilters: 10,
  /** A filter's `limit` is clamped to this (NIP-11 `max_limit`); a REQ without one gets this many. */
  maxLimit: 500,
  maxSubidLength: 64,
  /** Events dated further ahead than this are refused. */
  createdAtUpperSeconds: 15 * 60,
  /** An AUTH event must be this recent. */
  authWindowSeconds: 10 * 60,
  /** Events held at most; past it new ones are refused (the world lives in memory). */
  maxStoredEvents: 200_000,
  /** A client that lets this much queue up unread is disconnected. */
  maxBufferedBytes: 16 * 1024 * 1024,
} as const;

export const GIFT_WRAP = 1059;
/**
 * Wallet-connect requests (NIP-47, kind 23194) are in the ephemeral range, yet wallet-connect relays keep
 * them for a while so a wallet that was closed answers them when it comes back; this relay does the same
 * (an expiration tag still ends them).
 */
export const KEPT_EPHEMERAL: ReadonlySet<number> = new Set([23194]);
const DELETION = 5;
const CLIENT_AUTH = 22242;

interface Connection {
  readonly ws: WebSocket;
  readonly challenge: string;
  readonly authed: Set<string>;
  readonly subs: Map<string, Filter[]>;
  /** The hostile scope it connected under (`/hostile/<scope>/nostr`), or null. */
  readonly scope: string | null;
}

export interface RelayInfo {
  readonly name: string;
  readonly description: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Newest first; for the same second, the lowest id first (NIP-01). */
const newerFirst = (a: Event, b: Event) =>
  b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const dTag = (e: Event) => e.tags.find((t) => t[0] === "d")?.[1] ?? "";

/** The key under which only one event is kept (replaceable and addressable kinds), or null. */
const slotOf = (e: Event): string | null =>
  isReplaceableKind(e.kind)
    ? `${e.kind}:${e.pubkey}`
    : isAddressableKind(e.kind)
      ? `${e.kind}:${e.pubkey}:${dTag(e)}`
      : null;

const addresseesOf = (e: Event): string[] => e.tags.flatMap((t) => (t[0] === "p" && t[1] ? [t[1]] : []));

class BadFilter extends Error {}

const strings = (v: unknown, what: string, pattern?: RegExp): string[] => {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || (pattern && !pattern.test(x))))
    throw new BadFilter(
      `${what} must be a list of ${pattern ? "64-character lower-case hex strings" : "strings"}`,
    );
  return v as string[];
};

const whole = (v: unknown, what: string): number => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new BadFilter(`${what} must be a whole number`);
  return v;
};

/** A filter as NIP-01 writes it, with `limit` clamped; anything else is refused. */
export const parseFilter = (raw: unknown): Filter => {
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw new BadFilter("a filter must be an object");
  const out: Filter = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k === "ids") out.ids = strings(v, "ids", HEX64);
    else if (k === "authors") out.authors = strings(v, "authors", HEX64);
    else if (k === "kinds") {
      if (!Array.isArray(v)) throw new BadFilter("kinds must be a list of whole numbers");
      out.kinds = v.map((x) => whole(x, "a kind"));
    } else if (k === "since") out.since = whole(v, "since");
    else if (k === "until") out.until = whole(v, "until");
    else if (k === "limit") out.limit = Math.min(whole(v, "limit"), LIMITS.maxLimit);
    else if (/^#[A-Za-z]$/.test(k)) out[k as `#${string}`] = strings(v, k);
    else if (k === "search") {
      if (typeof v !== "string") throw new BadFilter("search must be a string");
      out.search = v;
    } else throw new BadFilter(`unknown filter field ${k.slice(0, 20)}`);
  }
  return out;
};

const matchesSearch = (f: Filter, e: Event) =>
  f.search === undefined || e.content.toLowerCase().includes(f.search.toLowerCase());

export interface NostrRelay {
  /** Handles `GET <path>` with `Accept: application/nostr+json` (NIP-11); answers whether it did. */
  readonly handleInfo: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Takes a WebSocket upgrade for the relay's path; answers whether it did. */
  readonly handleUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
  /** Checks and stores (or forwards) an event as if a client sent it; answers NIP-01's OK reason. */
  readonly publish: (event: Event) => { ok: boolean; message: string };
  /** Stored events matching the filters, newest first (gift wraps included: this is the operator's view). */
  readonly query: (filters: Filter[]) => Event[];
  /** Every stored event, newest first. */
  readonly events: () => Event[];
  readonly connections: () => number;
  readonly close: () => void;
}

export const createRelay = (
  opts: {
    path?: string;
    info?: Partial<RelayInfo>;
    /** Events a hostile scope adds to its answer to a REQ (see `hostile-relay.ts`); none by default. */
    lies?: (scope: string, filters: readonly Filter[]) => Event[];
  } = {},
): NostrRelay => {
  const path = opts.path ?? "/nostr";
  const info = {
    name: opts.info?.name ?? "Local world relay",
    description:
      opts.info?.description ??
      "The local regtest world's relay: in memory, gift wraps (kind 1059) only to their authenticated addressee.",
    supported_nips: [1, 9, 11, 40, 42, 45],
    software: "harness/nostr/relay.ts",
    version: "1",
    limitation: {
      max_message_length: LIMITS.maxMessageLength,
      max_subscriptions: LIMITS.maxSubscriptions,
      max_filters: LIMITS.maxFilters,
      max_limit: LIMITS.maxLimit,
      max_subid_length: LIMITS.maxSubidLength,
      default_limit: LIMITS.maxLimit,
      created_at_upper_limit: LIMITS.createdAtUpperSeconds,
      auth_required: false,
      payment_required: false,
      restricted_writes: false,
    },
  };

  /** Stored events, newest first. */
  let sorted: Event[] = [];
  const byId = new Map<string, Event>();
  /** The event id kept for each replaceable / addressable slot. */
  const slots = new Map<string, string>();
  /** Ids deleted by their author (NIP-09), and per slot the time up to which versions are deleted. */
  const deletedIds = new Map<string, string>();
  const deletedSlots = new Map<string, number>();
  const conns = new Set<Connection>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: LIMITS.hardMessageLength });

  const insert = (e: Event) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newerFirst(sorted[mid]!, e) < 0) lo = mid + 1;
      else hi = mid;
    }
    sorted.splice(lo, 0, e);
    byId.set(e.id, e);
  };

  const remove = (ids: Set<string>) => {
    if (ids.size === 0) return;
    sorted = sorted.filter((e) => !ids.has(e.id));
    for (const id of ids) byId.delete(id);
  };

  const expired = (e: Event, now: number) => {
    const exp = e.tags.find((t) => t[0] === "expiration")?.[1];
    return exp !== undefined && /^\d+$/.test(exp) && Number(exp) <= now;
  };

  /** May this connection see this event? Gift wraps only by their authenticated addressee. */
  const visible = (c: Connection | null, e: Event) =>
    e.kind !== GIFT_WRAP || c === null || addresseesOf(e).some((p) => c.authed.has(p));

  const queryFor = (c: Connection | null, filters: Filter[]): Event[] => {
    const now = Math.floor(Date.now() / 1000);
    const found = new Map<string, Event>();
    for (const f of filters) {
      const limit = f.limit ?? LIMITS.maxLimit;
      if (limit === 0) continue;
      let n = 0;
      const candidates = f.ids ? f.ids.flatMap((id) => byId.get(id) ?? []).sort(newerFirst) : sorted;
      for (const e of candidates) {
        if (f.until !== undefined && e.created_at > f.until) continue;
        if (f.since !== undefined && e.created_at < f.since) {
          if (!f.ids) break;
          continue;
        }
        if (!matchFilter(f, e) || !matchesSearch(f, e) || !visible(c, e) || expired(e, now)) continue;
        found.set(e.id, e);
        if (++n >= limit) break;
      }
    }
    return [...found.values()].sort(newerFirst);
  };

  const send = (c: Connection, msg: unknown[]) => {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if (c.ws.bufferedAmount > LIMITS.maxBufferedBytes) {
      c.ws.close(1008, "too slow: reading too little of what was asked");
      return;
    }
    c.ws.send(JSON.stringify(msg));
  };

  const fanOut = (e: Event) => {
    for (const c of conns) {
      if (!visible(c, e)) continue;
      for (const [id, filters] of c.subs)
        if (filters.some((f) => matchFilter(f, e) && matchesSearch(f, e))) send(c, ["EVENT", id, e]);
    }
  };

  /** Checks shape, id and signature; answers a NIP-01 reason on failure. */
  const check = (raw: unknown): { event: Event } | { error: string; id: string } => {
    const id =
      raw && typeof raw === "object" && typeof (raw as { id?: unknown }).id === "string"
        ? String((raw as { id: string }).id).slice(0, 64)
        : "";
    try {
      if (!validateEvent(raw)) return { error: "invalid: not a nostr event", id };
      const e = raw as Event;
      if (
        !HEX64.test(e.id) ||
        !/^[0-9a-f]{128}$/.test(e.sig) ||
        !Number.isSafeInteger(e.created_at) ||
        e.created_at < 0 ||
        !Number.isInteger(e.kind) ||
        e.kind < 0 ||
        e.kind > 65535
      )
        return { error: "invalid: not a nostr event", id };
      if (getEventHash(e) !== e.id) return { error: "invalid: event id does not match", id };
      // A fresh object: nostr-tools caches a verification result on the event it is given.
      const copy: Event = plainEvent(e);
      if (!verifyEvent(copy)) return { error: "invalid: bad signature", id };
      return { event: copy };
    } catch {
      return { error: "invalid: not a nostr event", id };
    }
  };

  const applyDeletion = (del: Event) => {
    const gone = new Set<string>();
    for (const t of del.tags) {
      if (t[0] === "e" && typeof t[1] === "string" && HEX64.test(t[1])) {
        const target = byId.get(t[1]);
        // NIP-09: only the author's own events go; an unknown id is remembered, so it cannot come back.
        if (target && target.pubkey !== del.pubkey) continue;
        deletedIds.set(t[1], del.pubkey);
        if (target && target.kind !== DELETION) gone.add(target.id);
      } else if (t[0] === "a" && typeof t[1] === "string") {
        const m = /^(\d+):([0-9a-f]{64}):(.*)$/s.exec(t[1]);
        if (!m || m[2] !== del.pubkey) continue;
        const kind = Number(m[1]);
        const slot = isReplaceableKind(kind) ? `${kind}:${m[2]}` : `${kind}:${m[2]}:${m[3]}`;
        deletedSlots.set(slot, Math.max(deletedSlots.get(slot) ?? 0, del.created_at));
        const held = slots.get(slot);
        const target = held ? byId.get(held) : undefined;
        if (target && target.created_at <= del.created_at) {
          gone.add(target.id);
          slots.delete(slot);
        }
      }
    }
    for (const id of gone) {
      const e = byId.get(id);
      const slot = e && slotOf(e);
      if (slot && slots.get(slot) === id) slots.delete(slot);
    }
    remove(gone);
  };

  const accept = (e: Event): { ok: boolean; message: string } => {
    const now = Math.floor(Date.now() / 1000);
    if (e.created_at > now + LIMITS.createdAtUpperSeconds)
      return { ok: false, message: "invalid: created_at is too far in the future" };
    if (e.kind === CLIENT_AUTH) return { ok: false, message: "invalid: AUTH events go in an AUTH message" };
    if (expired(e, now)) return { ok: false, message: "invalid: this event has expired" };
    if (isEphemeralKind(e.kind) && !KEPT_EPHEMERAL.has(e.kind)) {
      fanOut(e);
      return { ok: true, message: "" };
    }
    if (byId.has(e.id)) return { ok: true, message: "duplicate: already have this event" };
    if (sorted.length >= LIMITS.maxStoredEvents)
      return {
        ok: false,
        message: `rate-limited: this relay holds at most ${LIMITS.maxStoredEvents} events`,
      };
    if (deletedIds.get(e.id) === e.pubkey) return { ok: false, message: "blocked: deleted by its author" };
    const slot = slotOf(e);
    if (slot) {
      const until = deletedSlots.get(slot);
      if (until !== undefined && e.created_at <= until)
        return { ok: false, message: "blocked: deleted by its author" };
      const heldId = slots.get(slot);
      const held = heldId ? byId.get(heldId) : undefined;
      if (held) {
        if (newerFirst(held, e) < 0) return { ok: true, message: "duplicate: have a newer version" };
        remove(new Set([held.id]));
      }
      slots.set(slot, e.id);
    }
    insert(e);
    if (e.kind === DELETION) applyDeletion(e);
    fanOut(e);
    return { ok: true, message: "" };
  };

  const onAuth = (c: Connection, raw: unknown, req: IncomingMessage) => {
    const checked = check(raw);
    if ("error" in checked) return send(c, ["OK", checked.id, false, checked.error]);
    const e = checked.event;
    const tag = (name: string) => e.tags.find((t) => t[0] === name)?.[1];
    const now = Math.floor(Date.now() / 1000);
    let relayPath: string | null = null;
    try {
      const u = new URL(tag("relay") ?? "");
      if (u.protocol === "ws:" || u.protocol === "wss:") relayPath = u.pathname.replace(/\/+$/, "");
    } catch {
      relayPath = null;
    }
    const reason =
      e.kind !== CLIENT_AUTH
        ? "invalid: an AUTH event has kind 22242"
        : tag("challenge") !== c.challenge
          ? "invalid: wrong challenge"
          : relayPath !== (req.url ?? path).split("?")[0]!.replace(/\/+$/, "")
            ? "invalid: the relay tag names another relay"
            : Math.abs(e.created_at - now) > LIMITS.authWindowSeconds
              ? "invalid: the AUTH event is not recent"
              : null;
    if (reason) return send(c, ["OK", e.id, false, reason]);
    c.authed.add(e.pubkey);
    send(c, ["OK", e.id, true, ""]);
  };

  const onReq = (c: Connection, msg: unknown[], count: boolean) => {
    const verb = count ? "COUNT" : "REQ";
    const id = msg[1];
    if (typeof id !== "string" || id.length === 0 || id.length > LIMITS.maxSubidLength)
      return send(c, [
        "NOTICE",
        `invalid: a ${verb} needs a subscription id of 1 to ${LIMITS.maxSubidLength} characters`,
      ]);
    const rawFilters = msg.slice(2);
    if (rawFilters.length > LIMITS.maxFilters)
      return send(c, ["CLOSED", id, `invalid: at most ${LIMITS.maxFilters} filters in one ${verb}`]);
    let filters: Filter[];
    try {
      filters = rawFilters.map(parseFilter);
    } catch (e) {
      return send(c, ["CLOSED", id, `invalid: ${e instanceof BadFilter ? e.message : "bad filter"}`]);
    }
    // The filters parsed, so each is an object whose limit, if any, is a whole number.
    if (rawFilters.some((f) => Number((f as { limit?: number }).limit ?? 0) > LIMITS.maxLimit))
      send(c, [
        "NOTICE",
        `limit: ${id.slice(0, 20)} asked for more than ${LIMITS.maxLimit} events per filter; clamped`,
      ]);
    if (!count && !c.subs.has(id) && c.subs.size >= LIMITS.maxSubscriptions)
      return send(c, [
        "CLOSED",
        id,
        `rate-limited: at most ${LIMITS.maxSubscriptions} subscriptions at once`,
      ]);
    const wantsWraps = filters.some((f) => f.kinds?.includes(GIFT_WRAP));
    if (wantsWraps && c.authed.size === 0)
      return send(c, ["CLOSED", id, "auth-required: gift wraps are served only to their addressee"]);
    if (count) return send(c, ["COUNT", id, { count: queryFor(c, filters).length }]);
    c.subs.set(id, filters);
    for (const e of queryFor(c, filters)) send(c, ["EVENT", id, e]);
    if (c.scope !== null) for (const e of opts.lies?.(c.scope, filters) ?? []) send(c, ["EVENT", id, e]);
    send(c, ["EOSE", id]);
  };

  const onMessage = (c: Connection, data: string, req: IncomingMessage) => {
    if (Buffer.byteLength(data) > LIMITS.maxMessageLength)
      return send(c, ["NOTICE", `invalid: messages are at most ${LIMITS.maxMessageLength} bytes`]);
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      return send(c, ["NOTICE", "invalid: a message must be a JSON array"]);
    }
    if (!Array.isArray(msg) || typeof msg[0] !== "string")
      return send(c, ["NOTICE", "invalid: a message must be a JSON array starting with its type"]);
    switch (msg[0]) {
      case "EVENT": {
        const checked = check(msg[1]);
        if ("error" in checked) return send(c, ["OK", checked.id, false, checked.error]);
        const r = accept(checked.event);
        return send(c, ["OK", checked.event.id, r.ok, r.message]);
      }
      case "REQ":
        return onReq(c, msg, false);
      case "COUNT":
        return onReq(c, msg, true);
      case "CLOSE":
        if (typeof msg[1] !== "string") return send(c, ["NOTICE", "invalid: CLOSE needs a subscription id"]);
        c.subs.delete(msg[1]);
        return;
      case "AUTH":
        return onAuth(c, msg[1], req);
      default:
        return send(c, ["NOTICE", `invalid: unknown message type ${msg[0].slice(0, 20)}`]);
    }
  };

  const onConnection = (ws: WebSocket, req: IncomingMessage, scope: string | null) => {
    const c: Connection = {
      ws,
      scope,
      challenge: randomBytes(16).toString("hex"),
      authed: new Set(),
      subs: new Map(),
    };
    conns.add(c);
    ws.on("message", (data) => {
      try {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Uint8Array);
        onMessage(c, bytes.toString("utf8"), req);
      } catch (e) {
        // Nothing a client sends may stop the relay; say so and carry on.
        send(c, ["NOTICE", `error: ${e instanceof Error ? e.message.slice(0, 100) : "internal error"}`]);
      }
    });
    ws.on("error", () => ws.terminate());
    ws.on("close", () => conns.delete(c));
    send(c, ["AUTH", c.challenge]);
  };

  const pathOf = (req: IncomingMessage) => (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "");

  return {
    handleInfo: (req, res) => {
      if (pathOf(req) !== path || (req.method !== "GET" && req.method !== "HEAD")) return false;
      if (req.headers.upgrade) return false;
      const wantsInfo = (req.headers.accept ?? "").includes("application/nostr+json");
      const headers = {
        "access-control-allow-origin": "*",
        "access-control-allow-headers": "*",
        "access-control-allow-methods": "GET, OPTIONS",
      };
      if (wantsInfo) {
        res.writeHead(200, { ...headers, "content-type": "application/nostr+json" });
        res.end(req.method === "HEAD" ? undefined : JSON.stringify(info));
      } else {
        res.writeHead(200, { ...headers, "content-type": "text/plain" });
        res.end(req.method === "HEAD" ? undefined : "A nostr relay: connect with a WebSocket (NIP-01).\n");
      }
      return true;
    },
    handleUpgrade: (req, socket, head) => {
      const hostile = /^\/hostile\/([a-z0-9-]{1,40})(\/.*)$/.exec(pathOf(req));
      if (pathOf(req) !== path && hostile?.[2] !== path) return false;
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, req, hostile?.[1] ?? null));
      return true;
    },
    publish: (raw) => {
      const checked = check(raw);
      return "error" in checked ? { ok: false, message: checked.error } : accept(checked.event);
    },
    query: (filters) => queryFor(null, filters.map(parseFilter)),
    events: () => [...sorted],
    connections: () => conns.size,
    close: () => {
      for (const c of conns) c.ws.terminate();
      conns.clear();
      wss.close();
    },
  };
};

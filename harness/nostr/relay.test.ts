/**
 * The world's relay against an outside client (nostr-tools' Relay and SimplePool) and against raw, fuzzed
 * frames over a plain WebSocket.
 */
import fc from "fast-check";
import { SimplePool, useWebSocketImplementation as poolWebSocket } from "nostr-tools/pool";
import {
  type Event,
  type EventTemplate,
  finalizeEvent,
  generateSecretKey,
  getPublicKey,
} from "nostr-tools/pure";
import { Relay, useWebSocketImplementation as relayWebSocket } from "nostr-tools/relay";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { LIMITS } from "../../services/nostr/relay";
import { serveNostr } from "./standalone";
import type { NostrWorld } from "./world";

relayWebSocket(WebSocket);
poolWebSocket(WebSocket);

const now = () => Math.floor(Date.now() / 1000);
const sign = (sk: Uint8Array, t: Partial<EventTemplate> & { kind: number }): Event =>
  finalizeEvent({ created_at: now(), tags: [], content: "", ...t }, sk);

/** Everything the relay answers to `filters`, up to EOSE (or the reason it closed the subscription). */
const fetchAll = (relay: Relay, filters: Parameters<Relay["subscribe"]>[0]) =>
  new Promise<{ events: Event[]; closed: string | null }>((resolve) => {
    const events: Event[] = [];
    const sub = relay.subscribe(filters, {
      onevent: (e) => events.push(e),
      oneose: () => {
        resolve({ events, closed: null });
        sub.close();
      },
      onclose: (reason) => resolve({ events, closed: reason }),
    });
  });

/** A connection authenticated (NIP-42) as `sk`'s public key. */
const authedRelay = async (url: string, sk: Uint8Array) => {
  const relay = await Relay.connect(url);
  for (let i = 0; ; i++) {
    try {
      await relay.auth(async (t) => finalizeEvent(t, sk));
      return relay;
    } catch (e) {
      // The challenge arrives just after the connection opens.
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
};

/** A raw WebSocket that collects every frame the relay sends. */
const rawClient = async (url: string) => {
  const ws = new WebSocket(url);
  const frames: unknown[][] = [];
  const waiters: { match: (f: unknown[]) => boolean; resolve: (f: unknown[]) => void }[] = [];
  ws.on("message", (d) => {
    const f = JSON.parse(d.toString()) as unknown[];
    frames.push(f);
    for (const w of waiters.splice(0)) {
      if (w.match(f)) w.resolve(f);
      else waiters.push(w);
    }
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const next = (match: (f: unknown[]) => boolean) =>
    new Promise<unknown[]>((resolve) => {
      const seen = frames.find(match);
      if (seen) resolve(seen);
      else waiters.push({ match, resolve });
    });
  return { ws, frames, next };
};

describe("the world's nostr relay", () => {
  let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
  let url: string;
  const alice = generateSecretKey();
  const bob = generateSecretKey();

  beforeAll(async () => {
    world = await serveNostr();
    url = world.nostr.relayUrl;
  });
  afterAll(async () => {
    await world?.stop();
  });

  it("answers its NIP-11 information document", async () => {
    const r = await fetch(url.replace(/^ws/, "http"), { headers: { accept: "application/nostr+json" } });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const info = await r.json();
    expect(info.supported_nips).toEqual(expect.arrayContaining([1, 9, 11, 42]));
    expect(info.limitation).toMatchObject({
      max_subscriptions: LIMITS.maxSubscriptions,
      max_limit: LIMITS.maxLimit,
    });
  });

  it("stores a published event and answers it to a query, then EOSE", async () => {
    const relay = await Relay.connect(url);
    const note = sign(alice, { kind: 1, content: "hello from the local world" });
    await relay.publish(note);
    const { events } = await fetchAll(relay, [{ authors: [getPublicKey(alice)], kinds: [1] }]);
    expect(events.map((e) => e.id)).toEqual([note.id]);
    // NIP-45: the same filter counted.
    expect(await relay.count([{ authors: [getPublicKey(alice)], kinds: [1] }], {})).toBe(1);
    relay.close();
  });

  it("keeps only the newest replaceable event, and answers an older one without storing it", async () => {
    const relay = await Relay.connect(url);
    const t = now() - 100;
    const v1 = sign(bob, { kind: 0, created_at: t, content: JSON.stringify({ name: "bob v1" }) });
    const v2 = sign(bob, { kind: 0, created_at: t + 10, content: JSON.stringify({ name: "bob v2" }) });
    const old = sign(bob, { kind: 0, created_at: t - 10, content: JSON.stringify({ name: "bob v0" }) });
    await relay.publish(v1);
    await relay.publish(v2);
    await relay.publish(old);
    const { events } = await fetchAll(relay, [{ authors: [getPublicKey(bob)], kinds: [0] }]);
    expect(events.map((e) => e.id)).toEqual([v2.id]);
    expect(world.nostr.events().filter((e) => e.kind === 0 && e.pubkey === getPublicKey(bob))).toHaveLength(
      1,
    );
    relay.close();
  });

  it("keeps the newest addressable event per d tag", async () => {
    const relay = await Relay.connect(url);
    const t = now() - 50;
    const a1 = sign(alice, { kind: 30078, created_at: t, tags: [["d", "settings"]], content: "1" });
    const a2 = sign(alice, { kind: 30078, created_at: t + 1, tags: [["d", "settings"]], content: "2" });
    const b = sign(alice, { kind: 30078, created_at: t, tags: [["d", "other"]], content: "b" });
    for (const e of [a1, a2, b]) await relay.publish(e);
    const { events } = await fetchAll(relay, [{ authors: [getPublicKey(alice)], kinds: [30078] }]);
    expect(events.map((e) => e.content).sort()).toEqual(["2", "b"]);
    const { events: one } = await fetchAll(relay, [{ kinds: [30078], "#d": ["settings"] }]);
    expect(one.map((e) => e.id)).toEqual([a2.id]);
    relay.close();
  });

  it("forwards an ephemeral event to a live subscription and never stores it", async () => {
    const listener = await Relay.connect(url);
    const sender = await Relay.connect(url);
    const got = new Promise<Event>((resolve) => {
      listener.subscribe([{ kinds: [20001], authors: [getPublicKey(bob)] }], { onevent: resolve });
    });
    const ping = sign(bob, { kind: 20001, content: "passing through" });
    // The subscription is open once the relay has answered its EOSE.
    await fetchAll(listener, [{ kinds: [20001], limit: 1 }]);
    await sender.publish(ping);
    expect((await got).id).toBe(ping.id);
    const { events } = await fetchAll(sender, [{ kinds: [20001] }]);
    expect(events).toEqual([]);
    expect(world.nostr.events().some((e) => e.id === ping.id)).toBe(false);
    listener.close();
    sender.close();
  });

  it("sends a live subscription exactly the new events one of its filters matches", async () => {
    const listener = await Relay.connect(url);
    const sender = await Relay.connect(url);
    const carol = generateSecretKey();
    const got: Event[] = [];
    const eose = new Promise<void>((resolve) => {
      listener.subscribe(
        [
          { kinds: [1], authors: [getPublicKey(carol)], search: "apple" },
          { kinds: [7], authors: [getPublicKey(carol)] },
        ],
        { onevent: (e) => got.push(e), oneose: resolve },
      );
    });
    await eose;
    const apple = sign(carol, { kind: 1, content: "Apple pie" });
    const banana = sign(carol, { kind: 1, content: "banana bread" });
    const reaction = sign(carol, { kind: 7, content: "+" });
    const last = sign(carol, { kind: 7, content: "done" });
    for (const e of [apple, banana, reaction, last]) await sender.publish(e);
    await vi.waitFor(() => expect(got.map((e) => e.id)).toContain(last.id));
    expect(got.map((e) => e.id)).toEqual([apple.id, reaction.id, last.id]);
    listener.close();
    sender.close();
  });

  it("deletes an author's event on their kind 5, refuses it back, and ignores deletions by others", async () => {
    const relay = await Relay.connect(url);
    const mine = sign(alice, { kind: 1, content: "to be deleted" });
    const theirs = sign(bob, { kind: 1, content: "bob's, which alice cannot delete" });
    await relay.publish(mine);
    await relay.publish(theirs);
    await relay.publish(
      sign(alice, {
        kind: 5,
        tags: [
          ["e", mine.id],
          ["e", theirs.id],
        ],
      }),
    );
    const { events } = await fetchAll(relay, [{ ids: [mine.id, theirs.id] }]);
    expect(events.map((e) => e.id)).toEqual([theirs.id]);
    await expect(relay.publish(mine)).rejects.toThrow(/blocked/);
    // An addressable event deleted by its coordinate.
    const list = sign(alice, { kind: 30000, tags: [["d", "friends"]], created_at: now() - 5 });
    await relay.publish(list);
    await relay.publish(sign(alice, { kind: 5, tags: [["a", `30000:${getPublicKey(alice)}:friends`]] }));
    expect((await fetchAll(relay, [{ ids: [list.id] }])).events).toEqual([]);
    relay.close();
  });

  it("serves a gift wrap only to its authenticated addressee (NIP-42)", async () => {
    const carol = generateSecretKey();
    const wrap = sign(generateSecretKey(), {
      kind: 1059,
      tags: [["p", getPublicKey(carol)]],
      content: "sealed",
    });
    const publisher = await Relay.connect(url);
    await publisher.publish(wrap);
    // Not authenticated: the relay closes the subscription asking for AUTH.
    const anon = await fetchAll(publisher, [{ kinds: [1059], "#p": [getPublicKey(carol)] }]);
    expect(anon.closed).toMatch(/^auth-required: /);
    expect(anon.events).toEqual([]);
    // Nor does an open query (no kinds) leak it.
    expect((await fetchAll(publisher, [{ "#p": [getPublicKey(carol)] }])).events).toEqual([]);
    publisher.close();

    // Someone else, authenticated, still does not get it.
    const asBob = await authedRelay(url, bob);
    const bobs = await fetchAll(asBob, [{ kinds: [1059], "#p": [getPublicKey(carol)] }]);
    expect(bobs).toEqual({ events: [], closed: null });
    expect((await fetchAll(asBob, [{ kinds: [1059] }])).events).toEqual([]);
    asBob.close();

    // The addressee, through SimplePool's own AUTH handling, does.
    const carolPool = new SimplePool();
    const got = await new Promise<Event[]>((resolve) => {
      const events: Event[] = [];
      const sub = carolPool.subscribeMany(
        [url],
        { kinds: [1059], "#p": [getPublicKey(carol)] },
        {
          onauth: async (t) => finalizeEvent(t, carol),
          onevent: (e) => events.push(e),
          oneose: () => {
            sub.close();
            resolve(events);
          },
        },
      );
    });
    expect(got.map((e) => e.id)).toEqual([wrap.id]);
    carolPool.destroy();
  });

  it("refuses an AUTH event with the wrong challenge", async () => {
    const c = await rawClient(url);
    await c.next((f) => f[0] === "AUTH");
    const auth = sign(alice, {
      kind: 22242,
      tags: [
        ["relay", url],
        ["challenge", "not-the-one"],
      ],
    });
    c.ws.send(JSON.stringify(["AUTH", auth]));
    const ok = await c.next((f) => f[0] === "OK" && f[1] === auth.id);
    expect(ok[2]).toBe(false);
    c.ws.close();
  });

  it("answers an event with a bad signature or a wrong id with OK false", async () => {
    const relay = await Relay.connect(url);
    const good = sign(alice, { kind: 1, content: "original" });
    const forged = { ...good, sig: sign(bob, { kind: 1, content: "original" }).sig };
    await expect(relay.publish(forged)).rejects.toThrow(/invalid: bad signature/);
    const tampered = { ...good, content: "changed after signing" };
    await expect(relay.publish(tampered)).rejects.toThrow(/invalid: event id/);
    expect(world.nostr.events().some((e) => e.id === good.id)).toBe(false);
    relay.close();
  });

  it("answers limits with CLOSED or NOTICE and keeps serving", async () => {
    const c = await rawClient(url);
    const tooMany = Array.from({ length: LIMITS.maxFilters + 1 }, () => ({ kinds: [1] }));
    c.ws.send(JSON.stringify(["REQ", "filters", ...tooMany]));
    expect((await c.next((f) => f[0] === "CLOSED" && f[1] === "filters"))[2]).toMatch(/^invalid: /);
    for (let i = 0; i < LIMITS.maxSubscriptions; i++)
      c.ws.send(JSON.stringify(["REQ", `s${i}`, { limit: 0 }]));
    c.ws.send(JSON.stringify(["REQ", "one-too-many", { limit: 0 }]));
    expect((await c.next((f) => f[0] === "CLOSED" && f[1] === "one-too-many"))[2]).toMatch(/^rate-limited: /);
    c.ws.send(JSON.stringify(["REQ", "x".repeat(65), {}]));
    c.ws.send(JSON.stringify(["EVENT", { content: "x".repeat(LIMITS.maxMessageLength) }]));
    await c.next((f) => f[0] === "NOTICE" && String(f[1]).includes("at most"));
    c.ws.send(JSON.stringify(["REQ", "bad-filter", { kinds: "1" }]));
    expect((await c.next((f) => f[0] === "CLOSED" && f[1] === "bad-filter"))[2]).toMatch(/^invalid: /);
    // A limit over the relay's is clamped, and said so.
    const relay = await Relay.connect(url);
    const noticed = new Promise<string>((resolve) => {
      relay.onnotice = resolve;
    });
    await fetchAll(relay, [{ kinds: [1], limit: LIMITS.maxLimit + 1 }]);
    expect(await noticed).toMatch(/clamped/);
    relay.close();
    // A closed subscription frees its place.
    c.ws.send(JSON.stringify(["CLOSE", "s0"]));
    c.ws.send(JSON.stringify(["REQ", "after", { limit: 1 }]));
    await c.next((f) => f[0] === "EOSE" && f[1] === "after");
    c.ws.close();
  });

  it("survives fuzzed frames and still answers afterwards", async () => {
    const c = await rawClient(url);
    const frame = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json({ maxDepth: 3 }),
      fc
        .tuple(
          fc.constantFrom("EVENT", "REQ", "CLOSE", "AUTH", "COUNT", "EOSE", "OK", ""),
          fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }),
        )
        .map(([verb, rest]) => JSON.stringify([verb, ...rest])),
      fc
        .record({
          id: fc.string(),
          pubkey: fc.string(),
          created_at: fc.oneof(fc.integer(), fc.double(), fc.string()),
          kind: fc.oneof(fc.integer(), fc.double()),
          tags: fc.array(fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }), { maxLength: 3 }),
          content: fc.string(),
          sig: fc.string(),
        })
        .map((e) => JSON.stringify(["EVENT", e])),
      fc
        .record({
          ids: fc.array(fc.string()),
          kinds: fc.array(fc.oneof(fc.integer(), fc.string())),
          limit: fc.oneof(fc.integer(), fc.double(), fc.constant(null)),
          "#p": fc.oneof(fc.array(fc.string()), fc.string()),
        })
        .map((f) => JSON.stringify(["REQ", "fuzz", f])),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 20 }), async (frames) => {
        for (const f of frames) c.ws.send(f);
        c.ws.send(JSON.stringify(["CLOSE", "fuzz"]));
      }),
      { numRuns: 100 },
    );
    c.ws.send(Buffer.from([0xff, 0xfe, 0x00]), { binary: true });
    const deep = 60_000;
    c.ws.send(`${"[".repeat(deep)}${"]".repeat(deep)}`);
    c.ws.send(`["REQ","deep",${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}]`);
    c.ws.send(JSON.stringify(["REQ", "still-here", { limit: 1 }]));
    await c.next((f) => f[0] === "EOSE" && f[1] === "still-here");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
    // And a new client is served as before.
    const relay = await Relay.connect(url);
    const note = sign(bob, { kind: 1, content: "after the storm" });
    await relay.publish(note);
    expect((await fetchAll(relay, [{ ids: [note.id] }])).events).toHaveLength(1);
    relay.close();
  });
});

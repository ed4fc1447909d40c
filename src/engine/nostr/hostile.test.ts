/**
 * Every answer of a relay or the cache service is input. The cache client against the local world's lying
 * cache (harness/nostr/hostile-cache.ts); the relay client against a relay that sends what no honest relay
 * would (oversized frames, forged and malformed events) beside the world's honest one.
 */
import type { AddressInfo } from "node:net";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { Hostility } from "../../../harness/hostile";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import { AnswerTooLarge, RequestTimedOut } from "../http/bounded";
import { CACHE_LIMITS, CacheFailed, fetchCachedProfile } from "./cache";
import { MAX_EVENT_BYTES } from "./event";
import { RelaySet } from "./relays";

const hostility = new Hostility();
let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
beforeAll(async () => {
  world = await serveNostr({ hostility });
});
afterAll(async () => {
  hostility.set("primal", "nid", null);
  await world.stop();
});

/** The address of a local relay `server` once it listens. */
const listeningUrl = async (server: WebSocketServer): Promise<string> => {
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** The wallet's relay set on the one relay at `url`, with the default deadlines. */
const relaySetOn = (url: string) =>
  new RelaySet([url], WebSocket as unknown as typeof globalThis.WebSocket, () => undefined);

describe("the cache client against a lying cache service", () => {
  const ask = (fetchFn: typeof fetch = fetch) => {
    const alice = world.nostr.seeded[0];
    if (!alice) throw new Error("no seeded people");
    return { alice, answer: fetchCachedProfile(fetchFn, `${world.base}/hostile/nid/primal`, alice.pubkey) };
  };

  it("trusts only the asked key's validly signed profile", async () => {
    hostility.set("primal", "nid", null);
    const { alice, answer } = ask();
    expect((await answer)?.pubkey).toBe(alice.pubkey);
    hostility.set("primal", "nid", "forged-events");
    expect(await ask().answer).toBeNull();
    hostility.set("primal", "nid", "wrong-person");
    expect(await ask().answer).toBeNull();
  });

  it("refuses answers that are not arrays of JSON, too large, or never come", async () => {
    hostility.set("primal", "nid", "not-an-array");
    await expect(ask().answer).rejects.toBeInstanceOf(CacheFailed);
    hostility.set("primal", "nid", "malformed-json");
    await expect(ask().answer).rejects.toBeInstanceOf(CacheFailed);
    hostility.set("primal", "nid", "huge-answer");
    await expect(ask().answer).rejects.toBeInstanceOf(AnswerTooLarge);
    hostility.set("primal", "nid", "never-answers");
    // The wallet's deadline (CACHE_LIMITS), not the test's, ends the wait.
    await expect(ask().answer).rejects.toBeInstanceOf(RequestTimedOut);
    expect(CACHE_LIMITS.timeoutMs).toBeLessThanOrEqual(15_000);
    hostility.set("primal", "nid", null);
  });
});

describe("the relay client against a hostile relay", () => {
  it("drops oversized frames and events whose id or signature does not check, and keeps the honest ones", async () => {
    const sk = generateSecretKey();
    const honest = finalizeEvent(
      { kind: 0, created_at: 1_700_000_000, tags: [], content: '{"name":"ok"}' },
      sk,
    );
    const forged = { ...honest, content: '{"name":"forged","lud16":"thief@attacker.example"}' };
    const huge = finalizeEvent(
      { kind: 0, created_at: 1_700_000_001, tags: [], content: "x".repeat(MAX_EVENT_BYTES + 10) },
      sk,
    );
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    server.on("connection", (ws) => {
      ws.on("message", (data) => {
        const msg = JSON.parse(String(data)) as unknown[];
        if (msg[0] !== "REQ") return;
        const sub = msg[1];
        ws.send(JSON.stringify(["EVENT", sub, huge]));
        ws.send(JSON.stringify(["EVENT", sub, forged]));
        ws.send(JSON.stringify(["EVENT", sub, { ...honest, sig: "00".repeat(64) }]));
        ws.send(JSON.stringify(["EVENT", sub, { id: honest.id, kind: "zero" }]));
        ws.send("not json at all");
        ws.send(JSON.stringify(["EVENT", sub, honest]));
        ws.send(JSON.stringify(["EOSE", sub]));
      });
    });
    const url = await listeningUrl(server);
    const relays = relaySetOn(url);
    try {
      relays.start();
      await relays.whenConnected(10_000);
      const found = await relays.query({ kinds: [0], authors: [honest.pubkey] });
      expect(found.map((e) => e.id)).toEqual([honest.id]);
      expect(found[0]?.content).toBe('{"name":"ok"}');
    } finally {
      relays.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("counts a relay's 'duplicate:' refusal as holding the event, and a 'blocked:' one as final", async () => {
    const sk = generateSecretKey();
    const kept = finalizeEvent({ kind: 1, created_at: 1_700_000_000, tags: [], content: "kept" }, sk);
    const blocked = finalizeEvent({ kind: 1, created_at: 1_700_000_000, tags: [], content: "blocked" }, sk);
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    server.on("connection", (ws) => {
      ws.on("message", (data) => {
        const [type, e] = JSON.parse(String(data)) as [string, { id: string; content: string }];
        if (type !== "EVENT") return;
        const reason = e.content === "kept" ? "duplicate: already have it" : "blocked: not today";
        ws.send(JSON.stringify(["OK", e.id, false, reason]));
      });
    });
    const url = await listeningUrl(server);
    const relays = relaySetOn(url);
    try {
      relays.start();
      await relays.whenConnected(10_000);
      const relay = url;
      expect(await relays.publish(kept)).toEqual([
        { relay, kind: "held", reason: "duplicate: already have it" },
      ]);
      expect(await relays.publish(blocked)).toEqual([{ relay, kind: "final", reason: "blocked: not today" }]);
    } finally {
      relays.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a relay that never answers a query delays it only until the query deadline", async () => {
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    const url = await listeningUrl(server);
    const relays = new RelaySet(
      [url],
      WebSocket as unknown as typeof globalThis.WebSocket,
      () => undefined,
      undefined,
      {
        connectMs: 5_000,
        publishMs: 5_000,
        queryMs: 1_000,
        retryFirstMs: 1_000,
        retryMaxMs: 5_000,
      },
    );
    try {
      relays.start();
      await relays.whenConnected(10_000);
      expect(relays.connected().length).toBe(1);
      expect(await relays.query({ kinds: [0] })).toEqual([]);
    } finally {
      relays.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/**
 * The wallet's cache-service client against the local world's social-profile cache (harness/nostr), with
 * profiles published to the world's relay by nostr-tools; and against a hostile cache that answers what an
 * attacker's server would: not an array, cut-off JSON, 5 MB, forged profiles, nothing at all.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SimplePool, useWebSocketImplementation as poolWebSocket } from "nostr-tools/pool";
import { type Event, finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import { nprofileEncode, npubEncode } from "nostr-tools/nip19";
import {
  bareProfile,
  CacheFailed,
  cacheClient,
  MISSING_BASE_TEXT,
  pubkeyOfQuery,
  SEARCH_LIMIT,
} from "./search";
import { rejectionOf } from "../../../services/testing/rejection";

poolWebSocket(WebSocket);

const fetchFn = (input: string | URL | Request, init?: RequestInit) => fetch(input, init);
const now = () => Math.floor(Date.now() / 1000);

const failure = (p: Promise<unknown>) => rejectionOf(p, CacheFailed);

describe("social-profile cache client against the world's cache service", () => {
  let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
  const pool = new SimplePool();
  const publish = (e: Event) => Promise.all(pool.publish([world.nostr.relayUrl], e));

  beforeAll(async () => {
    world = await serveNostr();
  });
  afterAll(async () => {
    pool.destroy();
    await world?.stop();
  });

  it("finds a seeded person by a trimmed query, as a search result with npub and picture", async () => {
    const client = cacheClient(fetchFn, world.nostr.cacheUrl);
    const alice = world.nostr.seeded.find((p) => p.name === "alicebtc")!;
    const results = await client.search("  aliceB  ");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      hexpub: alice.pubkey,
      npub: alice.npub,
      name: "Alice Lovelace",
      image_url: alice.picture,
      primal_image_url: null,
    });
    expect(await client.search("   ")).toEqual([]);
  });

  it("looks a pasted npub, nprofile or nostr: link up directly, as nostr clients do; a key without a profile is still that person", async () => {
    const client = cacheClient(fetchFn, world.nostr.cacheUrl);
    const alice = world.nostr.seeded.find((p) => p.name === "alicebtc")!;
    const found = {
      hexpub: alice.pubkey,
      npub: alice.npub,
      name: "Alice Lovelace",
      image_url: alice.picture,
    };
    for (const query of [
      alice.npub,
      `  ${alice.npub.toUpperCase()} `,
      `nostr:${alice.npub}`,
      nprofileEncode({ pubkey: alice.pubkey, relays: [world.nostr.relayUrl] }),
    ]) {
      const results = await client.search(query);
      expect(results, query).toHaveLength(1);
      expect(results[0], query).toMatchObject(found);
    }
    // Nobody's profile is known for a new key: the person is found by their key alone, never "nobody".
    const stranger = getPublicKey(generateSecretKey());
    expect(await client.search(npubEncode(stranger))).toEqual([bareProfile(stranger)]);
    expect(bareProfile(stranger)).toMatchObject({ hexpub: stranger, npub: npubEncode(stranger), name: "" });
    // A name or a broken key is searched for as text.
    expect(pubkeyOfQuery("alicebtc")).toBeNull();
    const broken = `${alice.npub.slice(0, -1)}${alice.npub.endsWith("q") ? "p" : "q"}`;
    expect(pubkeyOfQuery(broken)).toBeNull();
    expect(pubkeyOfQuery(alice.npub)).toBe(alice.pubkey);
  });

  it("answers at most 10 profiles, and the newest profile of each person", async () => {
    const key = generateSecretKey();
    const sign = (content: object, created_at: number) =>
      finalizeEvent({ kind: 0, created_at, tags: [], content: JSON.stringify(content) }, key);
    await publish(sign({ name: "zoe-many-0", lud16: "old@example.com" }, now() - 100));
    await publish(sign({ name: "zoe-many-0", lud16: "zoe@example.com" }, now()));
    for (let i = 1; i < 14; i++)
      await publish(
        finalizeEvent(
          { kind: 0, created_at: now(), tags: [], content: JSON.stringify({ name: `zoe-many-${i}` }) },
          generateSecretKey(),
        ),
      );
    const client = cacheClient(fetchFn, world.nostr.cacheUrl);
    const results = await client.search("zoe-many");
    expect(results).toHaveLength(SEARCH_LIMIT);
    const zoe = await client.profile(getPublicKey(key));
    expect(zoe).toMatchObject({ name: "zoe-many-0", ln_address: "zoe@example.com" });
  });

  it("drops a lightning address, lnurl or picture that is not one, and cuts an endless name", async () => {
    const key = generateSecretKey();
    await publish(
      finalizeEvent(
        {
          kind: 0,
          created_at: now(),
          tags: [],
          content: JSON.stringify({
            name: `mallory${"x".repeat(500)}`,
            lud16: "not an address",
            lud06: "https://example.com/lnurl",
            picture: "javascript:alert(1)",
          }),
        },
        key,
      ),
    );
    const [mallory] = await cacheClient(fetchFn, world.nostr.cacheUrl).search("mallory");
    expect(mallory).toMatchObject({ ln_address: null, lnurl: null, image_url: null });
    expect(mallory!.name).toHaveLength(100);
  });

  it("says 'Missing PRIMAL_API environment variable' when no cache is set, and asks nothing", async () => {
    let asked = 0;
    const counting = (i: string | URL | Request, init?: RequestInit) => {
      asked++;
      return fetch(i, init);
    };
    const e = await failure(cacheClient(counting, "").search("alice"));
    expect(e).toMatchObject({ kind: "missing_base", message: MISSING_BASE_TEXT });
    expect(MISSING_BASE_TEXT).toBe("Missing PRIMAL_API environment variable");
    expect(asked).toBe(0);
  });

  it("an unknown person's profile is null; an unreadable key is 'Failed to load profile'", async () => {
    const client = cacheClient(fetchFn, world.nostr.cacheUrl);
    expect(await client.profile(getPublicKey(generateSecretKey()))).toBeNull();
    expect(await failure(client.profile("npub1notahexkey"))).toMatchObject({
      message: "Failed to load profile",
    });
  });
});

describe("social-profile cache client against a hostile cache", () => {
  let server: Server;
  let base = "";
  const alice = generateSecretKey();
  const attacker = generateSecretKey();
  const honest = finalizeEvent(
    {
      kind: 0,
      created_at: now(),
      tags: [],
      content: JSON.stringify({ name: "alice", lud16: "alice@example.com" }),
    },
    alice,
  );
  // The attacker's signature over a profile claiming to be Alice's, with the attacker's lightning address.
  const forged = {
    ...finalizeEvent(
      {
        kind: 0,
        created_at: now() + 10,
        tags: [],
        content: JSON.stringify({ name: "alice", lud16: "thief@evil.com" }),
      },
      attacker,
    ),
    pubkey: getPublicKey(alice),
  };
  const answers: Record<string, (res: import("node:http").ServerResponse) => void> = {
    "not-array": (res) => res.end(JSON.stringify({ events: [honest] })),
    "cut-off": (res) => res.end(JSON.stringify([honest]).slice(0, 40)),
    huge: (res) => {
      res.write("[");
      const chunk = `${JSON.stringify(honest)},`.repeat(200);
      let sent = 0;
      const more = () => {
        while (sent < 5_000_000) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end(`${JSON.stringify(honest)}]`);
      };
      more();
    },
    forged: (res) => res.end(JSON.stringify([forged, { kind: 0, junk: true }, "text", 42, null, honest])),
    "server-error": (res) => {
      res.statusCode = 500;
      res.end("[]");
    },
    silent: () => undefined,
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      const mode = (req.url ?? "").slice(1);
      res.setHeader("content-type", "application/json");
      answers[mode]?.(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const client = (mode: string) =>
    cacheClient(fetchFn, `${base}/${mode}`, { timeoutMs: 1_500, maxBytes: 1_000_000 });

  it.each(["not-array", "cut-off", "huge", "server-error", "silent"])(
    "a cache answering %s is 'Failed to search'",
    async (mode) => {
      expect(await failure(client(mode).search("alice"))).toMatchObject({
        kind: "search",
        message: "Failed to search",
      });
    },
  );

  it("keeps only profiles signed by the key they describe, skipping whatever else is in the array", async () => {
    const results = await client("forged").search("alice");
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ hexpub: getPublicKey(alice), ln_address: "alice@example.com" });
  });
});

/**
 * The social-profile cache service and the Blossom server of the world's nostr services, driven over HTTP as
 * the wallet drives them, with events published through nostr-tools.
 */
import { createHash } from "node:crypto";
import { SimplePool, useWebSocketImplementation as poolWebSocket } from "nostr-tools/pool";
import { type Event, finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Hostility } from "../hostile";
import WebSocket from "ws";
import { avatarPng } from "./avatar";
import { MAX_BLOB_BYTES } from "./blossom";
import { PAGING_MARKER, ZAP_RECEIPT } from "../../services/nostr/cache";
import { ATTACKER_LUD16 } from "./hostile-cache";
import { serveNostr } from "./standalone";
import type { NostrWorld } from "./world";

poolWebSocket(WebSocket);

const now = () => Math.floor(Date.now() / 1000);
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("the world's social-profile cache service and Blossom server", () => {
  let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
  const pool = new SimplePool();
  const publish = (e: Event) => Promise.all(pool.publish([world.nostr.relayUrl], e));
  const cache = async (body: unknown) => {
    const r = await fetch(world.nostr.cacheUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: r.status, json: await r.json(), cors: r.headers.get("access-control-allow-origin") };
  };

  const hostility = new Hostility();
  beforeAll(async () => {
    world = await serveNostr({ hostility });
  });
  afterAll(async () => {
    pool.destroy();
    await world?.stop();
  });

  it("finds the seeded people by name, any case, at most `limit`, and not deleted profiles", async () => {
    const r = await cache(["user_search", { query: "ALICEB", limit: 10 }]);
    expect(r.status).toBe(200);
    expect(r.cors).toBe("*");
    expect(r.json).toHaveLength(1);
    const [alice] = r.json as Event[];
    expect(alice!.kind).toBe(0);
    expect(JSON.parse(alice!.content)).toMatchObject({ name: "alicebtc", display_name: "Alice Lovelace" });
    expect(alice!.pubkey).toBe(world.nostr.seeded.find((p) => p.name === "alicebtc")!.pubkey);

    // Someone new, found by display name, lightning address and nip05; a deleted profile is not.
    const sk = generateSecretKey();
    const profile = {
      name: "zed",
      display_name: "Zedekiah Quux",
      lud16: "zq@wallet.example",
      nip05: "zq@quux.example",
    };
    await publish(
      finalizeEvent({ kind: 0, created_at: now(), tags: [], content: JSON.stringify(profile) }, sk),
    );
    for (const q of ["zedekiah", "ZQ@WALLET", "quux.example"]) {
      const found = (await cache(["user_search", { query: q }])).json as Event[];
      expect(found.map((e) => e.pubkey)).toEqual([getPublicKey(sk)]);
    }
    const gone = generateSecretKey();
    const deleted = { name: "zedekiah-old", deleted: true };
    await publish(
      finalizeEvent({ kind: 0, created_at: now(), tags: [], content: JSON.stringify(deleted) }, gone),
    );
    expect(
      ((await cache(["user_search", { query: "zedekiah" }])).json as Event[]).map((e) => e.pubkey),
    ).toEqual([getPublicKey(sk)]);
    // Many people hold an "o" in their names; the limit holds.
    expect((await cache(["user_search", { query: "o", limit: 2 }])).json).toHaveLength(2);
  });

  it("answers a user's newest profile, and an empty array for someone unknown", async () => {
    const sk = generateSecretKey();
    const pubkey = getPublicKey(sk);
    await publish(
      finalizeEvent({ kind: 0, created_at: now() - 10, tags: [], content: '{"name":"old"}' }, sk),
    );
    await publish(finalizeEvent({ kind: 0, created_at: now(), tags: [], content: '{"name":"new"}' }, sk));
    const r = await cache(["user_profile", { pubkey }]);
    expect((r.json as Event[]).map((e) => JSON.parse(e.content).name)).toEqual(["new"]);
    expect((await cache(["user_profile", { pubkey: getPublicKey(generateSecretKey()) }])).json).toEqual([]);
  });

  it("answers a zaps feed: receipts touching the pubkeys, their people's profiles, a paging marker", async () => {
    const zapper = generateSecretKey();
    const [alice, bob] = world.nostr.seeded;
    const sender = generateSecretKey();
    const t = now() - 1000;
    const receipt = (to: string, at: number, from: Uint8Array) => {
      const request = finalizeEvent(
        {
          kind: 9734,
          created_at: at,
          tags: [
            ["p", to],
            ["amount", "21000"],
          ],
          content: "",
        },
        from,
      );
      return finalizeEvent(
        {
          kind: ZAP_RECEIPT,
          created_at: at,
          tags: [
            ["p", to],
            ["description", JSON.stringify(request)],
          ],
          content: "",
        },
        zapper,
      );
    };
    const toAlice = [receipt(alice!.pubkey, t, sender), receipt(alice!.pubkey, t + 10, sender)];
    const toSomeoneElse = receipt(getPublicKey(generateSecretKey()), t + 20, sender);
    for (const e of [...toAlice, toSomeoneElse]) await publish(e);

    const r = await cache([
      "zaps_feed",
      { kinds: [9735, 0, 10000113], limit: 100, pubkeys: [alice!.pubkey, bob!.pubkey] },
    ]);
    const events = r.json as Event[];
    expect(events.filter((e) => e.kind === ZAP_RECEIPT).map((e) => e.id)).toEqual([
      toAlice[1]!.id,
      toAlice[0]!.id,
    ]);
    // Alice's profile (the receiver); the sender has none.
    expect(events.filter((e) => e.kind === 0).map((e) => e.pubkey)).toEqual([alice!.pubkey]);
    const marker = events.find((e) => e.kind === PAGING_MARKER)!;
    expect(JSON.parse(marker.content)).toMatchObject({ until: t, since: t + 10 });

    // Paging: until the oldest, limit 1; and `since` leaves older ones out.
    const older = await cache(["zaps_feed", { pubkeys: [alice!.pubkey], limit: 1, until: t + 5 }]);
    expect((older.json as Event[]).filter((e) => e.kind === ZAP_RECEIPT).map((e) => e.id)).toEqual([
      toAlice[0]!.id,
    ]);
    const newer = await cache(["zaps_feed", { pubkeys: [alice!.pubkey], limit: 100, since: t + 5 }]);
    expect((newer.json as Event[]).filter((e) => e.kind === ZAP_RECEIPT).map((e) => e.id)).toEqual([
      toAlice[1]!.id,
    ]);
  });

  it("refuses a body that is not a [verb, payload] array, and unknown verbs", async () => {
    expect((await cache({ user_search: "x" })).status).toBe(400);
    expect((await cache(["user_profile", { pubkey: "nope" }])).status).toBe(400);
    expect((await cache(["delete_everything", {}])).status).toBe(400);
    const broken = await fetch(world.nostr.cacheUrl, { method: "POST", body: "[not json" });
    expect(broken.status).toBe(400);
  });

  it("lies under /hostile/<scope>/primal as the scope's mode says, and stays honest at the root", async () => {
    const alice = world.nostr.seeded[0]!;
    const asked = ["user_profile", { pubkey: alice.pubkey }];
    const hostileUrl = world.nostr.cacheUrl.replace("/primal", "/hostile/h1/primal");
    const ask = (signal?: AbortSignal) =>
      fetch(hostileUrl, { method: "POST", body: JSON.stringify(asked), ...(signal ? { signal } : {}) });
    // No mode set: honest there too.
    expect(((await (await ask()).json()) as Event[])[0]!.pubkey).toBe(alice.pubkey);

    hostility.set("primal", "h1", "not-an-array");
    expect(Array.isArray(await (await ask()).json())).toBe(false);
    hostility.set("primal", "h1", "malformed-json");
    await expect((await ask()).json()).rejects.toThrow();
    hostility.set("primal", "h1", "forged-events");
    const [forged] = (await (await ask()).json()) as Event[];
    expect(JSON.parse(forged!.content).lud16).toBe(ATTACKER_LUD16);
    expect(verifyEvent(forged!)).toBe(false);
    hostility.set("primal", "h1", "wrong-person");
    const [wrong] = (await (await ask()).json()) as Event[];
    expect(verifyEvent(wrong!)).toBe(true);
    expect(wrong!.pubkey).not.toBe(alice.pubkey);
    hostility.set("primal", "h1", "huge-answer");
    const body = (await ask()).body!.getReader();
    let bytes = 0;
    while (bytes <= 10_000_000) bytes += (await body.read()).value?.length ?? 0;
    await body.cancel();
    hostility.set("primal", "h1", "never-answers");
    const abort = new AbortController();
    let settled = false;
    const pending = ask(abort.signal).finally(() => {
      settled = true;
    });
    // Meanwhile the root answers honestly, and the hanging request has still not been answered.
    expect(((await cache(asked)).json as Event[])[0]!.pubkey).toBe(alice.pubkey);
    expect(settled).toBe(false);
    abort.abort();
    await expect(pending).rejects.toThrow();
    hostility.set("primal", "h1", null);
  });

  describe("Blossom", () => {
    const owner = generateSecretKey();
    const auth = (
      sk: Uint8Array,
      verb: string,
      sha: string | null,
      opts: { expiration?: number; kind?: number } = {},
    ) => {
      const e = finalizeEvent(
        {
          kind: opts.kind ?? 24242,
          created_at: now(),
          content: `${verb} a picture`,
          tags: [
            ["t", verb],
            ["expiration", String(opts.expiration ?? now() + 600)],
            ...(sha ? [["x", sha]] : []),
          ],
        },
        sk,
      );
      return `Nostr ${Buffer.from(JSON.stringify(e)).toString("base64")}`;
    };
    const upload = (body: Uint8Array, authorization: string | null, type = "image/png") =>
      fetch(`${world.nostr.blossomUrl}/upload`, {
        method: "PUT",
        headers: { "content-type": type, ...(authorization ? { authorization } : {}) },
        body: new Uint8Array(body),
      });

    it("stores an image uploaded with a valid authorization and serves its bytes", async () => {
      const png = avatarPng("a test picture");
      const sha = sha256(png);
      const r = await upload(png, auth(owner, "upload", sha));
      expect(r.status).toBe(201);
      const d = await r.json();
      expect(d).toMatchObject({ sha256: sha, size: png.length, type: "image/png" });
      expect(d.url).toBe(`${world.nostr.blossomUrl}/${sha}.png`);
      expect(typeof d.uploaded).toBe("number");
      for (const url of [d.url, `${world.nostr.blossomUrl}/${sha}`]) {
        const got = await fetch(url);
        expect(got.headers.get("content-type")).toBe("image/png");
        expect(got.headers.get("access-control-allow-origin")).toBe("*");
        expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
      }
      const head = await fetch(d.url, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(png.length));
      const list = await (await fetch(`${world.nostr.blossomUrl}/list/${getPublicKey(owner)}`)).json();
      expect(list.map((x: { sha256: string }) => x.sha256)).toContain(sha);
      // Browsers ask first: the preflight allows the authorization header and PUT.
      const pre = await fetch(`${world.nostr.blossomUrl}/upload`, { method: "OPTIONS" });
      expect(pre.headers.get("access-control-allow-headers")).toMatch(/authorization/);
      expect(pre.headers.get("access-control-allow-methods")).toMatch(/PUT/);
    });

    it("refuses a missing, forged, expired or wrong-kind authorization, a wrong hash, and stores nothing", async () => {
      const png = avatarPng("refused");
      const sha = sha256(png);
      const forged = JSON.parse(Buffer.from(auth(owner, "upload", sha).slice(6), "base64").toString());
      forged.pubkey = getPublicKey(generateSecretKey());
      const cases: [string | null, number][] = [
        [null, 401],
        [`Nostr ${Buffer.from(JSON.stringify(forged)).toString("base64")}`, 401],
        [auth(owner, "upload", sha, { expiration: now() - 1 }), 401],
        [auth(owner, "upload", sha, { kind: 24243 }), 401],
        [auth(owner, "delete", sha), 401],
        [auth(owner, "upload", sha256(avatarPng("another picture"))), 401],
        ["Nostr not-base64!!", 401],
      ];
      for (const [authorization, status] of cases) {
        const r = await upload(png, authorization);
        expect(r.status).toBe(status);
        expect(r.headers.get("x-reason")).toBeTruthy();
      }
      expect((await fetch(`${world.nostr.blossomUrl}/${sha}`)).status).toBe(404);
    });

    it("refuses what is too big, not an image, or not what its type says", async () => {
      const big = new Uint8Array(MAX_BLOB_BYTES + 1);
      big.set(avatarPng("big").subarray(0, 8));
      expect((await upload(big, auth(owner, "upload", sha256(big)))).status).toBe(413);
      const text = new TextEncoder().encode("hello");
      expect((await upload(text, auth(owner, "upload", sha256(text)), "text/plain")).status).toBe(415);
      expect((await upload(text, auth(owner, "upload", sha256(text)), "image/png")).status).toBe(415);
      const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
      const ok = await upload(svg, auth(owner, "upload", sha256(svg)), "image/svg+xml");
      expect(ok.status).toBe(201);
      const served = await fetch((await ok.json()).url);
      expect(served.headers.get("content-security-policy")).toMatch(/sandbox/);
    });

    it("deletes a blob only for who uploaded it", async () => {
      const png = avatarPng("to delete");
      const sha = sha256(png);
      expect((await upload(png, auth(owner, "upload", sha))).status).toBe(201);
      const del = (sk: Uint8Array) =>
        fetch(`${world.nostr.blossomUrl}/${sha}`, {
          method: "DELETE",
          headers: { authorization: auth(sk, "delete", sha) },
        });
      expect((await del(generateSecretKey())).status).toBe(403);
      expect((await del(owner)).status).toBe(204);
      expect((await fetch(`${world.nostr.blossomUrl}/${sha}`)).status).toBe(404);
    });

    it("serves the seeded people's pictures", async () => {
      for (const p of world.nostr.seeded) {
        const r = await fetch(p.picture);
        expect(r.status).toBe(200);
        expect(r.headers.get("content-type")).toBe("image/png");
        const bytes = new Uint8Array(await r.arrayBuffer());
        expect(p.picture).toContain(sha256(bytes));
      }
    });
  });
});

/**
 * What one client may ask: a rate per route group (a bucket of a minute's requests, refilled steadily), a body
 * cap per route answered 413 (the whole answer arrives, the connection is not cut under it), and a storage
 * quota per key; and an idle connection kept open longer than a client reuses one.
 */
import { Agent, get } from "node:http";
import { randomBytes } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { feedbackBody } from "../src/engine/feedback/send";
import { openSealedStore } from "../src/engine/storage/index";
import { storageKeys } from "../src/engine/storage/keys";
import { rejection } from "./testing/rejection";
import { KEEP_ALIVE_MS, type RunningServices } from "./app";
import { startTestServices } from "./testing/services";
import { rateLimiter } from "./limits";

describe("the rate of one client", () => {
  test("a minute's requests at once, then as they refill; each client and each route group its own", () => {
    let t = 0;
    const limiter = rateLimiter(1, () => t);
    try {
      const burst = Array.from({ length: 61 }, () => limiter.admit("a", "/lsp*"));
      expect(burst.filter(Boolean)).toHaveLength(60);
      expect(limiter.admit("a", "/lsp*")).toBe(false);
      expect(limiter.admit("b", "/lsp*")).toBe(true);
      expect(limiter.admit("a", "/storage/*")).toBe(true);
      expect(limiter.admit("a", "/health")).toBe(true);
      t += 1_000;
      expect(limiter.admit("a", "/lsp*")).toBe(true);
      expect(limiter.admit("a", "/lsp*")).toBe(false);
    } finally {
      limiter.stop();
    }
    const off = rateLimiter(0, () => t);
    expect(Array.from({ length: 500 }, () => off.admit("a", "/lsp*")).every(Boolean)).toBe(true);
    off.stop();
  });
});

describe("the services' limits", () => {
  let services: RunningServices;
  beforeAll(async () => {
    services = await startTestServices({ STORAGE_QUOTA_MB: "0.002" });
  }, 120_000);
  afterAll(async () => {
    await services?.stop();
  });

  test("keeps an idle connection open past Node's 5 s, so a client's reuse of it is answered", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = () =>
      new Promise<{ reused: boolean; status: number; keepAlive: string }>((resolve, reject) => {
        const req = get(`${services.url}/.well-known/wallet-services.json`, { agent }, (res) => {
          res.resume();
          res.once("end", () =>
            resolve({
              reused: req.reusedSocket,
              status: res.statusCode ?? 0,
              keepAlive: String(res.headers["keep-alive"]),
            }),
          );
        });
        req.once("error", reject);
      });
    try {
      const first = await ask();
      expect(first).toEqual({ reused: false, status: 200, keepAlive: `timeout=${KEEP_ALIVE_MS / 1000}` });
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await ask()).toMatchObject({ reused: true, status: 200 });
    } finally {
      agent.destroy();
    }
  }, 30_000);

  test("feedback is taken a few times an hour from one client", async () => {
    const form = () =>
      feedbackBody({ userType: "email", id: "me@example.com", feedback: "Hi", logs: [], images: [] });
    const first = await fetch(`${services.url}/v1/feedback`, { method: "POST", body: form() });
    expect(first.status).toBe(200);
    const second = await fetch(`${services.url}/v1/feedback`, { method: "POST", body: form() });
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: string }).error).toBe("rate_limited");
  });

  test("a body over its route's cap is answered 413", async () => {
    const r = await fetch(`${services.url}/hermes/names`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "x".repeat(200_000) }),
    });
    expect(r.status).toBe(413);
    expect(await r.text()).toBe("Body too large");
  });

  test("storage answers as vss-server does: its protocol version on every answer, 413 for a body too large", async () => {
    const r = await fetch(`${services.url}/storage/getObject`, { method: "POST", body: new Uint8Array(10) });
    expect(r.headers.get("vss-protocol-version")).toBe("0.1.0");
    expect(r.headers.get("access-control-expose-headers")).toContain("vss-protocol-version");
    const big = await fetch(`${services.url}/storage/putObjects`, {
      method: "POST",
      body: new Uint8Array(5_000_000),
    });
    expect(big.status).toBe(413);
  });

  test("a key's storage stops at its quota; another key's is its own", async () => {
    const store = () =>
      openSealedStore({
        url: `${services.url}/storage`,
        keys: storageKeys(randomBytes(32), randomBytes(32)),
        network: "regtest",
      });
    const mine = store();
    await mine.put([{ name: "monitor", version: 0n, value: new Uint8Array(1_000) }]);
    // Rewriting the same key counts its new size, not both.
    await mine.put([{ name: "monitor", version: 1n, value: new Uint8Array(1_200) }]);
    expect(
      await rejection(mine.put([{ name: "other", version: 0n, value: new Uint8Array(1_000) }])),
    ).toBeDefined();
    expect((await mine.get("monitor"))?.value.length).toBe(1_200);
    await store().put([{ name: "monitor", version: 0n, value: new Uint8Array(1_000) }]);
  });
});

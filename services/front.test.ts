/**
 * The operator's web fronts as the repository has them (deploy/nginx.conf, deploy/Caddyfile), each run on
 * loopback by Debian's own nginx and Caddy before a services process: the app's files with the SPA fallback
 * and cache rules, every services path passed on (WebSocket upgrades too), the port kept in the Host so a
 * signed request (NIP-98) is accepted, `/metrics` kept in, and the proxy's per-client cap counting each
 * client behind the front named by TRUSTED_PROXIES.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getToken } from "nostr-tools/nip98";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { type FrontKind, frontAvailable, type RunningFront, startFront } from "../harness/front";
import type { RunningServices } from "./app";
import { startTestServices } from "./testing/services";

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const peer = createServer((s) => s.pipe(s));
const appDir = mkdtempSync(join(tmpdir(), "front-app-"));
let services: RunningServices;
let peerPort = 0;

beforeAll(async () => {
  // Readable by nginx's unprivileged workers, as a web root is.
  chmodSync(appDir, 0o755);
  mkdirSync(join(appDir, "assets"));
  writeFileSync(join(appDir, "index.html"), "<!doctype html><title>the app</title>");
  writeFileSync(join(appDir, "sw.js"), "// the service worker");
  writeFileSync(join(appDir, "assets/index-4f3a9c.js"), "// a hashed file");
  await new Promise<void>((r) => peer.listen(0, "127.0.0.1", r));
  peerPort = (peer.address() as { port: number }).port;
  services = await startTestServices({
    PROXY_PORTS: String(peerPort),
    PROXY_ALLOW_PRIVATE: "1",
    PROXY_PER_CLIENT: "2",
    // The front connects from 127.0.0.1; the test's clients come from 127.0.0.2 and 127.0.0.3.
    TRUSTED_PROXIES: "127.0.0.1",
  });
}, 120_000);
afterAll(async () => {
  await services?.stop();
  peer.close();
  rmSync(appDir, { recursive: true, force: true });
});

/** Opens the proxy through `base` from `localAddress`: open, or the status it was refused with. */
const dial = (base: string, localAddress: string): Promise<{ ws?: WebSocket; status: number }> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/v1/127_0_0_1/${peerPort}`, { localAddress });
    ws.once("open", () => resolve({ ws, status: 101 }));
    ws.once("unexpected-response", (_q, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.once("error", reject);
  });

describe.each(["nginx", "caddy"] as FrontKind[])("%s before the services", (kind) => {
  let front: RunningFront | undefined;
  beforeAll(async () => {
    if (!frontAvailable(kind)) return;
    const port = Number(new URL(services.url).port);
    front = await startFront(kind, { port: await freePort(), appDir, servicesPort: port });
  }, 60_000);
  afterAll(async () => {
    await front?.stop();
  });

  test.skipIf(!frontAvailable(kind))("serves the app with its deep links and cache rules", async () => {
    const base = front!.url;
    for (const path of ["/", "/settings/servers", "/plus", "/request/abc"]) {
      const r = await fetch(`${base}${path}`);
      expect(r.status, path).toBe(200);
      expect(await r.text(), path).toContain("the app");
      expect(r.headers.get("cache-control"), path).toBe("no-cache");
    }
    const sw = await fetch(`${base}/sw.js`);
    expect(await sw.text()).toContain("service worker");
    expect(sw.headers.get("cache-control")).toBe("no-cache");
    const asset = await fetch(`${base}/assets/index-4f3a9c.js`);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    // A hashed file that is gone is a 404, never the page cached for a year.
    expect((await fetch(`${base}/assets/index-gone.js`)).status).toBe(404);
  });

  test.skipIf(!frontAvailable(kind))("passes the services' paths on, and keeps /metrics in", async () => {
    const base = front!.url;
    const health = await fetch(`${base}/health`);
    expect(((await health.json()) as { network: string }).network).toBe("regtest");
    const published = await fetch(`${base}/.well-known/wallet-services.json`);
    expect(((await published.json()) as { relays: string[] }).relays).toEqual(["ws://127.0.0.1:9"]);
    // Plus is not sold here: the services' 404, not the app's page.
    const plans = await fetch(`${base}/plus/plans`);
    expect(plans.status).toBe(404);
    expect(await plans.text()).not.toContain("the app");
    const rgs = new Uint8Array(await (await fetch(`${base}/rgs/snapshot/0`)).arrayBuffer());
    expect([...rgs.slice(0, 4)]).toEqual([76, 68, 75, 1]);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${services.url}/metrics`)).status).toBe(200);
  });

  test.skipIf(!frontAvailable(kind))(
    "keeps the port in the Host, so a signed request is accepted",
    async () => {
      const url = `${front!.url}/hermes/names`;
      const key = generateSecretKey();
      const auth = await getToken(url, "post", (e) => finalizeEvent(e, key), true);
      const r = await fetch(url, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "satoshi" }),
      });
      // Past the signature: refused for not being a Plus member, not as unauthenticated.
      expect(r.status).toBe(403);
    },
  );

  test.skipIf(!frontAvailable(kind))(
    "caps each client behind the trusted front, not the front as one",
    async () => {
      const base = front!.url;
      const first = await dial(base, "127.0.0.2");
      const second = await dial(base, "127.0.0.2");
      expect([first.status, second.status]).toEqual([101, 101]);
      expect((await dial(base, "127.0.0.2")).status).toBe(429);
      const other = await dial(base, "127.0.0.3");
      expect(other.status).toBe(101);
      // The socket carries bytes through the front.
      other.ws!.send("ping");
      expect(await new Promise((r) => other.ws!.once("message", (d) => r(String(d))))).toBe("ping");
      for (const o of [first, second, other]) o.ws?.close();
    },
  );
});

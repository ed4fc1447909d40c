/**
 * `npm run services` in one process on the embedded database: what it serves, pointed at upstreams of the
 * local kind (a relay, an Esplora answer), and what it does not (the world's test-only endpoints, an open
 * proxy). The two-process test on PostgreSQL is services/two-processes.test.ts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { unpackParts } from "../src/engine/lightning/gossip";
import WebSocket from "ws";
import { feedbackBody } from "../src/engine/feedback/send";
import { serveNostr } from "../harness/nostr/standalone";
import { type RunningServices, startServices } from "./app";
import { CHAIN_HASHES } from "./gossip/node";
import { ConfigProblem, configFromEnv } from "./env";

let services: RunningServices;
let nostr: Awaited<ReturnType<typeof serveNostr>>;
let esplora: Server;

beforeAll(async () => {
  nostr = await serveNostr();
  // An Esplora answer and an LSP's HTTP API, on one upstream.
  esplora = createServer((req, res) => {
    if (req.url === "/blocks/tip/height") res.writeHead(200, { "content-type": "text/plain" }).end("4242");
    else if (req.url === "/api/v1/info")
      res.writeHead(200, { "content-type": "application/json" }).end('{"pubkey":"02aa"}');
    else if (req.url === "/api/v1/proposal" && req.method === "POST") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () =>
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ got: JSON.parse(body), type: req.headers["content-type"] })),
      );
    } else res.writeHead(404).end("Not found");
  });
  await new Promise<void>((r) => esplora.listen(0, "127.0.0.1", r));
  const config = configFromEnv(
    {
      PORT: "0",
      NETWORK: "signet",
      ESPLORA_URL: `http://127.0.0.1:${(esplora.address() as AddressInfo).port}`,
      LSP_URL: `http://127.0.0.1:${(esplora.address() as AddressInfo).port}`,
      RELAYS: nostr.nostr.relayUrl,
      HERMES_SECRET: "22".repeat(32),
      DATA_DIR: "memory",
      ALLOW_MEMORY_STORE: "1",
    },
    () => undefined,
  );
  services = await startServices(config);
});
afterAll(async () => {
  await services?.stop();
  await nostr?.stop();
  esplora?.close();
});

describe("the services process", () => {
  test("reads its settings from the environment and refuses bad ones", () => {
    const warned: string[] = [];
    const c = configFromEnv({}, (m) => warned.push(m));
    expect(c.network).toBe("bitcoin");
    expect(c.esploraUrl).toBe("https://mempool.space/api");
    expect(c.host).toBe("127.0.0.1");
    expect([...(c.proxy.ports ?? [])]).toEqual([9735]);
    expect(c.proxy.allowPrivate).toBe(false);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBe("./data");
    expect(c.lspUrl).toBe("https://0conf.lnolymp.us");
    expect(c.proxy.maxPerClient).toBe(16);
    expect(configFromEnv({ NETWORK: "signet", PROXY_PER_CLIENT: "4" }, () => undefined)).toMatchObject({
      proxy: { maxPerClient: 4 },
    });
    expect(configFromEnv({ NETWORK: "signet" }, () => undefined).lspUrl).toBeUndefined();
    expect(() => configFromEnv({ PROXY_PER_CLIENT: "0", HERMES_SECRET: "11".repeat(32) })).toThrow(
      /PROXY_PER_CLIENT/,
    );
    expect(() => configFromEnv({ LSP_URL: "ftp://x", HERMES_SECRET: "11".repeat(32) })).toThrow(/LSP_URL/);
    const nwc = `nostr+walletconnect://${"ab".repeat(32)}?relay=wss%3A%2F%2Frelay.example&secret=${"cd".repeat(32)}`;
    expect(configFromEnv({ NETWORK: "signet", PLUS_NWC: nwc }, () => undefined).plus).toEqual({
      operatorNwc: nwc,
      plans: [{ id: 1, amount_sat: 5_000 }],
    });
    expect(c.plus).toBeUndefined();
    expect(() => configFromEnv({ PLUS_NWC: "https://x", HERMES_SECRET: "11".repeat(32) })).toThrow(
      /PLUS_NWC/,
    );
    expect(() =>
      configFromEnv({ PLUS_NWC: nwc, PLUS_PRICE_SATS: "-1", HERMES_SECRET: "11".repeat(32) }),
    ).toThrow(/PLUS_PRICE_SATS/);
    expect(warned[0]).toMatch(/HERMES_SECRET/);
    expect(() => configFromEnv({ NETWORK: "litecoin" })).toThrow(ConfigProblem);
    expect(() => configFromEnv({ NETWORK: "regtest", HERMES_SECRET: "11".repeat(32) })).toThrow(
      /ESPLORA_URL/,
    );
    expect(() => configFromEnv({ PROXY_PORTS: "9735,http", HERMES_SECRET: "11".repeat(32) })).toThrow(
      /PROXY_PORTS/,
    );
    expect(() => configFromEnv({ HERMES_SECRET: "short" })).toThrow(/HERMES_SECRET/);
  });

  test("answers its health, the network's gossip snapshot, and Esplora and the LSP through itself", async () => {
    expect(await (await fetch(`${services.url}/health`)).json()).toEqual({
      ok: true,
      network: "signet",
      gossip_channels: 0,
      checks: { database: "ok", esplora: "ok", lsp: "ok" },
    });
    const snapshot = new Uint8Array(await (await fetch(`${services.url}/rgs/snapshot/0`)).arrayBuffer());
    expect([...snapshot.slice(0, 4)]).toEqual([76, 68, 75, 1]);
    expect(Buffer.from(snapshot.slice(4, 36)).toString("hex")).toBe(CHAIN_HASHES.signet);
    // Asked for in parts (the wallet does), the same snapshot in one body of parts; LDK's client asks without.
    const parted = unpackParts(
      new Uint8Array(await (await fetch(`${services.url}/rgs/snapshot/0?parts`)).arrayBuffer()),
    );
    expect(parted).toHaveLength(1);
    expect(parted[0]).toEqual(snapshot);
    const tip = await fetch(`${services.url}/esplora/blocks/tip/height`);
    expect(await tip.text()).toBe("4242");
    expect((await fetch(`${services.url}/esplora/nothing`)).status).toBe(404);
    expect(await (await fetch(`${services.url}/lsp/api/v1/info`)).json()).toEqual({ pubkey: "02aa" });
    const proposal = await fetch(`${services.url}/lsp/api/v1/proposal`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bolt11: "lnbcrt1" }),
    });
    expect(await proposal.json()).toEqual({ got: { bolt11: "lnbcrt1" }, type: "application/json" });
    expect((await fetch(`${services.url}/lsp/blocks/tip/height`)).status).toBe(404);
  });

  test("publishes the relays a self-hosted build takes as its own", async () => {
    const r = await fetch(`${services.url}/.well-known/wallet-services.json`);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(await r.json()).toEqual({
      network: "signet",
      relays: [nostr.nostr.relayUrl],
      nwc_relay: nostr.nostr.relayUrl,
    });
  });

  test("serves no test-only endpoint of the local world", async () => {
    for (const [method, path] of [
      ["GET", "/rgs/requests"],
      ["GET", "/hermes/tokens?name=x"],
      ["GET", "/v1/feedback"],
      ["POST", "/faucet"],
      ["POST", "/mine"],
      // Plus is sold only with the operator's wallet configured (PLUS_NWC)
      ["GET", "/plus/plans"],
      ["POST", "/hostile"],
      ["GET", "/blocks/tip/height"],
    ] as const)
      expect((await fetch(`${services.url}${path}`, { method })).status, path).toBe(404);
  });

  test("keeps feedback in its database", async () => {
    const form = feedbackBody({
      userType: "email",
      id: "me@example.com",
      feedback: "Works",
      logs: [],
      images: [],
    });
    const r = await fetch(`${services.url}/v1/feedback`, { method: "POST", body: form });
    expect(await r.json()).toEqual({ status: "OK" });
    const rows = await (await services.db()).query<{ entry: { contact: unknown } }>(
      "SELECT entry FROM feedback",
    );
    expect(rows.rows.map((row) => row.entry.contact)).toEqual([{ email: "me@example.com" }]);
  });

  test("answers the profile cache from its relays", async () => {
    const person = nostr.nostr.seeded[0]!;
    const r = await fetch(`${services.url}/primal`, {
      method: "POST",
      body: JSON.stringify(["user_profile", { pubkey: person.pubkey }]),
    });
    const events = (await r.json()) as { kind: number; pubkey: string; content: string }[];
    expect(events).toHaveLength(1);
    expect(events[0]?.pubkey).toBe(person.pubkey);
    expect(JSON.parse(events[0]!.content).name).toBe(person.name);
    const bad = await fetch(`${services.url}/primal`, { method: "POST", body: "[1]" });
    expect(bad.status).toBe(400);
  });

  test("its proxy refuses a private address", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${services.url.replace(/^http/, "ws")}/v1/127_0_0_1/9735`);
      ws.on("unexpected-response", (_q, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
      ws.on("error", reject);
    });
    expect(status).toBe(403);
  });
});

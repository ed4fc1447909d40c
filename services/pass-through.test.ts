/**
 * The services' pass-throughs (`/esplora`, `/lsp`) reach only the upstream API's own paths. Raw requests
 * (the path sent as is, as `curl --path-as-is` does) try every spelling of a way out (`..` plain, escaped in
 * any case, double-escaped, with backslashes, `//`, a scheme, a host, an absolute request line) against each
 * pass-through, GET and POST; an upstream that records every request it gets, and keeps an operator's secret
 * beside the API (as the local world's `/ln/operator-nwc` does), proves none of them reaches it.
 */
import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningServices } from "./app";
import { startTestServices } from "./testing/services";
import { HEALTH_USER_AGENT } from "./health";
import { ESPLORA_PATHS, LSP_PATHS, upstreamUrl } from "./pass-through";

const SECRET = `nostr+walletconnect://${"ab".repeat(32)}?secret=${"cd".repeat(32)}`;

let services: RunningServices;
let upstream: Server;
let upstreamPort = 0;
/** Every request line the upstream received from a wallet: `METHOD url` (the health check's own are not). */
const received: string[] = [];

/** One HTTP/1.0 request (its answer not chunked) with `target` sent byte for byte; answers the status and the body. */
const raw = (method: string, target: string, body = ""): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(services.url);
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    socket.write(
      `${method} ${target} HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
        `Content-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });

beforeAll(async () => {
  // The upstream answers every path it is asked (its secret at /ln/operator-nwc) and writes each one down.
  upstream = createServer((req, res) => {
    if (req.headers["user-agent"] !== HEALTH_USER_AGENT) received.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      if (req.url?.startsWith("/ln/operator-nwc")) res.writeHead(200).end(SECRET);
      // An upstream that redirects the wallet's question elsewhere on its host.
      else if (req.url === `/api/tx/${"e".repeat(64)}/status`)
        res.writeHead(302, { location: "/ln/operator-nwc" }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end(`upstream ${req.url}`);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamPort = (upstream.address() as AddressInfo).port;
  services = await startTestServices({
    NETWORK: "signet",
    // A throwaway store: nothing here is a wallet's, and no other test's files are touched.
    DATA_DIR: "memory",
    ALLOW_MEMORY_STORE: "1",
    // Each API under a base path of its own on the one host, as mempool.space serves `/api`.
    ESPLORA_URL: `http://127.0.0.1:${upstreamPort}/api`,
    LSP_URL: `http://127.0.0.1:${upstreamPort}/flow/`,
    RELAYS: "",
    HERMES_SECRET: "33".repeat(32),
  });
}, 120_000);
afterAll(async () => {
  await services?.stop();
  upstream?.close();
});

const TXID = "f".repeat(64);
const HASH = "0a".repeat(32);
const ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";

describe("the services' pass-throughs", () => {
  test("pass on each route the wallet uses, to exactly that path under the upstream's base", async () => {
    const esplora = [
      "/blocks/tip/hash",
      "/blocks/tip/height",
      `/block/${HASH}/status`,
      `/block/${HASH}/header`,
      "/mempool",
      "/fee-estimates",
      `/address/${ADDRESS}`,
      `/address/${ADDRESS}/txs`,
      `/address/${ADDRESS}/txs/chain/${TXID}`,
      `/scripthash/${HASH}/utxo`,
      `/tx/${TXID}`,
      `/tx/${TXID}/hex`,
      `/tx/${TXID}/status`,
      `/tx/${TXID}/merkle-proof`,
      `/tx/${TXID}/outspend/3`,
      "/api/v1/price/USD",
    ];
    expect(esplora).toHaveLength(ESPLORA_PATHS.get.length);
    for (const path of esplora) {
      received.length = 0;
      const r = await raw("GET", `/esplora${path}`);
      expect(r, path).toEqual({ status: 200, body: `upstream /api${path}` });
      expect(received).toEqual([`GET /api${path}`]);
    }
    received.length = 0;
    expect((await raw("POST", "/esplora/tx", "0200")).body).toBe("upstream /api/tx");
    expect((await raw("GET", "/lsp/api/v1/info")).body).toBe("upstream /flow/api/v1/info");
    for (const path of LSP_PATHS.post)
      expect((await raw("POST", `/lsp${path}`, "{}")).body).toBe(`upstream /flow${path}`);
    // A query is not passed on: no route of either API takes one.
    expect((await raw("GET", "/esplora/blocks/tip/height?x=/../../ln/operator-nwc")).body).toBe(
      "upstream /api/blocks/tip/height",
    );
    expect(received).toEqual([
      "POST /api/tx",
      "GET /flow/api/v1/info",
      "POST /flow/api/v1/fee",
      "POST /flow/api/v1/proposal",
      "GET /api/blocks/tip/height",
    ]);
  });

  test("refuse every spelling of a way out, GET and POST, on every pass-through", async () => {
    const up = `127.0.0.1:${upstreamPort}`;
    const ways = (p: string, valid: string) => [
      `${p}/../ln/operator-nwc`,
      `${p}/../../ln/operator-nwc`,
      `${p}${valid}/../../../../ln/operator-nwc`,
      `${p}${valid}/..`,
      `${p}/%2e%2e/ln/operator-nwc`,
      `${p}/%2E%2E/ln/operator-nwc`,
      `${p}/%2e%2E/%2E%2e/ln/operator-nwc`,
      `${p}/.%2e/ln/operator-nwc`,
      `${p}/%2e./ln/operator-nwc`,
      `${p}/..%2fln%2foperator-nwc`,
      `${p}/..%2Fln%2Foperator-nwc`,
      `${p}/%2e%2e%2f%2e%2e%2fln%2foperator-nwc`,
      `${p}/%252e%252e/ln/operator-nwc`,
      `${p}/%ef%bc%8e%ef%bc%8e/ln/operator-nwc`,
      `${p}/..;/ln/operator-nwc`,
      `${p}/..\\ln\\operator-nwc`,
      `${p}\\..\\ln\\operator-nwc`,
      `${p}/..%5cln%5coperator-nwc`,
      `${p}/..%5Cln%5Coperator-nwc`,
      `${p}/./ln/operator-nwc`,
      `${p}/.${valid}`,
      `${p}//ln/operator-nwc`,
      `${p}//${up}/ln/operator-nwc`,
      `${p}${valid}//`,
      `${p}${valid.replace(/\/([^/]*)$/, "//$1")}`,
      `${p}/http://${up}/ln/operator-nwc`,
      `${p}/http:%2f%2f${up}%2fln%2foperator-nwc`,
      `${p}/@${up}/ln/operator-nwc`,
      `${p}@${up}/ln/operator-nwc`,
      `${p}${valid}%00`,
      `${p}${valid}%2f..%2f..%2fln%2foperator-nwc`,
      `${p}${valid}#/../../ln/operator-nwc`,
      `${p.toUpperCase()}/../ln/operator-nwc`,
      `http://${up}/ln/operator-nwc`,
      `http://${up}${p}/../ln/operator-nwc`,
      `http://evil.example${p}/../ln/operator-nwc`,
    ];
    const tried = [
      ...ways("/esplora", "/blocks/tip/height").map((t) => ["GET", t] as const),
      ...ways("/esplora", "/tx").map((t) => ["POST", t] as const),
      ...ways("/lsp", "/api/v1/info").map((t) => ["GET", t] as const),
      ...ways("/lsp", "/api/v1/fee").map((t) => ["POST", t] as const),
    ];
    received.length = 0;
    for (const [method, target] of tried) {
      const r = await raw(method, target, method === "POST" ? "{}" : "");
      expect(r.status, `${method} ${target}`).toBeGreaterThanOrEqual(400);
      expect(r.body, `${method} ${target}`).not.toContain("secret");
      expect(r.body, `${method} ${target}`).not.toContain("upstream");
    }
    // Nothing of all that reached the upstream at all.
    expect(received).toEqual([]);
  });

  test("do not follow an upstream's redirect", async () => {
    received.length = 0;
    const r = await raw("GET", `/esplora/tx/${"e".repeat(64)}/status`);
    expect(r.status).toBe(502);
    expect(r.body).not.toContain("secret");
    expect(received).toEqual([`GET /api/tx/${"e".repeat(64)}/status`]);
  });

  test("build the upstream URL only when the URL parser reads it as the path matched, at the upstream", () => {
    expect(upstreamUrl("https://mempool.space/api", "/tx")).toBe("https://mempool.space/api/tx");
    expect(upstreamUrl("https://mempool.space", "/fee-estimates")).toBe(
      "https://mempool.space/fee-estimates",
    );
    for (const path of [
      "/../ln",
      "/%2e%2e/ln",
      "/.%2E/ln",
      "//evil.example/x",
      "/x?y",
      "/x#y",
      "\\..\\ln",
      "@evil.example/x",
      ".evil.example/x",
      ":8080/x",
    ])
      expect(upstreamUrl("https://mempool.space/api", path), path).toBeNull();
    expect(upstreamUrl("not a url", "/tx")).toBeNull();
  });
});

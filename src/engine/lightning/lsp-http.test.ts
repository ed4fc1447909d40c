import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fetchLspInfo,
  LspRequestError,
  postToLsp,
  readFeeQuote,
  readLspInfo,
  readProposal,
} from "./lsp-http";

const PUBKEY = `02${"ab".repeat(32)}`;
let base: string;
const server = createServer((req, res) => {
  if (req.url?.startsWith("/silent/")) return; // accepts the request and never answers
  if (req.url?.startsWith("/flood/")) {
    res.writeHead(200, { "content-type": "application/json" });
    res.write(`{"jit_bolt11":"${"x".repeat(1_000_000)}`);
    const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write("y".repeat(100_000))), 5);
    req.on("close", () => clearInterval(drip));
    return;
  }
  if (req.url === "/api/v1/fee") {
    res.writeHead(400, { "content-type": "text/plain" });
    res.end("The amount is below the minimum of 10000 sats");
  } else if (req.url === "/api/v1/info") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ pubkey: PUBKEY, connection_methods: [{ address: "127.0.0.1", port: 9735 }] }));
  } else {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url === "/api/v1/proposal" ? '{"jit_bolt11":"lnbcrt1x"}' : '{"unexpected":true}');
  }
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as LspRequestError,
  );

const UNREACHABLE = { status: null, message: "Failed to make a request to the LSP." };

describe("requests to the LSP", () => {
  it("answers what the schema reads of the LSP's JSON", async () => {
    expect(await postToLsp(base, fetch, "proposal", { fee_id: 1n }, readProposal)).toEqual({
      jitBolt11: "lnbcrt1x",
    });
    expect(await fetchLspInfo(base, fetch)).toEqual({
      pubkey: PUBKEY,
      address: { pubkey: PUBKEY, host: "127.0.0.1", port: 9735 },
    });
  });

  it("keeps the LSP's own words when it refuses", async () => {
    const e = await failure(postToLsp(base, fetch, "fee", {}, readFeeQuote));
    expect(e).toBeInstanceOf(LspRequestError);
    expect(e).toMatchObject({ status: 400, message: "The amount is below the minimum of 10000 sats" });
  });

  it("says the LSP could not be reached when it is down, answers another shape or none is configured", async () => {
    const down = await failure(postToLsp("http://127.0.0.1:1", fetch, "fee", {}, readFeeQuote));
    expect(down).toMatchObject(UNREACHABLE);
    expect(await failure(postToLsp(base, fetch, "other", {}, readProposal))).toMatchObject(UNREACHABLE);
    expect(await failure(postToLsp(null, fetch, "fee", {}, readFeeQuote))).toMatchObject({ status: null });
  });

  it("gives up on a silent LSP at the deadline", async () => {
    const limits = { timeoutMs: 300, maxBytes: 64_000 };
    expect(await failure(postToLsp(`${base}silent`, fetch, "fee", {}, readFeeQuote, limits))).toMatchObject(
      UNREACHABLE,
    );
    expect(await failure(fetchLspInfo(`${base}silent`, fetch, limits))).toMatchObject(UNREACHABLE);
  });

  it("refuses an LSP that floods its answer, reading no more than the cap", async () => {
    const limits = { timeoutMs: 60_000, maxBytes: 64_000 };
    expect(
      await failure(postToLsp(`${base}flood`, fetch, "proposal", {}, readProposal, limits)),
    ).toMatchObject(UNREACHABLE);
  });

  it("reads only answers of the documented shape", () => {
    expect(readFeeQuote({ fee_amount_msat: 2_000_000, id: "q" })).toEqual({ feeMsat: 2_000_000n, id: "q" });
    expect(readFeeQuote({ fee_amount_msat: "2000000", id: "q" })).toEqual({ feeMsat: 2_000_000n, id: "q" });
    for (const bad of [
      { fee_amount_msat: -1, id: "q" },
      { fee_amount_msat: 1.5, id: "q" },
      { fee_amount_msat: 1e300, id: "q" },
      { fee_amount_msat: "1e3", id: "q" },
      { fee_amount_msat: 1 },
      { fee_amount_msat: 1, id: "" },
    ])
      expect(readFeeQuote(bad)).toBeNull();
    expect(readLspInfo({ pubkey: "nope", connection_methods: [{ address: "a", port: 1 }] })).toBeNull();
    expect(readLspInfo({ pubkey: PUBKEY, connection_methods: [{ address: "a", port: 70_000 }] })).toBeNull();
    expect(readLspInfo({ pubkey: PUBKEY, connection_methods: "x" })).toBeNull();
    expect(readProposal({ jit_bolt11: 5 })).toBeNull();
  });
});

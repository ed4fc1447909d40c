import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspRequestError, postToLsp } from "./lsp-http";

let base: string;
const server = createServer((req, res) => {
  if (req.url === "/api/v1/fee") {
    res.writeHead(400, { "content-type": "text/plain" });
    res.end("The amount is below the minimum of 10000 sats");
  } else {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url === "/api/v1/proposal" ? '{"jit_bolt11":"lnbcrt1x"}' : "not json");
  }
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as LspRequestError,
  );

describe("requests to the LSP", () => {
  it("answers the LSP's JSON", async () => {
    expect(await postToLsp(base, fetch, "proposal", { fee_id: 1n })).toEqual({ jit_bolt11: "lnbcrt1x" });
  });

  it("keeps the LSP's own words when it refuses", async () => {
    const e = await failure(postToLsp(base, fetch, "fee", {}));
    expect(e).toBeInstanceOf(LspRequestError);
    expect(e).toMatchObject({ status: 400, message: "The amount is below the minimum of 10000 sats" });
  });

  it("says the LSP could not be reached when it is down, answers badly or none is configured", async () => {
    const down = await failure(postToLsp("http://127.0.0.1:1", fetch, "fee", {}));
    expect(down).toMatchObject({ status: null, message: "Failed to make a request to the LSP." });
    const bad = await failure(postToLsp(base, fetch, "other", {}));
    expect(bad).toMatchObject({ status: null, message: "Failed to make a request to the LSP." });
    expect(await failure(postToLsp(null, fetch, "fee", {}))).toMatchObject({ status: null });
  });
});

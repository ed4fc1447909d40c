import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerTooLarge, boundedFetch, RequestTimedOut } from "./bounded";

let server: Server;
let base = "";
const open = new Set<import("node:net").Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/ok") res.end("hello");
    else if (path === "/empty") {
      res.writeHead(204);
      res.end();
    } else if (path === "/hang") {
      // never answers
    } else if (path === "/drip") {
      res.writeHead(200, { "content-type": "text/plain" });
      const t = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(t));
    } else if (path === "/declared-huge") {
      res.writeHead(200, { "content-length": String(50_000_000) });
      res.write("x".repeat(1000));
    } else if (path === "/chunked-huge") {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "y".repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 800 && res.write(chunk)) sent++;
        if (sent < 800) res.once("drain", more);
        else res.end();
      };
      more();
    } else res.writeHead(404).end("no");
  });
  server.on("connection", (s) => {
    open.add(s);
    s.on("close", () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of open) s.destroy();
  await new Promise((r) => server.close(r));
});

const limited = boundedFetch(fetch, { timeoutMs: 1_000, maxBytes: 10_000 });

describe("boundedFetch", () => {
  it("hands back a whole answer within its limits", async () => {
    const res = await limited(`${base}/ok`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello");
    expect((await limited(`${base}/empty`)).status).toBe(204);
    expect((await limited(`${base}/missing`)).status).toBe(404);
  });

  it("gives up on a server that never answers, and on one that drips", async () => {
    await expect(limited(`${base}/hang`)).rejects.toBeInstanceOf(RequestTimedOut);
    const slow = boundedFetch(fetch, { timeoutMs: 1_000, maxBytes: 1_000_000 });
    await expect(slow(`${base}/drip`)).rejects.toBeInstanceOf(RequestTimedOut);
  });

  it("refuses an answer over the cap, declared or streamed", async () => {
    await expect(limited(`${base}/declared-huge`)).rejects.toBeInstanceOf(AnswerTooLarge);
    await expect(limited(`${base}/chunked-huge`)).rejects.toBeInstanceOf(AnswerTooLarge);
  });

  it("still stops when the caller aborts, with the caller's reason", async () => {
    const c = new AbortController();
    const p = limited(`${base}/hang`, { signal: c.signal });
    c.abort(new Error("left the screen"));
    await expect(p).rejects.toThrow("left the screen");
  });
});

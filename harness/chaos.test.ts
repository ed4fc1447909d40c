import { createServer as createHttp } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { attachProxy, OPEN_PROXY } from "../services/proxy";
import { attachChaos } from "./chaos";

// An echo server stands for a lightning node; the chaos scope's line reaches it through the proxy.
const echo = createServer((s) => s.pipe(s));
const http = createHttp();
const listening = Promise.all([
  new Promise<void>((r) => echo.listen(0, "127.0.0.1", r)),
  new Promise<void>((r) => http.listen(0, "127.0.0.1", r)),
]);
afterAll(() => {
  echo.close();
  http.close();
});

describe("the chaos controller's bad line", () => {
  it("relays bytes in order with the scope's latency, and drops the scope's sockets", async () => {
    await listening;
    const port = (http.address() as AddressInfo).port;
    // As the world does: the proxy first, the chaos controller in front of it.
    attachProxy(http, OPEN_PROXY);
    const routes = attachChaos(http, port);
    const call = (body: unknown) => {
      const [, , route] = routes.find(([m, re]) => m === "POST" && re.test("/chaos"))!;
      return route(["/chaos"] as unknown as RegExpMatchArray, JSON.stringify(body));
    };
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/chaos/t1/v1/127_0_0_1/${(echo.address() as AddressInfo).port}`,
    );
    await new Promise((r) => ws.once("open", r));
    const got: string[] = [];
    ws.on("message", (d: Buffer) => got.push(d.toString()));
    await call({ scope: "t1", latency_ms: 150 });
    const t0 = Date.now();
    for (const s of ["a", "b", "c"]) ws.send(s);
    await expect.poll(() => got.join(""), { timeout: 5_000 }).toBe("abc");
    // Held each way.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    const closed = new Promise((r) => ws.once("close", r));
    expect((await call({ scope: "t1", drop: true })).json).toMatchObject({ dropped: 1 });
    await closed;
    // Another scope's line is not touched.
    expect((await call({ scope: "t2", drop: true })).json).toMatchObject({ dropped: 0 });
  });
});

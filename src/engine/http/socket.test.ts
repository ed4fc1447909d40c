import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { boundedSockets, socketClass, type WebSocketFactory, type WebSocketLike } from "./socket";

const make: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;

/** A TCP server that accepts and never answers the WebSocket handshake. */
let silent: Server;
let silentUrl: string;
const held: Socket[] = [];
/** A WebSocket server that greets with `hello`, then sends a message of the size asked in the path. */
let wss: WebSocketServer;
let wsUrl: string;

beforeAll(async () => {
  silent = createServer((c) => held.push(c));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
  silentUrl = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((r) => wss.once("listening", () => r()));
  wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on("connection", (ws, req) => {
    ws.send("hello");
    ws.send("x".repeat(Number(req.url?.slice(1) || "0")));
    ws.send("after");
  });
});

afterAll(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((r) => wss.close(() => r()));
  for (const c of held) c.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
});

/** What the socket reported, in order, until it closed. */
const run = (ws: WebSocketLike): Promise<string[]> =>
  new Promise((resolve) => {
    const seen: string[] = [];
    ws.onopen = () => seen.push("open");
    ws.onmessage = (ev) => seen.push(String(ev.data).slice(0, 10));
    ws.onclose = (ev) => {
      seen.push(`closed ${(ev as { reason?: unknown }).reason ?? ""}`.trim());
      resolve(seen);
    };
  });

describe("bounded sockets", () => {
  it("pass messages within the cap, in order", async () => {
    const ws = boundedSockets(make, { connectMs: 10_000, maxMessageBytes: 100 })(`${wsUrl}/50`);
    const seen = run(ws);
    await new Promise((r) => setTimeout(r, 0));
    expect(ws.readyState).toBe(0);
    // Closed by the wallet once everything arrived.
    const closer = setInterval(() => ws.readyState === 1 && ws.close(), 200);
    expect((await seen).slice(0, 4)).toEqual(["open", "hello", "xxxxxxxxxx", "after"]);
    clearInterval(closer);
  });

  it("cut off a server that sends a message over the cap: nothing of it or after it is read", async () => {
    const ws = boundedSockets(make, { connectMs: 10_000, maxMessageBytes: 100 })(`${wsUrl}/100000`);
    expect(await run(ws)).toEqual(["open", "hello", "closed message-too-large"]);
    expect(ws.readyState).toBe(3);
  });

  it("give up on a server that never completes the handshake at the connect deadline", async () => {
    const ws = boundedSockets(make, { connectMs: 300, maxMessageBytes: 100 })(silentUrl);
    expect(await run(ws)).toEqual(["closed connect-timeout"]);
  });

  it("open as a class for nostr-tools, with its constants", async () => {
    const Socket = socketClass(make, { connectMs: 300, maxMessageBytes: 100 });
    expect(Socket.OPEN).toBe(1);
    const ws = new Socket(silentUrl) as unknown as WebSocketLike;
    expect(await run(ws)).toEqual(["closed connect-timeout"]);
  });
});

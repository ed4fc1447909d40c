import { createServer as createHttp, type Server } from "node:http";
import { createServer as createTcp, type AddressInfo, type Server as TcpServer } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import {
  attachProxy,
  clientOf,
  isReservedAddress,
  type ProxyPolicy,
  parseTrustedProxies,
  resolveTarget,
  targetOf,
} from "./proxy";

/** A TCP server that answers every chunk with "echo:" and the chunk. */
let echo: TcpServer;
let echoPort = 0;
const servers: Server[] = [];

beforeAll(async () => {
  echo = createTcp((s) => s.on("data", (d) => s.write(Buffer.concat([Buffer.from("echo:"), d]))));
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  echoPort = (echo.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await new Promise((r) => echo.close(r));
});

/** The connections open on the proxy `proxyWith` started last. */
let openOnLast: () => number = () => 0;

const proxyWith = async (policy: ProxyPolicy): Promise<string> => {
  const server = createHttp((_q, res) => res.writeHead(404).end());
  openOnLast = attachProxy(server, policy).open;
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** A connection through the proxy kept open once its first echo came back, or the status it was refused with. */
const hold = (proxy: string, port: number, forwardedFor?: string): Promise<WebSocket | number> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${proxy}/v1/127_0_0_1/${port}`, {
      headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
    });
    ws.on("open", () => ws.send(Buffer.from("ping")));
    ws.once("message", () => resolve(ws));
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", reject);
  });

const closed = (ws: WebSocket) =>
  new Promise<void>((resolve) => {
    ws.once("close", () => resolve());
    ws.close();
  });

/** Opens the proxy to `host:port` and sends "ping": the answer, or the HTTP status the upgrade was refused with. */
const talk = (proxy: string, host: string, port: number): Promise<string | number> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${proxy}/v1/${host.replaceAll(".", "_")}/${port}`);
    ws.on("open", () => ws.send(Buffer.from("ping")));
    ws.on("message", (d: Buffer) => {
      resolve(d.toString());
      ws.close();
    });
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("error", reject);
  });

describe("the WebSocket-to-TCP proxy", () => {
  test("knows private, loopback and reserved addresses from the internet's", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "192.168.1.1", "172.20.0.1", "169.254.1.1", "100.64.0.1"])
      expect(isReservedAddress(ip)).toBe(true);
    for (const ip of ["::1", "fe80::1", "fd00::1", "::ffff:127.0.0.1", "::", "not an ip"])
      expect(isReservedAddress(ip)).toBe(true);
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
      expect(isReservedAddress(ip)).toBe(false);
  });

  test("reads its target from the path, dots written as underscores", () => {
    expect(targetOf("/v1/node_example_org/9735")).toEqual({ host: "node.example.org", port: 9735 });
    expect(targetOf("/v1/127_0_0_1/0")).toBeNull();
    expect(targetOf("/v1/a/b/9735")).toBeNull();
    expect(targetOf("/nostr")).toBeNull();
  });

  test("deployed, it refuses a private address and a port that is not a lightning peer's", async () => {
    const strict = { ports: new Set([echoPort]), allowPrivate: false };
    await expect(resolveTarget("127.0.0.1", echoPort, strict)).rejects.toThrow(/private address/);
    await expect(resolveTarget("localhost", echoPort, strict)).rejects.toThrow(/private address/);
    await expect(resolveTarget("8.8.8.8", 22, strict)).rejects.toThrow(/not a lightning port/);
    const proxy = await proxyWith(strict);
    expect(await talk(proxy, "127.0.0.1", echoPort)).toBe(403);
    const ported = await proxyWith({ ports: new Set([9735]), allowPrivate: true });
    expect(await talk(ported, "127.0.0.1", echoPort)).toBe(403);
  });

  test("carries bytes both ways to an allowed peer", async () => {
    const proxy = await proxyWith({ ports: new Set([echoPort]), allowPrivate: true });
    expect(await talk(proxy, "127.0.0.1", echoPort)).toBe("echo:ping");
  });

  test("counts a client by its address, or the one the TLS proxy on this machine forwarded", () => {
    const req = (remoteAddress: string, xff?: string) =>
      ({ socket: { remoteAddress }, headers: xff ? { "x-forwarded-for": xff } : {} }) as never;
    expect(clientOf(req("203.0.113.7"))).toBe("203.0.113.7");
    // Only a reverse proxy on this machine is believed, and only its own (last) entry.
    expect(clientOf(req("203.0.113.7", "198.51.100.1"))).toBe("203.0.113.7");
    expect(clientOf(req("127.0.0.1", "10.9.9.9, 198.51.100.1"))).toBe("198.51.100.1");
    expect(clientOf(req("::ffff:127.0.0.1", "2001:db8::1"))).toBe("2001:db8::1");
    expect(clientOf(req("127.0.0.1", "not-an-address"))).toBe("127.0.0.1");
  });

  test("believes the fronts TRUSTED_PROXIES names (a container bridge, a balancer) and no one else", () => {
    const req = (remoteAddress: string, xff?: string) =>
      ({ socket: { remoteAddress }, headers: xff ? { "x-forwarded-for": xff } : {} }) as never;
    // Behind Docker's bridge, the TLS proxy on the host is 172.17.0.1: without the setting every user is it.
    expect(clientOf(req("172.17.0.1", "198.51.100.1"))).toBe("172.17.0.1");
    const bridge = parseTrustedProxies("172.17.0.0/16, ::1")!;
    expect(clientOf(req("172.17.0.1", "198.51.100.1"), bridge)).toBe("198.51.100.1");
    expect(clientOf(req("::ffff:172.17.0.1", "198.51.100.1"), bridge)).toBe("198.51.100.1");
    // A balancer in front of the bridge, both trusted: the client is the entry left of both.
    const both = parseTrustedProxies("172.17.0.0/16,10.0.0.5")!;
    expect(clientOf(req("172.17.0.1", "6.6.6.6, 198.51.100.1, 10.0.0.5"), both)).toBe("198.51.100.1");
    // A client writing a trusted front's address on the left gains nothing.
    expect(clientOf(req("172.17.0.1", "10.0.0.5, 198.51.100.1"), both)).toBe("198.51.100.1");
    expect(clientOf(req("203.0.113.7", "198.51.100.1"), bridge)).toBe("203.0.113.7");
    expect(parseTrustedProxies("10.0.0.0/33")).toBeNull();
    expect(parseTrustedProxies("example.org")).toBeNull();
  });

  test("refuses a client more connections than its cap, and takes it again once one closes", async () => {
    const proxy = await proxyWith({ ports: new Set([echoPort]), allowPrivate: true, maxPerClient: 2 });
    const first = await hold(proxy, echoPort, "198.51.100.1");
    const second = await hold(proxy, echoPort, "198.51.100.1");
    expect(first).toBeInstanceOf(WebSocket);
    expect(second).toBeInstanceOf(WebSocket);
    expect(await hold(proxy, echoPort, "198.51.100.1")).toBe(429);
    // Another client is not held back by the first one's connections.
    const other = await hold(proxy, echoPort, "198.51.100.2");
    expect(other).toBeInstanceOf(WebSocket);
    await closed(first as WebSocket);
    await expect.poll(openOnLast).toBe(2);
    const again = await hold(proxy, echoPort, "198.51.100.1");
    expect(again).toBeInstanceOf(WebSocket);
    for (const ws of [second, other, again]) await closed(ws as WebSocket);
  });
});

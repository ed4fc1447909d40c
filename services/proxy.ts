/**
 * The WebSocket-to-TCP proxy every lightning connection of the wallet goes through (a browser cannot open a
 * TCP socket): `GET /v1/<host with dots as underscores>/<port>` upgraded to a WebSocket whose bytes are the
 * TCP stream's. Deployed, it is no open proxy: only lightning peers' ports (9735 unless told others), and no
 * private, loopback, link-local or otherwise reserved address, checked on the address the name resolves to,
 * which is the one dialled (a name cannot point elsewhere between the check and the dial). The local world
 * allows everything (its nodes listen on 127.0.0.1 and free ports).
 */
import { promises as dns } from "node:dns";
import type { IncomingMessage, Server } from "node:http";
import { BlockList, connect, isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer } from "ws";

export interface ProxyPolicy {
  /** The TCP ports a browser may reach; null allows any. */
  readonly ports: ReadonlySet<number> | null;
  /** Whether private, loopback and other reserved addresses may be dialled (a local test world). */
  readonly allowPrivate: boolean;
  /** The most connections open at once. */
  readonly maxConnections?: number;
  /** The most connections one client (see `clientOf`) may have open at once. */
  readonly maxPerClient?: number;
  /** How long dialling a peer may take. */
  readonly dialTimeoutMs?: number;
  /**
   * The fronts (TLS reverse proxy, load balancer, container bridge) whose `X-Forwarded-For` is believed;
   * loopback when absent (see `clientOf`).
   */
  readonly trustedProxies?: BlockList;
}

/** The local world's policy: its nodes listen on loopback, on free ports. */
export const OPEN_PROXY: ProxyPolicy = {
  ports: null,
  allowPrivate: true,
  maxPerClient: Number.POSITIVE_INFINITY,
};

/** Lightning's port (BOLT 1). */
export const LIGHTNING_PORT = 9735;
const MAX_CONNECTIONS = 2_000;
/** A wallet keeps a connection to its LSP and a few peers: a client with more open is refused. */
export const DEFAULT_PER_CLIENT = 16;
const DIAL_TIMEOUT_MS = 10_000;
/** A lightning message is at most 65,535 bytes plus its framing; a WebSocket message larger is refused. */
const MAX_MESSAGE_BYTES = 1 << 20;

const reserved = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  reserved.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 127],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  reserved.addSubnet(net, bits, "ipv6");

/** Whether `ip` is private, loopback, link-local, documentation, multicast or otherwise not the internet's. */
export const isReservedAddress = (ip: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return reserved.check(mapped, "ipv4");
  const family = isIP(ip);
  if (family === 0) return true;
  return reserved.check(ip, family === 4 ? "ipv4" : "ipv6");
};

export class ProxyRefused extends Error {}

/** The proxy's target from a request path, or null when the path is not `/v1/<host>/<port>`. */
export const targetOf = (url: string): { host: string; port: number } | null => {
  const m = /^\/v1\/([A-Za-z0-9_.:-]{1,253})\/(\d{1,5})$/.exec(url.split("?")[0] ?? "");
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: m[1]!.replaceAll("_", "."), port };
};

/** The address to dial for `host:port` under `policy`, or ProxyRefused. */
export const resolveTarget = async (
  host: string,
  port: number,
  policy: ProxyPolicy,
): Promise<{ address: string; family: number }> => {
  if (policy.ports && !policy.ports.has(port)) throw new ProxyRefused(`Port ${port} is not a lightning port`);
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await dns.lookup(host, { all: true });
  } catch {
    throw new ProxyRefused(`${host} does not resolve`);
  }
  const first = addresses[0];
  if (!first) throw new ProxyRefused(`${host} does not resolve`);
  if (!policy.allowPrivate && addresses.some((a) => isReservedAddress(a.address)))
    throw new ProxyRefused(`${host} is a private address`);
  return first;
};

const dial = (address: string, port: number, timeoutMs: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error("The peer did not answer")));
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.off("error", reject);
      socket.setNoDelay(true);
      resolve(socket);
    });
  });

/** Loopback only: the front on this machine. */
export const LOOPBACK_PROXIES = new BlockList();
LOOPBACK_PROXIES.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK_PROXIES.addAddress("::1", "ipv6");

const plain = (ip: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;

const trusted = (list: BlockList, ip: string): boolean => {
  const a = plain(ip);
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 4 ? "ipv4" : "ipv6");
};

/**
 * `TRUSTED_PROXIES`: addresses and networks (`10.0.0.0/8`, `172.17.0.1`, `fd00::/8`), comma-separated, or
 * null when one is not.
 */
export const parseTrustedProxies = (value: string): BlockList | null => {
  const list = new BlockList();
  for (const entry of value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    if (family === 0) return null;
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else {
      const n = Number(bits);
      if (!Number.isInteger(n) || n < 0 || n > (family === 4 ? 32 : 128)) return null;
      list.addSubnet(address, n, type);
    }
  }
  return list;
};

/**
 * Who a connection counts against: its peer's address or, when that peer is a trusted front
 * (`trustedProxies`, loopback unless told), the address in `X-Forwarded-For` nearest the right that is not a
 * trusted front itself (each front appends the address it saw; the entries left of the fronts' are the
 * client's to write).
 */
export const clientOf = (req: IncomingMessage, trustedProxies: BlockList = LOOPBACK_PROXIES): string => {
  const peer = plain(req.socket.remoteAddress ?? "");
  const forwarded = req.headers["x-forwarded-for"];
  const header = Array.isArray(forwarded) ? forwarded.join(",") : forwarded;
  if (!trusted(trustedProxies, peer) || !header) return peer;
  const hops = header
    .split(",")
    .map((h) => h.trim())
    .reverse();
  for (const hop of hops) {
    if (isIP(plain(hop)) === 0) return peer;
    if (!trusted(trustedProxies, hop)) return plain(hop);
  }
  return plain(hops.at(-1) ?? peer);
};

/** WebSocket's close code for a server going away (RFC 6455 7.4.1): the wallet dials again. */
export const GOING_AWAY = 1001;

export interface AttachedProxy {
  /** How many connections are open. */
  readonly open: () => number;
  /**
   * Refuses new connections and closes the open ones with GOING_AWAY (the peer's TCP side with them);
   * resolves when all are closed, those that do not close within `graceMs` cut.
   */
  readonly close: (graceMs?: number) => Promise<void>;
}

/** Serves the proxy on `server`'s WebSocket upgrades. */
export const attachProxy = (server: Server, policy: ProxyPolicy): AttachedProxy => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let open = 0;
  let closing = false;
  const sockets = new Set<WebSocket>();
  const byClient = new Map<string, number>();
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = targetOf(req.url ?? "");
    if (!target) {
      socket.destroy();
      return;
    }
    if (closing || open >= (policy.maxConnections ?? MAX_CONNECTIONS)) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\n\r\n");
      return;
    }
    const client = clientOf(req, policy.trustedProxies);
    const clientOpen = byClient.get(client) ?? 0;
    if (clientOpen >= (policy.maxPerClient ?? DEFAULT_PER_CLIENT)) {
      socket.end("HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\n\r\nToo many connections");
      return;
    }
    open++;
    byClient.set(client, clientOpen + 1);
    let counted = true;
    const done = () => {
      if (counted) {
        open--;
        const left = (byClient.get(client) ?? 1) - 1;
        if (left > 0) byClient.set(client, left);
        else byClient.delete(client);
      }
      counted = false;
    };
    socket.once("close", done);
    void resolveTarget(target.host, target.port, policy).then(
      ({ address }) =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          if (closing) {
            ws.close(GOING_AWAY, "Server restarting");
            return;
          }
          sockets.add(ws);
          ws.once("close", () => {
            sockets.delete(ws);
            done();
          });
          // Bytes the browser sends before the TCP side is up wait here, in order.
          const early: Buffer[] = [];
          ws.on("message", (d: Buffer) => early.push(d));
          ws.on("error", () => ws.terminate());
          void dial(address, target.port, policy.dialTimeoutMs ?? DIAL_TIMEOUT_MS).then(
            (tcp) => {
              if (ws.readyState !== WebSocket.OPEN) {
                tcp.destroy();
                return;
              }
              ws.removeAllListeners("message");
              ws.on("message", (d: Buffer) => tcp.write(d));
              ws.on("close", () => tcp.destroy());
              tcp.on("data", (d: Buffer) => ws.send(d));
              tcp.on("close", () => ws.close());
              tcp.on("error", () => tcp.destroy());
              for (const d of early.splice(0)) tcp.write(d);
            },
            () => ws.close(),
          );
        }),
      (e) => {
        const reason = e instanceof ProxyRefused ? e.message : "Refused";
        socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${reason}`);
      },
    );
  });
  const close = async (graceMs = 3_000) => {
    closing = true;
    const all = [...sockets];
    const closed = all.map((ws) =>
      ws.readyState === WebSocket.CLOSED
        ? Promise.resolve()
        : new Promise<void>((resolve) => ws.once("close", () => resolve())),
    );
    for (const ws of all) ws.close(GOING_AWAY, "Server restarting");
    const cut = setTimeout(() => {
      for (const ws of all) ws.terminate();
    }, graceMs);
    await Promise.all(closed);
    clearTimeout(cut);
  };
  return { open: () => open, close };
};

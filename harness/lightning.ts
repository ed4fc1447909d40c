/**
 * The local world's lightning node: LDK in Node with its own seed, kept in memory like the chain. It is the
 * wallet's counterparty and LSP: it listens on TCP (for other nodes and the WebSocket proxy) and on
 * WebSocket (for browsers), funds its channels from the faucet, forwards payments (also to private
 * channels), and answers a small HTTP API under /ln/ (see README.md).
 */
import { createServer as createTcpServer, type Server as TcpServer } from "node:net";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { AddressInfo } from "node:net";
import { hex } from "@scure/base";
import { decode } from "light-bolt11-decoder";
import { WebSocketServer } from "ws";
import { EsploraChain } from "../src/engine/lightning/chain";
import { LightningNode, type NodeEvent } from "../src/engine/lightning/node";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import type { MemoryBlobStore } from "../src/engine/lightning/store";
import { makeEsplora } from "../src/engine/onchain/esplora";
import { OPEN_PROXY, attachProxy as attachServicesProxy } from "../services/proxy";
import { Cheater, type CheatResult, HistoryStore } from "./cheat";
import { dialTcp, loadLdk, tcpPipe, wsPipe } from "../services/gossip/pipes";
import type { World } from "./regtest";
import { HttpError, parseJson, type RouteTable, toSats } from "./server";

export interface HarnessNode {
  readonly node: LightningNode;
  readonly pubkey: string;
  readonly tcpPort: number;
  readonly wsPort: number;
  /** `pubkey@127.0.0.1:tcpPort`, for nodes and the proxy. */
  readonly address: string;
  /** `pubkey@127.0.0.1:wsPort`, for a browser connecting directly. */
  readonly wsAddress: string;
  readonly events: NodeEvent[];
  /** Set by the LSP service: decides whether to hold a payment whose preimage the node does not know. */
  readonly hold: { handler: ((paymentHash: string, amountMsat: bigint) => boolean) | null };
  /** Calls `listener` with every event from now on; answers how to stop. */
  readonly on: (listener: (e: NodeEvent) => void) => () => void;
  /** Resolves with the first event (already seen or future) that matches. */
  readonly waitFor: (match: (e: NodeEvent) => boolean, timeoutMs?: number) => Promise<NodeEvent>;
  readonly stop: () => Promise<void>;
  /**
   * Takes the node down as a restarting LSP goes: its listeners close (a dial is refused), every peer's
   * socket closes, it dials no one and its background work stops. The same node (seed, store, channels)
   * comes back with `online`, on the same ports; `node` is then the new instance.
   */
  readonly offline: () => Promise<void>;
  readonly online: () => Promise<void>;
  readonly isOnline: () => boolean;
  /**
   * Publishes a revoked state of the channel funded at `outpoint` (`txid:vout`): copy `index` of its monitor,
   * or the old one that paid this node most (harness/cheat.ts). Only for a node keeping its monitors' history.
   */
  readonly cheat: (outpoint: string, index?: number) => Promise<CheatResult>;
  /** The kept states of that channel that pay this node otherwise than the latest (revoked ones), by index. */
  readonly revokedStates: (outpoint: string) => number[];
  /** The txid of the old state's commitment `cheat` would publish (copy `index`), without publishing it. */
  readonly oldStateTxid: (outpoint: string, index: number) => string;
}

const listen = (server: TcpServer | Server, port: number, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });

export interface LightningNodeOptions {
  readonly esploraUrl: string;
  readonly host?: string;
  readonly tcpPort?: number;
  readonly wsPort?: number;
  /** 32 bytes; random by default. */
  readonly seed?: Uint8Array;
  readonly quiet?: boolean;
  /** Where the node keeps its state: a node restarted with the same store and seed comes back. */
  readonly store?: MemoryBlobStore;
}

export const startLightningNode = async (world: World, opts: LightningNodeOptions): Promise<HarnessNode> => {
  await loadLdk();
  const host = opts.host ?? "127.0.0.1";
  const events: NodeEvent[] = [];
  const hold: HarnessNode["hold"] = { handler: null };
  const waiters = new Set<{ match: (e: NodeEvent) => boolean; resolve: (e: NodeEvent) => void }>();
  const listeners = new Set<(e: NodeEvent) => void>();
  const client = makeEsplora(opts.esploraUrl, (i, init) => fetch(i, init), { backoffMs: 50 });
  const log = (level: string, message: string) => {
    if (!opts.quiet && (level === "error" || level === "warn")) console.error(`[ln ${level}] ${message}`);
  };
  const chain = new EsploraChain(client, log);
  const seed = opts.seed ?? crypto.getRandomValues(new Uint8Array(32));
  // Every monitor it writes is kept, so the world can publish an old state on demand (harness/cheat.ts).
  const store = opts.store ?? new HistoryStore();
  const cheater = store instanceof HistoryStore ? new Cheater(seed, store, chain) : null;
  const onEvent = (e: NodeEvent) => {
    events.push(e);
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        log("error", `listener: ${String(err)}`);
      }
    }
    for (const w of waiters) {
      if (w.match(e)) {
        waiters.delete(w);
        w.resolve(e);
      }
    }
  };
  const build = () =>
    LightningNode.start({
      seed,
      network: "regtest",
      store,
      chain,
      log,
      role: "router",
      // A routing node: it takes the network's gossip and passes it on.
      p2pGossip: true,
      connect: (peer) => dialTcp(peer.host, peer.port),
      fundChannel: async (script, sats) => new Uint8Array(await world.fundingTx(script, sats)),
      sweepScript: async () => world.faucetScript,
      onUnknownPreimage: (hash, msat) => hold.handler?.(hash, msat) ?? false,
      onEvent,
    });
  let node = await build();
  const tcp = createTcpServer((socket) => node.acceptInbound(tcpPipe(socket)));
  const tcpPort = await listen(tcp, opts.tcpPort ?? 0, host);
  const http = createHttpServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain" });
    res.end("This port speaks lightning over WebSocket");
  });
  const wss = new WebSocketServer({ noServer: true });
  http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    wss.handleUpgrade(req, socket, head, (ws) => node.acceptInbound(wsPipe(ws)));
  });
  const wsPort = await listen(http, opts.wsPort ?? 0, host);
  // Blocks found by the world reach the node at once, as a node watching its own bitcoind would see them.
  const syncEvery = () =>
    setInterval(() => void node.sync().catch((e) => log("warn", `sync: ${String(e)}`)), 500);
  let syncTimer: ReturnType<typeof setInterval> | null = syncEvery();
  /** Closes the listeners and every peer's socket, and stops the node (its state written). */
  const down = async () => {
    if (syncTimer) clearInterval(syncTimer);
    syncTimer = null;
    const tcpClosed = new Promise<void>((r) => tcp.close(() => r()));
    const httpClosed = new Promise<void>((r) => http.close(() => r()));
    await node.stop();
    for (const c of wss.clients) c.terminate();
    http.closeAllConnections();
    await Promise.all([tcpClosed, httpClosed]);
  };
  let online = true;
  /** Stopped for good (the world is stopping): never started again. */
  let ended = false;
  // Stops and starts one after the other, in the order asked.
  let turn: Promise<void> = Promise.resolve();
  const inTurn = (step: () => Promise<void>): Promise<void> => {
    const next = turn.then(step);
    turn = next.catch(() => undefined);
    return next;
  };

  return {
    get node() {
      return node;
    },
    pubkey: node.nodeId,
    tcpPort,
    wsPort,
    address: `${node.nodeId}@${host}:${tcpPort}`,
    wsAddress: `${node.nodeId}@${host}:${wsPort}`,
    events,
    hold,
    on: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitFor: (match, timeoutMs = 30_000) => {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const w = {
          match,
          resolve: (e: NodeEvent) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error("The lightning event did not come"));
        }, timeoutMs);
        waiters.add(w);
      });
    },
    revokedStates: (outpoint) => cheater?.revoked(outpoint) ?? [],
    oldStateTxid: (outpoint, index) => {
      if (!cheater) throw new Error("This node keeps no history of its channels");
      return cheater.oldState(outpoint, index).result.txid;
    },
    cheat: (outpoint, index) => {
      if (!cheater) return Promise.reject(new Error("This node keeps no history of its channels"));
      return cheater.cheat(outpoint, index);
    },
    stop: () =>
      inTurn(async () => {
        ended = true;
        if (!online) return;
        online = false;
        await down();
      }),
    offline: () =>
      inTurn(async () => {
        if (!online) return;
        online = false;
        await down();
      }),
    online: () =>
      inTurn(async () => {
        if (online || ended) return;
        const before = node;
        node = await build();
        // The LSPS2 service answers on the node that came back.
        node.lsps0.serve = before.lsps0.serve;
        await listen(tcp, tcpPort, host);
        await listen(http, wsPort, host);
        syncTimer = syncEvery();
        online = true;
      }),
    isOnline: () => online,
  };
};

const bigintJson = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x)));

const str = (body: Record<string, unknown>, key: string): string => {
  const v = body[key];
  if (typeof v !== "string" || v.length === 0) throw new HttpError(400, `${key} is required`);
  return v;
};

/** Whether an invoice's route hints start at `pubkey`. */
export const hintsThrough = (bolt11: string, pubkey: string): boolean => {
  try {
    return decode(bolt11.trim().toLowerCase()).route_hints.some((r) => r[0]?.pubkey === pubkey);
  } catch {
    return false;
  }
};

/**
 * The node's HTTP API, served by the world's HTTP server under /ln/. While the node is stopped
 * (`/ln/stop`), every other /ln/ path answers 503, as a restarting node's API does.
 */
export const lightningRoutes = (h: HarnessNode, payer?: () => Promise<HarnessNode>): RouteTable => [
  ...restartRoutes(h),
  ...nodeRoutes(h, payer).map(([method, re, route]): RouteTable[number] => [
    method,
    re,
    (...args) => {
      if (re.source.startsWith("^\\/ln\\/") && !h.isOnline())
        throw new HttpError(503, "The lightning node is stopped");
      return route(...args);
    },
  ]),
];

/**
 * `POST /ln/stop {seconds?}` takes the node down as a restarting LSP goes (its peers' sockets closed, new
 * ones refused) and, given `seconds`, starts it again that much later; `POST /ln/start` brings it back now
 * and answers once it listens again.
 */
const restartRoutes = (h: HarnessNode): RouteTable => [
  [
    "POST",
    /^\/ln\/stop$/,
    async (_m, body) => {
      const b = body.trim() === "" ? {} : parseJson(body);
      const seconds = b.seconds;
      if (seconds !== undefined && (typeof seconds !== "number" || !(seconds >= 0)))
        throw new HttpError(400, "seconds must be a number of seconds");
      await h.offline();
      if (typeof seconds === "number")
        setTimeout(
          () => void h.online().catch((e) => console.error(`[ln] start again: ${String(e)}`)),
          seconds * 1000,
        ).unref();
      return { json: { online: false, ...(typeof seconds === "number" ? { starts_in: seconds } : {}) } };
    },
  ],
  [
    "POST",
    /^\/ln\/start$/,
    async () => {
      await h.online();
      return { json: { online: h.isOnline() } };
    },
  ],
];

const nodeRoutes = (h: HarnessNode, payer?: () => Promise<HarnessNode>): RouteTable => [
  // The LSP's description of itself (`GET /api/v1/info`, the HTTP LSP style of Voltage Flow 2).
  [
    "GET",
    /^\/v1\/info$/,
    () => ({
      json: {
        pubkey: h.pubkey,
        connection_methods: [{ type: "ipv4", address: "127.0.0.1", port: h.tcpPort }],
      },
    }),
  ],
  [
    "GET",
    /^\/ln\/info$/,
    () => ({
      json: {
        pubkey: h.pubkey,
        address: h.address,
        ws_address: h.wsAddress,
        balance_sats: h.node.balanceSats().toString(),
      },
    }),
  ],
  ["GET", /^\/ln\/channels$/, () => ({ json: bigintJson(h.node.channels()) })],
  ["GET", /^\/ln\/peers$/, () => ({ json: h.node.peers() })],
  [
    "POST",
    /^\/ln\/invoice$/,
    (_m, body) => {
      const b = parseJson(body);
      const amount = b.amount_sats === undefined ? null : toSats(b.amount_sats) * 1000n;
      return { json: h.node.createInvoice(amount, typeof b.description === "string" ? b.description : "") };
    },
  ],
  [
    "POST",
    /^\/ln\/pay$/,
    async (_m, body) => {
      const b = parseJson(body);
      const amount = b.amount_sats === undefined ? undefined : toSats(b.amount_sats) * 1000n;
      const bolt11 = str(b, "bolt11");
      // An invoice of this node itself (one it wrapped for a just-in-time channel), or one routed through
      // it by a hint (an LSPS2 intercept SCID), is paid by the payer.
      const own = payer && (decodeBolt11(bolt11)?.payeePubkey === h.pubkey || hintsThrough(bolt11, h.pubkey));
      const r = await (own ? await payer() : h).node.payInvoice(bolt11, 1_000_000n, amount);
      return { json: bigintJson(r) };
    },
  ],
  [
    "POST",
    /^\/ln\/keysend$/,
    async (_m, body) => {
      const b = parseJson(body);
      return {
        json: bigintJson(await h.node.keysend(str(b, "pubkey"), toSats(b.amount_sats) * 1000n, 1_000_000n)),
      };
    },
  ],
  [
    "POST",
    /^\/ln\/connect$/,
    async (_m, body) => {
      const peer = parsePeerAddress(str(parseJson(body), "address"));
      if (!peer) throw new HttpError(400, "address must be pubkey@host:port");
      await h.node.connectPeer(peer);
      return { json: { connected: true } };
    },
  ],
  [
    "POST",
    /^\/ln\/open$/,
    async (_m, body) => {
      const b = parseJson(body);
      const pubkey = str(b, "pubkey");
      if (typeof b.address === "string") {
        const peer = parsePeerAddress(b.address);
        if (!peer) throw new HttpError(400, "address must be pubkey@host:port");
        await h.node.connectPeer(peer);
      }
      if (!h.node.isConnected(pubkey)) throw new HttpError(400, "Not connected to that node");
      const push = b.push_sats === undefined ? 0n : toSats(b.push_sats) * 1000n;
      return { json: { channel_id: h.node.openChannel(pubkey, toSats(b.sats), push) } };
    },
  ],
  [
    "POST",
    /^\/ln\/cheat$/,
    async (_m, body) => {
      const b = parseJson(body);
      const id = str(b, "channel_id");
      const channel = h.node.channels().find((c) => c.channelId === id);
      if (!channel?.outpoint) throw new HttpError(404, "No such channel");
      const index = typeof b.index === "number" ? b.index : undefined;
      try {
        return { json: await h.cheat(channel.outpoint, index) };
      } catch (e) {
        throw new HttpError(409, e instanceof Error ? e.message : String(e));
      }
    },
  ],
  [
    "POST",
    /^\/ln\/close$/,
    (_m, body) => {
      const b = parseJson(body);
      h.node.closeChannel(str(b, "channel_id"), b.force === true);
      return { json: { closing: true } };
    },
  ],
];

/**
 * The WebSocket-to-TCP proxy a browser uses to reach any lightning node: `ws://<world>/v1/<host>/<port>`
 * (IPv4 dots written as underscores). Attached to the world's HTTP server.
 */
/** The world's WebSocket-to-TCP proxy: the services' one, open to its loopback nodes on any port. */
export const attachProxy = (server: Server): void => {
  attachServicesProxy(server, OPEN_PROXY);
};

export const randomSeed = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32));
export const seedFromHex = (h: string): Uint8Array => hex.decode(h);

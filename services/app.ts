/**
 * The wallet's own services as one process (`npm run services`, configured by environment variables, see
 * docs/deploy.md): on one HTTP port, what the local world serves the wallet, without the chain and the
 * test-only endpoints.
 *
 *   ws  /v1/<host>/<port>     the WebSocket-to-TCP proxy to lightning peers (services/proxy.ts)
 *   POST /storage/<call>      the versioned storage server (harness/storage), state in the database
 *   GET  /rgs/snapshot/<t>    rapid gossip sync from the gossip node's graph (services/gossip-node.ts), whole,
 *                             or in parts with `?parts` (services/gossip/rgs.ts); its
 *                             history in the database every process shares (services/gossip-store.ts)
 *   /.well-known/lnurlp/…, /hermes/…   the lightning-address service (harness/hermes.ts), names and
 *                             members in the database
 *   /plus/…                   Plus, paid to the operator's wallet over wallet-connect (services/plus.ts), when
 *                             one is configured
 *   POST /tower/appointment   the watchtower (services/tower/): appointments in the database, every block
 *                             of the configured Esplora watched
 *   POST /v1/feedback         feedback, kept in the database
 *   POST /primal              the social-profile cache, from the configured relays (services/profiles.ts)
 *   GET|POST /esplora/…       the configured Esplora API's routes the wallet uses, passed on (bounded), for
 *                             self-hosted builds (services/pass-through.ts: nothing else of its host)
 *   GET|POST /lsp/api/v1/…    the configured LSP's HTTP API (info, fee, proposal), passed on (bounded), when one
 *                             is configured
 *   GET  /health              {ok, network, gossip_channels, checks, failing?}: 503 when the database, an
 *                             upstream or the gossip node fails (services/health.ts)
 *   GET  /metrics             Prometheus' text format (services/metrics.ts)
 *   GET  /.well-known/wallet-services.json   the relays, wallet-connect relay, Blossom and price feed a
 *                             self-hosted build takes as its defaults (src/settings/published.ts)
 *
 * Every process on one PostgreSQL (`DATABASE_URL`) serves the same wallets; without it the embedded
 * database (PGlite) keeps the state in `DATA_DIR`, for this process only. Logs are JSON lines
 * (services/log.ts); a failure's details go there, its answer carries a catalogue error (services/errors.ts).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Network } from "../src/events/types";
import { startFeedback } from "./feedback/feedback";
import { startHermes } from "./hermes/hermes";
import type { SqlDb } from "./storage/db";
import { startStorage } from "./storage/service";
import type { ChannelGossip } from "../src/engine/lightning/gossip";
import { RGS_PART_PIECES } from "./gossip/rgs";
import { sqlGossip } from "./gossip/store";
import { CHAIN_HASHES, type GossipNode, startGossipNode } from "./gossip/node";
import { sqlNameBook } from "./hermes/names";
import { type PlusConfig, startServicesPlus } from "./plus/plus";
import { startProfileCache } from "./profiles";
import { errorAnswer, isDatabaseDown } from "./errors";
import { type Check, databaseCheck, type HealthReport, healthChecks, upstreamCheck } from "./health";
import { MAX_BODY_BYTES, type RouteTable, routeServer } from "./http";
import { ESPLORA_PATHS, LSP_PATHS, passThrough } from "./pass-through";
import { bodyCapOf, rateLimiter } from "./limits";
import { describeError, type Log, silentLog } from "./log";
import { servicesMetrics } from "./metrics";
import { attachProxy, clientOf, type ProxyPolicy } from "./proxy";
import { servicesTables } from "./tables";
import { startTower } from "./tower/tower";

export interface ServicesConfig {
  readonly port: number;
  readonly host: string;
  readonly network: Network;
  /** PostgreSQL; the embedded database when absent. */
  readonly databaseUrl?: string;
  /** Where the embedded database keeps its files (without `databaseUrl`); in memory when absent. */
  readonly dataDir?: string;
  /** The Esplora API the gossip node and `/esplora` use. */
  readonly esploraUrl: string;
  /** The LSP whose HTTP API `/lsp` passes on (the wallet then dials its node through the proxy); none: no `/lsp`. */
  readonly lspUrl?: string;
  readonly proxy: ProxyPolicy;
  /** Nostr relays: the first carries the lightning-address service's messages to members. */
  readonly relays: readonly string[];
  /** The wallet-connect relay a self-hosted build uses; the first of `relays` when absent. */
  readonly nwcRelay?: string;
  /** The Blossom media server a self-hosted build uses; the wallet's own default when absent. */
  readonly blossomUrl?: string;
  /** The price feed a self-hosted build uses (the wallet's URL template); the wallet's own when absent. */
  readonly priceFeedUrl?: string;
  /** Peers the gossip node takes the network's gossip from (`pubkey@host:port`); none: no gossip node. */
  readonly gossipPeers: readonly string[];
  /** The lightning-address service's nostr key (hex), the same on every process. */
  readonly hermesSecret: Uint8Array;
  /** Plus: the operator's wallet-connect URI and the plans; none: Plus is not sold here. */
  readonly plus?: PlusConfig;
  /** Multiplies every route's rate limit (services/limits.ts); 0 turns them off; 1 when absent. */
  readonly rateLimitScale?: number;
  /** The most bytes of values one key may keep in storage; unlimited when absent. */
  readonly storageQuotaBytes?: number;
}

export interface RunningServices {
  readonly url: string;
  readonly server: Server;
  /** The database the services keep their state in. */
  readonly db: () => Promise<SqlDb>;
  /** What `/health` answers, checked now. */
  readonly health: () => Promise<HealthReport>;
  readonly stop: () => Promise<void>;
}

/** How often the gossip node's graph is compared with the shared history. */
const OBSERVE_MS = 15_000;
/** How long requests under way and proxied sockets get to finish when the services stop. */
const DRAIN_MS = 5_000;
/** How long the gossip node and the database each get to stop after that. */
const PART_STOP_MS = 2_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** A part the services cannot start without failed; `message` is the one line the operator reads. */
export class StartProblem extends Error {}

/** Gossip older than this is stale: the network's nodes refresh their channels' updates daily. */
const GOSSIP_STALE_S = 36 * 3600;
/** How often the health of everything is checked in the background (its changes logged). */
const MONITOR_MS = 30_000;
/** How long after a failed start the gossip node is started again. */
const GOSSIP_RETRY_MS = 30_000;

/** `url` with its password masked, for the log. */
export const maskUrl = (url: string): string => {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
};

/** How long an idle connection to the services is kept open. */
export const KEEP_ALIVE_MS = 65_000;

export const startServices = async (
  config: ServicesConfig,
  opts: {
    log?: Log;
    /** Where gossip comes from besides a gossip node (a test's graph). */
    gossipSource?: () => ChannelGossip[];
  } = {},
): Promise<RunningServices> => {
  const log = opts.log ?? silentLog;
  const metrics = servicesMetrics();
  const databaseFailed = (e: unknown) => {
    if (isDatabaseDown(e)) metrics.databaseError();
  };
  const storage = startStorage({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    ...(config.storageQuotaBytes ? { quotaBytes: config.storageQuotaBytes } : {}),
    onError: (e) => {
      databaseFailed(e);
      log.error("storage failed", { error: describeError(e) });
    },
  });
  // The database opens at start: a misconfigured DATABASE_URL stops the process here, not at a first request.
  try {
    await storage.db();
  } catch (e) {
    const where = config.databaseUrl
      ? `DATABASE_URL ${maskUrl(config.databaseUrl)}`
      : `DATA_DIR ${config.dataDir ?? "(in memory)"}`;
    throw new StartProblem(`the database did not open (${where}): ${describeError(e)}`);
  }
  const tables = servicesTables(storage.db);
  await tables.open();
  const rgs = sqlGossip(storage.db, CHAIN_HASHES[config.network]);
  await rgs.open();
  let observing: ReturnType<typeof setInterval> | undefined;
  /** Records what `source` (a gossip node's graph) has that the shared history has not. */
  const observeFrom = (source: () => ChannelGossip[]) => {
    // The database is asked only when the graph changed since the last look it recorded.
    let recorded = "";
    const look = () => {
      const graph = source();
      const print = JSON.stringify(graph, (_k, v) =>
        typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? [...v] : v,
      );
      if (print === recorded) return;
      void rgs.observe(graph).then(
        () => {
          recorded = print;
        },
        (e) => log.warn("gossip not recorded", { error: describeError(e) }),
      );
    };
    look();
    observing = setInterval(look, OBSERVE_MS);
  };
  if (opts.gossipSource) observeFrom(opts.gossipSource);
  let gossip: GossipNode | null = null;
  let stopping = false;
  let gossipRetry: ReturnType<typeof setTimeout> | undefined;
  // The gossip node starts beside the rest (it needs Esplora, which may be away): until it runs, rapid gossip
  // sync serves an empty graph and /health says so.
  const startGossip = () => {
    void startGossipNode({
      network: config.network,
      esploraUrl: config.esploraUrl,
      peers: config.gossipPeers,
      log: (level, message) => {
        if (level === "error" || level === "warn") log.warn("gossip node", { detail: message });
      },
    }).then(
      (g) => {
        if (stopping) return void g.stop();
        gossip = g;
        observeFrom(() => g.node.graphChannels());
        log.info("gossip node started", { peers: config.gossipPeers.length });
      },
      (e) => {
        log.warn("gossip node did not start", { error: describeError(e), retry_s: GOSSIP_RETRY_MS / 1000 });
        if (!stopping) gossipRetry = setTimeout(startGossip, GOSSIP_RETRY_MS);
      },
    );
  };
  if (config.gossipPeers.length > 0) startGossip();
  const hermes = startHermes(tables.membership, {
    relayUrl: config.relays[0] ?? "",
    names: sqlNameBook(storage.db),
    secret: config.hermesSecret,
    operatorView: false,
  });
  const plus = config.plus ? startServicesPlus(storage.db, config.plus) : null;
  const feedback = startFeedback({ sink: tables.keepFeedback, operatorView: false });
  const tower = startTower({
    db: storage.db,
    esploraUrl: config.esploraUrl,
    pollMs: 20_000,
    log: (m) => console.log(`tower: ${m}`),
  });
  const profiles = startProfileCache(config.relays);

  const checks: Check[] = [
    databaseCheck(async () => (await storage.db()).query("SELECT 1")),
    upstreamCheck("esplora", `${config.esploraUrl}/blocks/tip/height`, (b) => /^\d+$/.test(b.trim())),
    ...(config.lspUrl ? [upstreamCheck("lsp", `${config.lspUrl}/api/v1/info`)] : []),
  ];
  if (config.gossipPeers.length > 0)
    checks.push({
      name: "gossip",
      run: async () => {
        if (!gossip) return { problem: "not started" };
        const connected = gossip.node.peers().filter((p) => p.connected).length;
        if (connected === 0) return { problem: "no peer connected", detail: { peers: config.gossipPeers } };
        const known = await rgs.state();
        if (known.channels === 0) return { problem: "no channels yet" };
        const age = Math.floor(Date.now() / 1000) - known.newest;
        if (age > GOSSIP_STALE_S) return { problem: "stale", detail: { newest_age_s: age } };
        return null;
      },
    });
  const health = healthChecks(checks, log);
  /** The public channels rapid gossip sync serves (the shared history's). */
  const gossipChannels = () =>
    rgs.state().then(
      (s) => s.channels,
      () => 0,
    );

  let storageBytes: { at: number; bytes: Promise<number> } | null = null;
  metrics.gauge({
    name: "services_storage_bytes",
    help: "Bytes of values the storage server keeps (all keys), read at most once a minute.",
    read: () => {
      if (!storageBytes || Date.now() - storageBytes.at > 60_000) {
        const bytes = storage
          .db()
          .then((d) =>
            d.query<{ n: string }>("SELECT coalesce(sum(octet_length(value)), 0)::text AS n FROM vss_db"),
          )
          .then((r) => Number(r.rows[0]?.n ?? 0));
        // A failed reading is not kept: the next scrape asks again.
        bytes.catch(() => {
          storageBytes = null;
        });
        storageBytes = { at: Date.now(), bytes };
      }
      return storageBytes.bytes;
    },
  });
  metrics.gauge({
    name: "services_gossip_channels",
    help: "Public channels the gossip node knows.",
    read: gossipChannels,
  });

  const routes: RouteTable = [
    [
      "GET",
      /^\/health$/,
      async () => {
        const report = await health.run();
        return {
          status: report.ok ? 200 : 503,
          json: {
            ok: report.ok,
            network: config.network,
            gossip_channels: await gossipChannels(),
            checks: report.checks,
            ...(report.ok ? {} : { failing: report.failing }),
          },
        };
      },
    ],
    ["GET", /^\/metrics$/, async () => ({ text: await metrics.render() })],
    [
      "GET",
      /^\/\.well-known\/wallet-services\.json$/,
      () => ({
        json: {
          network: config.network,
          relays: config.relays,
          nwc_relay: config.nwcRelay ?? config.relays[0],
          ...(config.blossomUrl ? { blossom: config.blossomUrl } : {}),
          ...(config.priceFeedUrl ? { price_feed: config.priceFeedUrl } : {}),
        },
      }),
    ],
    ...storage.routes,
    [
      "GET",
      /^\/rgs\/snapshot\/(\d{1,10})$/,
      // `?parts`: the same snapshot in parts (LDK's own client asks without it and reads the whole).
      async (m, _body, _headers, query) => ({
        bytes: Buffer.from(
          (await rgs.snapshot(Number(m[1]), query?.has("parts") ? RGS_PART_PIECES : undefined)).bytes,
        ),
      }),
    ],
    ...hermes.routes,
    ...(plus?.routes ?? []),
    ...feedback.routes,
    ...tower.routes,
    ...profiles.routes,
    // Only the upstream API's own paths (services/pass-through.ts).
    ...passThrough("/esplora", config.esploraUrl, "Esplora", ESPLORA_PATHS),
    ...(config.lspUrl ? passThrough("/lsp", config.lspUrl, "LSP", LSP_PATHS) : []),
  ];
  const limiter = rateLimiter(config.rateLimitScale ?? 1);
  const server = routeServer(routes, {
    admit: (req, route) => {
      if (stopping) return errorAnswer("shutting_down", 503);
      if (limiter.admit(clientOf(req, config.proxy.trustedProxies), route)) return null;
      log.info("rate limited", { route });
      return errorAnswer("rate_limited", 429);
    },
    maxBody: (_method, path) => bodyCapOf(path, MAX_BODY_BYTES),
    onAnswer: (a) => {
      metrics.request(a.route, a.method, a.status, a.ms / 1000);
      log.info("request", { method: a.method, route: a.route, status: a.status, ms: Math.round(a.ms) });
    },
    onFailure: (e, route) => {
      const down = isDatabaseDown(e);
      if (down) metrics.databaseError();
      log.error("request failed", { route, error: describeError(e) });
      return down ? errorAnswer("database_unavailable", 503) : errorAnswer("internal", 500);
    },
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  // An idle connection is kept longer than a client or a front reuses one (nginx's upstream keepalive is
  // 60 s): with Node's 5 s, a busy process whose timers ran late closed a connection the client had just
  // sent on, and the request failed with "other side closed" (1 in 1,000 at 5,000 wallets).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const proxy = attachProxy(server, config.proxy);
  metrics.gauge({
    name: "services_proxy_sockets_open",
    help: "Proxied lightning sockets open.",
    read: proxy.open,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch((e) => {
    throw new StartProblem(`could not listen on ${config.host}:${config.port}: ${describeError(e)}`);
  });
  const { port } = server.address() as AddressInfo;
  // The first look at everything, then one every MONITOR_MS: each change of state is a line in the log.
  void health.run();
  const monitor = setInterval(() => void health.run(), MONITOR_MS);
  monitor.unref();
  let stopped: Promise<void> | null = null;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    server,
    db: storage.db,
    health: health.run,
    stop: () => {
      stopped ??= (async () => {
        // Draining: no new connection is taken, a request on a kept-alive one is answered "restarting",
        // the proxied sockets are closed as going away (their wallets dial again, to another process or this
        // one's successor), requests under way get DRAIN_MS to finish; then everything is cut.
        stopping = true;
        clearInterval(monitor);
        clearInterval(observing);
        limiter.stop();
        clearTimeout(gossipRetry);
        const open = proxy.open();
        const closed = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        await Promise.race([Promise.all([proxy.close(), closed]), sleep(DRAIN_MS)]);
        server.closeAllConnections();
        log.info("drained", { proxied_sockets_closed: open });
        hermes.stop();
        plus?.stop();
        tower.stop();
        profiles.stop();
        await Promise.race([gossip?.stop(), sleep(PART_STOP_MS)]);
        await Promise.race([storage.stop(), sleep(PART_STOP_MS)]);
      })();
      return stopped;
    },
  };
};

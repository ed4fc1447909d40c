/**
 * The wallet's own services as one process (`npm run services`, configured by environment variables, see
 * docs/deploy.md): on one HTTP port, what the local world serves the wallet, without the chain and the
 * test-only endpoints.
 *
 *   ws  /v1/<host>/<port>     the WebSocket-to-TCP proxy to lightning peers (services/proxy.ts)
 *   POST /storage/<call>      the versioned storage server (harness/storage), state in the database
 *   GET  /rgs/snapshot/<t>    rapid gossip sync from the gossip node's graph (services/gossip-node.ts)
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
 *   GET  /health              {ok, network, gossip_channels} (the public channels the gossip node knows)
 *
 * Every process on one PostgreSQL (`DATABASE_URL`) serves the same wallets; without it the embedded
 * database (PGlite, in memory) keeps the state for this process only.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Network } from "../src/events/types";
import { startFeedback } from "../harness/feedback";
import { RgsServer } from "../harness/gossip";
import { startHermes } from "../harness/hermes";
import type { SqlDb } from "../harness/storage/db";
import { startStorage } from "../harness/storage/service";
import { CHAIN_HASHES, type GossipNode, startGossipNode } from "./gossip-node";
import { sqlNameBook } from "./hermes-names";
import { type PlusConfig, startServicesPlus } from "./plus";
import { startProfileCache } from "./profiles";
import { type RouteTable, routeServer } from "./http";
import { ESPLORA_PATHS, LSP_PATHS, passThrough } from "./pass-through";
import { attachProxy, type ProxyPolicy } from "./proxy";
import { servicesTables } from "./tables";
import { startTower } from "./tower/tower";

export interface ServicesConfig {
  readonly port: number;
  readonly host: string;
  readonly network: Network;
  /** PostgreSQL; the embedded database when absent. */
  readonly databaseUrl?: string;
  /** The Esplora API the gossip node and `/esplora` use. */
  readonly esploraUrl: string;
  /** The LSP whose HTTP API `/lsp` passes on (the wallet then dials its node through the proxy); none: no `/lsp`. */
  readonly lspUrl?: string;
  readonly proxy: ProxyPolicy;
  /** Nostr relays: the first carries the lightning-address service's messages to members. */
  readonly relays: readonly string[];
  /** Peers the gossip node takes the network's gossip from (`pubkey@host:port`); none: no gossip node. */
  readonly gossipPeers: readonly string[];
  /** The lightning-address service's nostr key (hex), the same on every process. */
  readonly hermesSecret: Uint8Array;
  /** Plus: the operator's wallet-connect URI and the plans; none: Plus is not sold here. */
  readonly plus?: PlusConfig;
}

export interface RunningServices {
  readonly url: string;
  readonly server: Server;
  /** The database the services keep their state in. */
  readonly db: () => Promise<SqlDb>;
  readonly stop: () => Promise<void>;
}

export const startServices = async (config: ServicesConfig): Promise<RunningServices> => {
  const storage = startStorage(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {});
  // The database opens at start: a misconfigured DATABASE_URL stops the process here, not at a first request.
  await storage.db();
  const tables = servicesTables(storage.db);
  await tables.open();
  const rgs = new RgsServer(undefined, CHAIN_HASHES[config.network]);
  let gossip: GossipNode | null = null;
  if (config.gossipPeers.length > 0) {
    gossip = await startGossipNode({
      network: config.network,
      esploraUrl: config.esploraUrl,
      peers: config.gossipPeers,
    });
    const node = gossip.node;
    rgs.source = () => node.graphChannels();
  }
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
  const routes: RouteTable = [
    [
      "GET",
      /^\/health$/,
      () => ({
        json: {
          ok: true,
          network: config.network,
          gossip_channels: gossip?.node.graphChannels().length ?? 0,
        },
      }),
    ],
    ...storage.routes,
    ...rgs.routes({ operatorView: false }),
    ...hermes.routes,
    ...(plus?.routes ?? []),
    ...feedback.routes,
    ...tower.routes,
    ...profiles.routes,
    // Only the upstream API's own paths (services/pass-through.ts).
    ...passThrough("/esplora", config.esploraUrl, "Esplora", ESPLORA_PATHS),
    ...(config.lspUrl ? passThrough("/lsp", config.lspUrl, "LSP", LSP_PATHS) : []),
  ];
  const server = routeServer(routes);
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  attachProxy(server, config.proxy);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | null = null;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    server,
    db: storage.db,
    stop: () => {
      stopped ??= (async () => {
        hermes.stop();
        plus?.stop();
        tower.stop();
        profiles.stop();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
        await gossip?.stop();
        await storage.stop();
      })();
      return stopped;
    },
  };
};

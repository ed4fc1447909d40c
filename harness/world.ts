/**
 * The local regtest world as a library: tests start their own on a free port and stop it when done.
 *
 *   const h = await startHarness({ port: 0 });
 *   await h.faucet(address, 100_000n); await h.mine(1); ... await h.stop();
 */
import type { Server } from "node:http";
import { generateSecretKey } from "nostr-tools/pure";
import { type CashuWorld, startCashuWorld } from "./cashu/service";
import { hostileRgsRoutes } from "./hostile-rgs";
import { Hostility, hostileRoutes } from "./hostile";
import { attachChaos } from "./chaos";
import { attachProxy, type HarnessNode, lightningRoutes, startLightningNode } from "./lightning";
import { portOf, type RouteTable, serve } from "./server";
import { World } from "./regtest";
import { startLnurlAuth } from "./lnurl-auth";
import { type LnurlService, lnurlRoutes, startLnurlService } from "./lnurl";
import { type ChannelWith, type Lsp, type LspFeeParams, startLsp, startWithChannel } from "./lsp";
import { type Lsps2Service, startLsps2 } from "./lsps2";
import { type NostrWorld, startNostr } from "./nostr/world";
import { type FeedbackService, startFeedback } from "../services/feedback/feedback";
import { RgsServer } from "./gossip";
import { type Network, networkRoutes, startNetwork } from "./network";
import { type OperatorWallet, operatorWalletRoutes, startOperatorWallet } from "./operator-wallet";
import { type PlusService, startPlus } from "./plus";
import { type HermesService, startHermes } from "../services/hermes/hermes";
import { type StorageService, startStorage } from "../services/storage/service";
import { startTower, type Tower } from "../services/tower/tower";
import { lyingStorage } from "./storage-lies";

import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { DEFAULT_ESPLORA_PORT } from "./ports";

export { DEFAULT_ESPLORA_PORT };

export interface Harness {
  /** Base URL of the Esplora API, e.g. `http://127.0.0.1:3002` (no trailing slash). */
  readonly esploraUrl: string;
  readonly port: number;
  /** The faucet's own `bcrt1` address (it receives block rewards). */
  readonly faucetAddress: string;
  /** Pays `sats` to `address` (mempool, unconfirmed); answers the txid. */
  readonly faucet: (address: string, sats: bigint) => Promise<string>;
  /** Mines `n` blocks with the mempool's transactions; answers their hashes. */
  readonly mine: (n?: number, address?: string) => Promise<string[]>;
  /** Replaces the last `depth` blocks by `depth + 1` empty ones; their transactions return to the mempool. */
  readonly reorg: (depth?: number) => Promise<string[]>;
  /** Replaces a faucet payment still in the mempool by a higher-fee one paying the faucet back. */
  readonly replace: (txid: string) => Promise<string>;
  readonly tipHeight: () => number;
  /** Resolves once the world knows the transaction (mempool or chain); rejects after `timeoutMs`. */
  readonly waitForTx: (txid: string, timeoutMs?: number) => Promise<void>;
  /** A signed, unbroadcast transaction paying `sats` to `script` from the faucet (to fund a channel). */
  readonly fundingTx: (script: Uint8Array, sats: bigint) => Promise<Uint8Array>;
  /** The world's lightning node (the wallet's LSP and counterparty). */
  readonly lightning: HarnessNode;
  /** `ws://host:port`: the WebSocket-to-TCP proxy for reaching lightning nodes from a browser. */
  readonly proxyUrl: string;
  /** The world's LSP service (just-in-time channels, `POST /api/v1/fee` and `/api/v1/proposal`). */
  readonly lsp: Lsp;
  /**
   * The world's LSPS2 (bLIP-52) service on the same node: its connection string (`pubkey@host:port`),
   * token, fee menu and a greedy switch.
   */
  readonly lsps2: Lsps2Service;
  /** A second node with a confirmed channel to the world's node: pays invoices routed through it. */
  readonly payer: () => Promise<HarnessNode>;
  /** Starts one more plain lightning node (for routes over several hops). */
  readonly startNode: () => Promise<HarnessNode>;
  /**
   * Starts one more node behind a private channel the world's node opens to it (300,000 sats, 100,000 of
   * them on its side), usable: a payee two hops from the wallet, its route through the world's node.
   */
  readonly startPayee: () => Promise<HarnessNode>;
  /** A new LNURL-auth login request (URL, bech32 LNURL, challenge) of the world's login service. */
  readonly lnurlAuthUrl: (action?: string) => { url: string; lnurl: string; k1: string };
  /** The linking key that logged in with challenge `k1` at the login service, or null. */
  readonly lnurlAuthLogin: (k1: string) => string | null;
  /** LNURL-pay, lightning addresses and LNURL-withdraw, paid and paying through the world's node. */
  readonly lnurl: LnurlService;
  /**
   * The world's two Cashu mints (`/cashu` and `/cashu2` on this server): their URLs, the mints themselves,
   * and the end-of-service date they announce (see `harness/cashu/`).
   */
  readonly cashu: CashuWorld;
  /** Hostile modes per service and scope (also `POST /hostile`): see `harness/hostile.ts`. */
  readonly hostility: Hostility;
  /** The Esplora API (and price feed) that answers as `scope`'s hostile mode says. */
  readonly hostileEsploraUrl: (scope: string) => string;
  /**
   * Nostr on the same server (see `harness/nostr/`): the relay (`ws://…/nostr`), the social-profile cache
   * service (`/primal`), the Blossom server (`/blossom`), the seeded people and `seed()` for more.
   */
  readonly nostr: NostrWorld;
  /** The feedback endpoint (`POST /v1/feedback`, multipart) and what it received (`GET /v1/feedback`). */
  readonly feedback: FeedbackService;
  /** The membership (Plus) service under `/plus`: plans, subscribe, renewals through wallet-connect. */
  readonly plus: PlusService;
  /** The lightning-address service (Plus members' name@host, invoices from their own wallets). */
  readonly hermes: HermesService;
  /**
   * The rapid gossip sync server (`GET /rgs/snapshot/<timestamp>`, the wallet's `rgs` setting) and the log
   * of what was asked of it (`GET /rgs/requests`); it serves the network's gossip once the network runs.
   */
  readonly rgs: RgsServer;
  /**
   * The lightning network around the LSP (six routing nodes with public channels, see network.ts), started
   * on first use (or at start with `network: true`): later calls answer the same network.
   */
  readonly network: () => Promise<Network>;
  /**
   * The versioned storage server under `/storage` (LDK's VSS API; see `harness/storage/`): `storageUrl` is
   * the wallet's `storage` setting. Its database starts on first use, on `DATABASE_URL` if set.
   */
  readonly storage: StorageService;
  readonly storageUrl: string;
  /**
   * The watchtower of the wallet's services under `/tower` (services/tower/), on the storage server's
   * database; `towerUrl` is the wallet's `tower` setting. It watches the chain from its first appointment.
   */
  readonly tower: Tower;
  readonly towerUrl: string;
  readonly stop: () => Promise<void>;
}

export interface HarnessOptions {
  readonly port?: number;
  readonly host?: string;
  /** Fixed ports for the lightning node (for `npm start`); free ones by default. */
  readonly lightningTcpPort?: number;
  readonly lightningWsPort?: number;
  /** A fixed port for the LNURL service (lightning addresses stay the same across restarts); free by default. */
  readonly lnurlPort?: number;
  readonly lspFees?: Partial<LspFeeParams>;
  /** Starts the lightning network around the LSP at once (`npm start`); otherwise on first use. */
  readonly network?: boolean;
}

export const startHarness = async (opts: HarnessOptions = {}): Promise<Harness> => {
  const world = await World.start();
  const host = opts.host ?? "127.0.0.1";
  const hostility = new Hostility();
  const rgs = new RgsServer();
  const extra: RouteTable = [
    ...hostileRoutes(hostility),
    ...rgs.routes(),
    ...hostileRgsRoutes(rgs, hostility),
  ];
  let server: Server;
  try {
    server = await serve(world, opts.port ?? DEFAULT_ESPLORA_PORT, host, extra, hostility);
  } catch (e) {
    await world.stop();
    throw e;
  }
  const port = portOf(server);
  const esploraUrl = `http://${host}:${port}`;
  attachProxy(server);
  extra.push(...attachChaos(server, port));
  const extraNodes: HarnessNode[] = [];
  const lightning = await startLightningNode(world, {
    esploraUrl,
    host,
    ...(opts.lightningTcpPort !== undefined ? { tcpPort: opts.lightningTcpPort } : {}),
    ...(opts.lightningWsPort !== undefined ? { wsPort: opts.lightningWsPort } : {}),
  });
  const lsp = startLsp(lightning, opts.lspFees);
  const startNode = async () => {
    const n = await startLightningNode(world, { esploraUrl, host });
    extraNodes.push(n);
    return n;
  };
  const startWith = (channel: ChannelWith) =>
    startWithChannel(
      lightning,
      startNode,
      (n) => world.mine(n),
      (txid) => waitForTx(txid),
      channel,
    );
  // The LSP's own invoices (just-in-time ones) are paid by a second node with a channel to it.
  let payer: Promise<HarnessNode> | null = null;
  const payerNode = () => {
    payer ??= startWith({ byLsp: false, sats: 5_000_000n, pushMsat: 0n });
    payer.catch(() => {
      payer = null;
    });
    return payer;
  };
  let network: Promise<Network> | null = null;
  const networkOnce = () => {
    network ??= startNetwork({
      world,
      esploraUrl,
      host,
      lsp: lightning,
      mine: (n) => world.mine(n),
      waitForTx: (txid) => waitForTx(txid),
    }).then((n) => {
      rgs.source = n.graph;
      return n;
    });
    network.catch(() => {
      network = null;
    });
    return network;
  };
  extra.push(...networkRoutes(networkOnce));
  const lsps2 = startLsps2(lightning);
  extra.push(...lsp.routes, ...lsps2.routes, ...lightningRoutes(lightning, payerNode));
  const lnurlAuth = await startLnurlAuth({ host });
  // The LNURL service's nostr key, which signs its zap receipts (NIP-57).
  const zapSecret = generateSecretKey();
  let nostr: ReturnType<typeof startNostr> | null = null;
  const lnurl = await startLnurlService(
    {
      createInvoice: async (msat, descriptionHash) =>
        lightning.node.createInvoice(msat, { hash: descriptionHash }).bolt11,
      preimageOf: (bolt11) => lightning.node.preimageOf(bolt11),
      zaps: {
        secret: zapSecret,
        whenPaid: async (hash) => {
          await lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash, 3_600_000);
        },
        publish: (receipt) => void nostr?.relay.publish(receipt),
      },
      payInvoice: async (bolt11) => {
        await channelRoomFor(bolt11);
        const r = await lightning.node.payInvoice(bolt11, 1_000_000n);
        if (r.status !== "succeeded")
          throw new Error(`The payment ${r.status === "failed" ? r.reason : r.status}`);
      },
    },
    { host, hostility, ...(opts.lnurlPort !== undefined ? { port: opts.lnurlPort } : {}) },
  );
  extra.push(...lnurlRoutes(lnurl));
  /**
   * A withdraw service pays once its channel to the payee has room: right after other payments on that
   * channel, their settling can hold the balance for a moment (longer on a busy machine).
   */
  async function channelRoomFor(bolt11: string): Promise<void> {
    const invoice = decodeBolt11(bolt11);
    if (!invoice || invoice.amountMsat === null) return;
    const amountSats = (invoice.amountMsat + 999n) / 1000n;
    const direct = () => lightning.node.channels().filter((c) => c.peer === invoice.payeePubkey);
    const end = Date.now() + 30_000;
    while (direct().length > 0 && Date.now() < end) {
      if (direct().some((c) => c.isUsable && c.outboundSats >= amountSats)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  nostr = startNostr(server, esploraUrl, { lnurl, hostility, zapSecret });
  const cashu = startCashuWorld(esploraUrl, lightning, payerNode, hostility);
  extra.push(...cashu.routes);
  const feedback = startFeedback();
  extra.push(...feedback.routes);
  const plus = startPlus(lightning);
  extra.push(...plus.routes);
  const hermes = startHermes(plus, { relayUrl: nostr.relayUrl });
  extra.push(...hermes.routes);
  let operator: OperatorWallet | null = null;
  extra.push(
    ...operatorWalletRoutes(async () => {
      operator = await startOperatorWallet(lightning, nostr.relayUrl);
      return operator;
    }),
  );
  const databaseUrl = process.env.DATABASE_URL;
  const storage = startStorage(databaseUrl ? { databaseUrl } : {});
  extra.push(...storage.routes, ...lyingStorage(storage, hostility).routes);
  // The services' watchtower, on the storage server's database, watching this chain (services/tower/).
  const tower = startTower({ db: storage.db, esploraUrl, pollMs: 250 });
  extra.push(...tower.routes);
  async function waitForTx(txid: string, timeoutMs = 10_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!world.tx(txid)) {
      if (Date.now() > end) throw new Error(`The world never saw ${txid}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  let stopped: Promise<void> | null = null;
  if (opts.network) await networkOnce();
  return {
    esploraUrl,
    port,
    faucetAddress: world.faucetAddress,
    faucet: (address, sats) => world.faucet(address, sats),
    mine: (n = 1, address) => world.mine(n, address),
    reorg: (depth = 1) => world.reorg(depth),
    replace: (txid) => world.replace(txid),
    tipHeight: () => world.tip.height,
    waitForTx,
    fundingTx: async (script, sats) => new Uint8Array(await world.fundingTx(script, sats)),
    lightning,
    lsp,
    lsps2,
    payer: payerNode,
    proxyUrl: `ws://${host}:${port}`,
    startNode,
    startPayee: () => startWith({ byLsp: true, sats: 300_000n, pushMsat: 100_000_000n }),
    lnurlAuthUrl: (action) => lnurlAuth.newLogin(action),
    lnurlAuthLogin: (k1) => lnurlAuth.loginOf(k1),
    lnurl,
    cashu,
    hostility,
    hostileEsploraUrl: (scope) => `${esploraUrl}/hostile/${scope}`,
    nostr,
    feedback,
    plus,
    hermes,
    rgs,
    network: networkOnce,
    storage,
    storageUrl: `${esploraUrl}/storage`,
    tower,
    towerUrl: `${esploraUrl}/tower`,
    stop: () => {
      nostr.stop();
      cashu.stop();
      plus.stop();
      operator?.stop();
      hermes.stop();
      stopped ??= Promise.all([
        ...[lightning, ...extraNodes, lnurlAuth, lnurl].map((n) => n.stop()),
        network?.then((n) => n.stop()).catch(() => undefined),
      ])
        .then(
          () =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        )
        .then(() => tower.stop())
        .then(() => storage.stop())
        .then(() => world.stop());
      return stopped;
    },
  };
};

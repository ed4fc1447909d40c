/**
 * A wallet host against the local world, as the worker builds one, for tests of commands that need the
 * real engines: on-chain on the world's Esplora, lightning on LDK with peers through the world's proxy; and
 * the nostr engine alone on the world's nostr services.
 */
import { beforeAll } from "vitest";
import { postJson } from "../../../harness/http";
import { type Link, linkUpTo } from "../../../harness/link";
import { DEFAULT_LSPS_TOKEN } from "../../../harness/lsps2";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import { loadLdk, nodeWebSocket } from "../../../services/gossip/pipes";
import { nostrEngine } from "../../engine/nostr/engine";
import type { Platform } from "../../engine/engine";
import { lightningEngine } from "../../engine/lightning/engine";
import { nwcEngine } from "../../engine/nwc/engine";
import { onchainEngine } from "../../engine/onchain/engine";
import type { WalletDb } from "../../events/db";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import type { Command } from "../command";
import { WalletHost } from "./host";
import type { HostDeps } from "./open";
import type { AllViews } from "../../projections/live";
import { DEFAULT_SERVERS, type Servers, type WalletConfig } from "../../config";
import { offlineConfig, ok, testCipher } from "../offline.testing";

export { ok, testCipher };

/** The engines in Node: the global fetch, `ws` sockets, LDK's wasm read from disk. */
export const nodePlatform: Platform = {
  fetch: (i, init) => fetch(i, init),
  makeSocket: nodeWebSocket,
  loadLdk,
};

/** Regtest on the Esplora server at `esplora` alone: no proxy, LSP or price source. */
export const chainOnlyConfig = (esplora: string) =>
  ({ network: "regtest", esplora, priceSource: "", proxy: null, lsp: null }) satisfies WalletConfig;

/** Regtest on the world `h`: its Esplora (also the wallet's LSP, over HTTP) and its proxy; no price source. */
export const worldLspConfig = (h: Harness) =>
  ({ ...chainOnlyConfig(h.esploraUrl), proxy: h.proxyUrl, lsp: h.esploraUrl }) satisfies WalletConfig;

/**
 * `worldLspConfig` with the wallet's servers as `servers` says, over the regtest defaults with the world's
 * Esplora and proxy.
 */
export const worldServersConfig = (h: Harness, servers: Partial<Servers>): WalletConfig => ({
  ...worldLspConfig(h),
  servers: { ...DEFAULT_SERVERS.regtest, esplora: h.esploraUrl, proxy: h.proxyUrl, ...servers },
});

/** `worldLspConfig` with the storage server at `storage` and no gossip server. */
export const worldStorageConfig = (h: Harness, storage: string): WalletConfig =>
  worldServersConfig(h, { lsp: h.esploraUrl, rgs: "", storage });

/** The world's LSPS2 LSP as the wallet's lightning service, over the lightning connection only; no storage. */
export const worldLsps2Config = (h: Harness): WalletConfig => ({
  ...worldServersConfig(h, {
    lsp: "",
    storage: "",
    lsps_connection_string: h.lsps2.connectionString,
    lsps_token: DEFAULT_LSPS_TOKEN,
  }),
  lsp: null,
});

/** `openWorldHost`, then a new wallet created on it and its lightning node loaded. */
export const openNewWorldWallet = async (...args: Parameters<typeof openWorldHost>): Promise<WalletHost> => {
  const host = await openWorldHost(...args);
  ok(await host.run({ _tag: "CreateWallet" }));
  await host.whenLightning();
  return host;
};

/**
 * A fresh world and a new wallet's host on it, lightning loaded, on the config `configOf` makes of the world
 * (the world stopped again if the wallet does not open).
 */
export const startWorldWallet = async (
  db: WalletDb,
  configOf: (h: Harness) => WalletConfig,
  onViews: (views: Partial<AllViews>) => void,
): Promise<{ h: Harness; config: WalletConfig; host: WalletHost }> => {
  const h = await startHarness({ port: 0 });
  const config = configOf(h);
  try {
    return { h, config, host: await openNewWorldWallet(db, config, onViews) };
  } catch (e) {
    await h.stop();
    throw e;
  }
};

/** A test file's wallet on its world as it is now: the world, the config, the host and the views it pushed. */
export interface WorldWallet {
  readonly h: Harness;
  readonly config: WalletConfig;
  readonly host: WalletHost;
  readonly views: Partial<AllViews>;
}

/**
 * `startWorldWallet` for one test file: before its tests, on `db`; the host and the world stopped after them. `onChange` hears the wallet once it has started, and again at each push of its views.
 */
export const worldWalletForTests = (
  db: WalletDb,
  configOf: (h: Harness) => WalletConfig,
  onChange: (wallet: WorldWallet) => void,
): void => {
  let wallet: WorldWallet | undefined;
  let views: Partial<AllViews> = {};
  beforeAll(async () => {
    const started = await startWorldWallet(db, configOf, (v) => {
      views = { ...views, ...v };
      if (wallet) {
        wallet = { ...wallet, views };
        onChange(wallet);
      }
    });
    views = started.host.views();
    wallet = { ...started, views };
    onChange(wallet);
  }, 180_000);
  stopAfterAll(() => [wallet?.host, wallet?.h]);
};

/** The world's faucet pays `sats` to a new address of the wallet, in a block the wallet has synced. */
export const fundFromWorld = async (
  h: Pick<Harness, "faucet" | "mine">,
  host: WalletHost,
  sats: bigint,
): Promise<void> => {
  const { address } = ok<{ address: string }>(await host.run({ _tag: "GetNewAddress", labels: [] }));
  await h.faucet(address, sats);
  await h.mine(1);
  ok(await host.run({ _tag: "SyncOnchain" }));
};

/** Mines `n` blocks; the world's LSP and the wallet's on-chain side catch up with them. */
export const mineAndSyncHost = async (h: Harness, host: WalletHost, n: number): Promise<void> => {
  await h.mine(n);
  await h.lightning.node.sync();
  ok(await host.run({ _tag: "SyncOnchain" }));
};

/** Receives `sats` over lightning from the world's node (a just-in-time channel the first time), seen paid. */
export const receiveFromWorld = async (h: Harness, host: WalletHost, sats: bigint): Promise<void> => {
  const shown = ok<{ invoice: string; paymentHash: string }>(
    await host.run({ _tag: "CreateReceive", amountSats: sats, labels: [], flavor: "lightning" }),
  );
  const paid = (await postJson(h.esploraUrl, "/ln/pay", { bolt11: shown.invoice })) as { status: string };
  if (paid.status !== "succeeded") throw new Error(`the world's payment of ${sats} sats: ${paid.status}`);
  await until(
    "received",
    async () =>
      ok<{ paid: string | null }>(
        await host.run({ _tag: "CheckReceived", address: null, paymentHash: shown.paymentHash }),
      ).paid === "lightning_paid",
    60_000,
  );
};

/** Saves a contact through the host (the owner's form, or one found by search with `fromProfile`): its id. */
export const addContact = async (
  host: WalletHost,
  contact: Omit<Extract<Command, { _tag: "CreateContact" }>, "_tag">,
): Promise<string> => ok<{ id: string }>(await host.run({ _tag: "CreateContact", ...contact })).id;

/**
 * A host on `db` in Node, its views pushed to `onViews`: by default with the on-chain, lightning and
 * wallet-connect engines; `engines` says which others run, and on what platform.
 */
export const openWorldHost = (
  db: WalletDb,
  config: WalletConfig,
  onViews: (views: Partial<AllViews>) => void,
  engines: NonNullable<HostDeps["engines"]> = {
    list: [onchainEngine, lightningEngine, nwcEngine],
    platform: nodePlatform,
  },
): Promise<WalletHost> => WalletHost.open({ db, config, cipher: testCipher, onViews, engines });

/** The engines in Node for the nostr engine alone: relays over `ws`, no LDK. */
export const nostrPlatform: Platform = {
  ...nodePlatform,
  loadLdk: async () => undefined,
};

/**
 * The world's nostr services alone (relay, cache service, media server) with a TCP forwarder in front, so a
 * test can take the wallet's way to the relay down and bring it back. Outside clients use `nostr.relayUrl`.
 */
export interface NostrTestWorld {
  readonly nostr: NostrWorld;
  readonly base: string;
  readonly link: Link;
  /** The relay through the forwarder, as the wallet's relay list. */
  readonly viaLink: () => string[];
  /** A wallet config on this world with `relays`. */
  readonly configOf: (relays: readonly string[]) => WalletConfig;
  readonly stop: () => Promise<void>;
}

export const startNostrWorld = async (): Promise<NostrTestWorld> => {
  const world = await serveNostr();
  const link = await linkUpTo(world.base);
  return {
    nostr: world.nostr,
    base: world.base,
    link,
    viaLink: () => [`ws://127.0.0.1:${link.port}/nostr`],
    configOf: (relays) => ({
      ...offlineConfig,
      nostr: { relays: [...relays], primal: `${world.base}/primal`, blossom: `${world.base}/blossom` },
    }),
    stop: async () => {
      await link.down();
      await world.stop();
    },
  };
};

/** A wallet host with the nostr engine only, on `config`. */
export const openNostrHost = (
  db: WalletDb,
  config: WalletConfig,
  opts: {
    onViews?: (views: Partial<AllViews>) => void;
    kdf?: Parameters<typeof WalletHost.open>[0]["kdf"];
  } = {},
): Promise<WalletHost> =>
  WalletHost.open({
    db,
    config,
    cipher: testCipher,
    ...(opts.kdf ? { kdf: opts.kdf } : {}),
    onViews: opts.onViews ?? (() => undefined),
    engines: { list: [nostrEngine], platform: nostrPlatform },
  });

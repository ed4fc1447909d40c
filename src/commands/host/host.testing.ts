/**
 * A wallet host against the local world, as the worker builds one, for tests of commands that need the
 * real engines: on-chain on the world's Esplora, lightning on LDK with peers through the world's proxy; and
 * the nostr engine alone on the world's nostr services.
 */
import { Link } from "../../../harness/link";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import { loadLdk, nodeWebSocket } from "../../../services/gossip/pipes";
import { nostrEngine } from "../../engine/nostr/engine";
import type { Platform } from "../../engine/engine";
import { lightningEngine } from "../../engine/lightning/engine";
import { nwcEngine } from "../../engine/nwc/engine";
import { onchainEngine } from "../../engine/onchain/engine";
import type { WalletDb } from "../../events/db";
import type { Harness } from "../../../harness/world";
import type { Command } from "../command";
import { WalletHost } from "./host";
import type { HostDeps } from "./open";
import type { AllViews } from "../../projections/live";
import { DEFAULT_SERVERS, type WalletConfig } from "../../config";
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

/** `worldLspConfig` with the storage server at `storage` and no gossip server. */
export const worldStorageConfig = (h: Harness, storage: string): WalletConfig => ({
  ...worldLspConfig(h),
  servers: {
    ...DEFAULT_SERVERS.regtest,
    esplora: h.esploraUrl,
    proxy: h.proxyUrl,
    lsp: h.esploraUrl,
    rgs: "",
    storage,
  },
});

/** `openWorldHost`, then a new wallet created on it and its lightning node loaded. */
export const openNewWorldWallet = async (...args: Parameters<typeof openWorldHost>): Promise<WalletHost> => {
  const host = await openWorldHost(...args);
  ok(await host.run({ _tag: "CreateWallet" }));
  await host.whenLightning();
  return host;
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
  const link = new Link(Number(new URL(world.base).port));
  await link.up();
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

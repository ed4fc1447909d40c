/**
 * A wallet host against the local world, as the worker builds one, for tests of commands that need the
 * real engines: on-chain on the world's Esplora, lightning on LDK with peers through the world's proxy; and
 * the nostr engine alone on the world's nostr services.
 */
import { Link } from "../../harness/link";
import { serveNostr } from "../../harness/nostr/standalone";
import type { NostrWorld } from "../../harness/nostr/world";
import { loadLdk, nodeWebSocket } from "../../harness/pipes";
import { nostrEngine } from "../engine/nostr/engine";
import type { Platform } from "../engine/engine";
import { lightningEngine } from "../engine/lightning/engine";
import { nwcEngine } from "../engine/nwc/engine";
import { onchainEngine } from "../engine/onchain/engine";
import type { WalletDb } from "../events/db";
import { type CommandAnswer, WalletHost } from "./host";
import type { AllViews } from "../projections/live";
import type { WalletConfig } from "../config";
import { makeStateCipher } from "./state-cipher";

/** The engines in Node: the global fetch, `ws` sockets, LDK's wasm read from disk. */
export const nodePlatform: Platform = {
  fetch: (i, init) => fetch(i, init),
  makeSocket: nodeWebSocket,
  loadLdk,
};

/** A cheap key stretch: these tests are not about the password. */
export const testCipher = makeStateCipher({ iterations: 1000, allowWeak: true });

/** The answer's value, or the error thrown with its tag. */
export const ok = <T = unknown>(a: CommandAnswer): T => {
  if (!a.ok) throw new Error(`${a.error._tag}: ${a.error.message}`);
  return a.value as T;
};

export const openWorldHost = (
  db: WalletDb,
  config: WalletConfig,
  onViews: (views: Partial<AllViews>) => void,
): Promise<WalletHost> =>
  WalletHost.open({
    db,
    config,
    cipher: testCipher,
    onViews,
    engines: { list: [onchainEngine, lightningEngine, nwcEngine], platform: nodePlatform },
  });

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
      network: "regtest",
      esplora: "http://127.0.0.1:1",
      proxy: null,
      lsp: null,
      priceSource: "",
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

/**
 * A wallet host against the local world, as the worker builds one, for tests of commands that need the
 * real engines: on-chain on the world's Esplora, lightning on LDK with peers through the world's proxy.
 */
import { loadLdk, nodeWebSocket } from "../../harness/pipes";
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

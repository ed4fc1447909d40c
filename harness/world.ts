/**
 * The local regtest world as a library: tests start their own on a free port and stop it when done.
 *
 *   const h = await startHarness({ port: 0 });
 *   await h.faucet(address, 100_000n); await h.mine(1); ... await h.stop();
 */
import type { Server } from "node:http";
import { portOf, serve } from "./server";
import { World } from "./regtest";

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
  readonly stop: () => Promise<void>;
}

export const startHarness = async (opts: { port?: number; host?: string } = {}): Promise<Harness> => {
  const world = await World.start();
  let server: Server;
  try {
    server = await serve(world, opts.port ?? DEFAULT_ESPLORA_PORT, opts.host ?? "127.0.0.1");
  } catch (e) {
    await world.stop();
    throw e;
  }
  const port = portOf(server);
  let stopped: Promise<void> | null = null;
  return {
    esploraUrl: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    faucetAddress: world.faucetAddress,
    faucet: (address, sats) => world.faucet(address, sats),
    mine: (n = 1, address) => world.mine(n, address),
    reorg: (depth = 1) => world.reorg(depth),
    replace: (txid) => world.replace(txid),
    tipHeight: () => world.tip.height,
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }).then(() => world.stop());
      return stopped;
    },
  };
};

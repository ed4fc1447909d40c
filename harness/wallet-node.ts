/**
 * A lightning node in the wallet's role on the world's chain and peers, as tests and benches start one:
 * the world's Esplora, its proxy to reach peers, its faucet to fund channels, and a fixed sweep script.
 * Any other option of `LightningNode.start` may be given and wins.
 */
import { EsploraChain } from "../src/engine/lightning/chain";
import { LightningNode } from "../src/engine/lightning/node";
import type { NodeOptions } from "../src/engine/lightning/node-types";
import { openWebSocketPipe, peerSocketUrl } from "../src/engine/lightning/socket";
import { makeEsplora } from "../src/engine/onchain/esplora";
import { nodeWebSocket } from "./pipes";
import type { Harness } from "./world";

/** Where a wallet node's swept funds go: a fixed P2WPKH script whose 20-byte hash is `fill` repeated. */
export const sweepScriptOf = (fill: number) => new Uint8Array([0x00, 0x14, ...new Uint8Array(20).fill(fill)]);

export const startWalletNode = (
  world: Pick<Harness, "esploraUrl" | "proxyUrl" | "fundingTx">,
  opts: Pick<NodeOptions, "seed" | "store" | "onEvent"> &
    Partial<NodeOptions> & {
      /** How the node's chain source reaches the world's Esplora (to watch what it asks, say). */
      readonly fetch?: typeof fetch;
    },
): Promise<LightningNode> => {
  const { fetch: fetchVia = (input, init) => fetch(input, init), ...options } = opts;
  return LightningNode.start({
    network: "regtest",
    chain: new EsploraChain(makeEsplora(world.esploraUrl, fetchVia), () => {}),
    log: () => {},
    role: "wallet",
    connect: (peer) => openWebSocketPipe(peerSocketUrl(peer, world.proxyUrl), nodeWebSocket),
    fundChannel: (script, sats) => world.fundingTx(script, sats),
    sweepScript: async () => sweepScriptOf(7),
    ...options,
  });
};

/**
 * A lightning node in the wallet's role on the world's chain and peers, as tests and benches start one:
 * the world's Esplora, its proxy to reach peers, its faucet to fund channels, and a fixed sweep script.
 * Any other option of `LightningNode.start` may be given and wins.
 */
import { EsploraChain } from "../src/engine/lightning/chain";
import { LightningNode } from "../src/engine/lightning/node";
import type { NodeEvent, NodeOptions } from "../src/engine/lightning/node-types";
import { openWebSocketPipe, peerSocketUrl } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { makeEsplora } from "../src/engine/onchain/esplora";
import { nodeWebSocket } from "../services/gossip/pipes";
import { until } from "./until";
import { type Harness, startHarness } from "./world";

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

/**
 * A fresh world and one wallet node on it, as a lightning test file starts them: a random seed and an empty
 * store unless `options` (given the world) says otherwise; every node event is pushed to `events`.
 */
export const startWorldWithNode = async (
  events: NodeEvent[],
  options: (world: Harness) => Partial<Parameters<typeof startWalletNode>[1]> = () => ({}),
): Promise<{ world: Harness; node: LightningNode }> => {
  const world = await startHarness({ port: 0 });
  const node = await startWalletNode(world, {
    seed: crypto.getRandomValues(new Uint8Array(32)),
    store: new MemoryBlobStore(),
    onEvent: (e) => events.push(e),
    ...options(world),
  });
  return { world, node };
};

/**
 * The transaction that spends a channel's funding output `outpoint` (`txid:vout`), once the world has it:
 * blocks mined after this bury the close.
 */
export const closingTransaction = async (
  world: Pick<Harness, "esploraUrl" | "waitForTx">,
  outpoint: string,
): Promise<string> => {
  const [fundingTxid = "", vout] = outpoint.split(":");
  const esplora = makeEsplora(world.esploraUrl, (i, init) => fetch(i, init));
  let closingTxid = "";
  await until(
    "closing transaction broadcast",
    async () => {
      closingTxid = (await esplora.outspend(fundingTxid, Number(vout)))?.txid ?? "";
      return closingTxid !== "";
    },
    60_000,
    100,
  );
  await world.waitForTx(closingTxid);
  return closingTxid;
};

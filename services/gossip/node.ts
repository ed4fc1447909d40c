/**
 * The services' rapid gossip sync source: an LDK node that opens no channels and only takes the network's
 * gossip (`P2PGossipSync`) from the peers it is told (`GOSSIP_PEERS`, `pubkey@host:port`), reconnecting as a
 * node does; its graph is what the RGS server serves (harness/gossip.ts, harness/rgs.ts).
 */
import type { Network } from "../../src/events/types";
import { EsploraChain } from "../../src/engine/lightning/chain";
import { LightningNode } from "../../src/engine/lightning/node";
import { parsePeerAddress } from "../../src/engine/lightning/socket";
import { MemoryBlobStore } from "../../src/engine/lightning/store";
import { makeEsplora } from "../../src/engine/onchain/esplora";
import { dialTcp, loadLdk } from "./pipes";

/** Each network's genesis block hash in internal byte order: the chain hash of its gossip messages. */
export const CHAIN_HASHES: { readonly [N in Network]: string } = {
  bitcoin: "6fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000",
  testnet: "43497fd7f826957108f4a30fd9cec3aeba79972084e90ead01ea330900000000",
  signet: "f61eee3b63a380a477a063af32b2bbc97c9ff9f01f2c4225e973988108000000",
  regtest: "06226e46111a0b59caaf126043eb5bbf28c34f3a5e332a1fc7b2b73cf188910f",
};

export interface GossipNode {
  readonly node: LightningNode;
  readonly stop: () => Promise<void>;
}

export const startGossipNode = async (opts: {
  network: Network;
  esploraUrl: string;
  peers: readonly string[];
  log?: (level: string, message: string) => void;
}): Promise<GossipNode> => {
  const peers = opts.peers.map((p) => {
    const peer = parsePeerAddress(p);
    if (!peer) throw new Error(`GOSSIP_PEERS: ${p} is not pubkey@host:port`);
    return peer;
  });
  await loadLdk();
  const log = opts.log ?? ((level, message) => level === "error" && console.error(`[gossip] ${message}`));
  const client = makeEsplora(opts.esploraUrl, (i, init) => fetch(i, init), { backoffMs: 500 });
  const refuse = () => Promise.reject(new Error("The gossip node opens no channels"));
  const node = await LightningNode.start({
    seed: crypto.getRandomValues(new Uint8Array(32)),
    network: opts.network,
    store: new MemoryBlobStore(),
    chain: new EsploraChain(client, log),
    log,
    role: "router",
    p2pGossip: true,
    connect: (peer) => dialTcp(peer.host, peer.port),
    fundChannel: refuse,
    sweepScript: refuse,
    onEvent: () => {},
  });
  await Promise.all(peers.map((p) => node.connectPeer(p).catch((e) => log("warn", `${p.pubkey}: ${e}`))));
  const sync = setInterval(() => void node.sync().catch(() => undefined), 30_000);
  return {
    node,
    stop: async () => {
      clearInterval(sync);
      await node.stop();
    },
  };
};

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../../harness/world";
import { nodeWebSocket } from "../../../harness/pipes";
import { makeEsplora } from "../onchain/esplora";
import { EsploraChain } from "./chain";
import { LightningNode, type NodeEvent } from "./node";
import { openWebSocketPipe, peerSocketUrl, parsePeerAddress } from "./socket";
import { MemoryBlobStore } from "./store";
import { lightningSeed } from "./seed";

const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

let h: Harness;
const store = new MemoryBlobStore();
const events: NodeEvent[] = [];
let wallet: LightningNode;

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const startWallet = async () => {
  const chain = new EsploraChain(makeEsplora(h.esploraUrl, (i, init) => fetch(i, init)), () => {});
  return LightningNode.start({
    seed: lightningSeed(MNEMONIC),
    network: "regtest",
    store,
    chain,
    log: () => {},
    role: "wallet",
    connect: (peer) => openWebSocketPipe(peerSocketUrl(peer, h.proxyUrl), nodeWebSocket),
    fundChannel: (script, sats) => h.fundingTx(script, sats),
    sweepScript: async () => new Uint8Array([0x00, 0x14, ...new Uint8Array(20).fill(7)]),
    onEvent: (e) => events.push(e),
    paymentTimeoutMs: 20_000,
  });
};

const mineAndSync = async (n: number) => {
  await h.mine(n);
  await wallet.sync();
  await h.lightning.node.sync();
};

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  wallet = await startWallet();
}, 60_000);

afterAll(async () => {
  await wallet?.stop();
  await h?.stop();
});

describe("the wallet's lightning node against the local world", () => {
  it("opens a channel through the WebSocket proxy and pays an invoice", async () => {
    const peer = parsePeerAddress(h.lightning.address);
    if (!peer) throw new Error("bad address");
    await wallet.connectPeer(peer);
    expect(wallet.isConnected(h.lightning.pubkey)).toBe(true);
    wallet.openChannel(h.lightning.pubkey, 200_000n);
    await until("pending", () => events.some((e) => e.type === "channel_pending"));
    await mineAndSync(6);
    await until("usable", () => wallet.channels().some((c) => c.isUsable));
    const { bolt11 } = h.lightning.node.createInvoice(10_000_000n, "coffee");
    const paid = await wallet.payInvoice(bolt11, 100_000n);
    expect(paid.status).toBe("succeeded");
  }, 60_000);
});

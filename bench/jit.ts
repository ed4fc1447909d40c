import { postToLsp, readFeeQuote, readProposal } from "../src/engine/lightning/lsp-http";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { dialTcp, loadLdk } from "../services/gossip/pipes";
import { startWalletNode } from "../harness/wallet-node";
import type { Harness } from "../harness/world";

const RUNS = 5;
const AMOUNT_MSAT = 50_000_000n;

const post = async (world: Harness, path: string, body: unknown) => {
  const r = await fetch(`${world.esploraUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<Record<string, unknown>>;
};

/**
 * Receiving over a just-in-time channel: a new wallet node (no channel) invoices through the world's LSP;
 * timed from the payer sending to the wallet's node claiming the payment (channel open included).
 */
export const benchJitReceive = async (world: Harness) => {
  await loadLdk();
  const lsp = parsePeerAddress(world.lightning.address)!;
  // The payer's channel to the LSP is set up by a first payment outside the timing.
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    let received: (() => void) | null = null;
    const claimed = new Promise<void>((r) => {
      received = r;
    });
    const node = await startWalletNode(world, {
      seed: crypto.getRandomValues(new Uint8Array(32)),
      store: new MemoryBlobStore(),
      connect: (peer) => dialTcp(peer.host, peer.port),
      fundChannel: () => Promise.reject(new Error("the wallet opens no channel here")),
      sweepScript: () => Promise.reject(new Error("nothing to sweep")),
      onEvent: (e) => {
        if (e.type === "payment_received") received?.();
      },
      trustedZeroConfPeer: () => world.lightning.pubkey,
    });
    try {
      await node.connectPeer(lsp);
      const fee = await postToLsp(
        world.esploraUrl,
        fetch,
        "fee",
        { amount_msat: AMOUNT_MSAT.toString(), pubkey: node.nodeId },
        readFeeQuote,
      );
      const own = node.createInvoice(AMOUNT_MSAT - fee.feeMsat, "bench");
      const { jitBolt11: jit_bolt11 } = await postToLsp(
        world.esploraUrl,
        fetch,
        "proposal",
        { bolt11: own.bolt11, fee_id: fee.id },
        readProposal,
      );
      const t0 = performance.now();
      const paying = post(world, "/ln/pay", { bolt11: jit_bolt11 });
      await claimed;
      if (run > 0) times.push(performance.now() - t0);
      await paying;
    } finally {
      await node.stop();
    }
  }
  times.sort((a, b) => a - b);
  console.log(
    `lightning receive over a just-in-time channel (payer sends → wallet paid, channel open included): p50 ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms over ${times.length} runs (min ${times[0]!.toFixed(0)}, max ${times[times.length - 1]!.toFixed(0)})`,
  );
};

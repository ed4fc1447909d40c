/**
 * The node keeps its channel's peer connected by itself, and a payment is refused only for a true reason:
 * against the local world (its LSP node through the WebSocket proxy), no stand-in for either side.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { until } from "../../../harness/until";
import { openUsableChannel, startWalletNode, startWorldWithNode } from "../../../harness/wallet-node";
import type { Harness } from "../../../harness/world";
import type { LightningNode, NodeEvent, PeerStatus } from "./node";
import { CHANNEL_WAIT_MS } from "./policy";
import { lightningSeed } from "./seed";
import { MemoryBlobStore } from "./store";

const MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

let h: Harness;
let wallet: LightningNode;
const events: NodeEvent[] = [];
const store = new MemoryBlobStore();
/** What the node reported of its peers, each time it changed. */
const seen: PeerStatus[][] = [];
const holder: { node: LightningNode | null } = { node: null };
const options = {
  seed: lightningSeed(MNEMONIC),
  store,
  paymentTimeoutMs: 30_000,
  onPeers: () => {
    if (holder.node) seen.push(holder.node.peerStatus());
  },
};

const lsp = () => h.lightning.pubkey;
const stateOf = (s: PeerStatus[]) => s.find((p) => p.pubkey === lsp())?.state ?? null;
const usable = () => wallet.channels().some((c) => c.isUsable);

beforeAll(async () => {
  ({ world: h, node: wallet } = await startWorldWithNode(events, () => options));
  holder.node = wallet;
  await openUsableChannel(h, wallet, events, { opener: "wallet", sats: 200_000n });
}, 240_000);
stopAfterAll(() => [wallet, h]);

describe("the node's connection to its channel's peer", () => {
  it("is dialled as soon as the node is built, while its first chain sync still waits", async () => {
    await wallet.stop();
    holder.node = null;
    // The chain server answers nothing until let go: the start cannot finish its first sync meanwhile.
    let letGo: () => void = () => {};
    const gate = new Promise<void>((r) => {
      letGo = r;
    });
    const starting = startWalletNode(h, {
      ...options,
      onEvent: (e) => events.push(e),
      fetch: async (input, init) => {
        await gate;
        return fetch(input, init);
      },
    });
    try {
      await until("the LSP sees the wallet connected", () =>
        h.lightning.node.peers().some((p) => p.pubkey === wallet.nodeId && p.connected),
      );
    } finally {
      letGo();
    }
    wallet = await starting;
    holder.node = wallet;
    await until("usable after the start", usable);
  }, 120_000);

  it("redials at once when the socket closes, saying it is connecting meanwhile", async () => {
    await until("connected", () => stateOf(wallet.peerStatus()) === "connected");
    const from = seen.length;
    // The LSP's side drops the connection, as a proxy or a network going away does.
    h.lightning.node.disconnectPeer(wallet.nodeId);
    await until("dropped and back", () => {
      const states = seen.slice(from).map(stateOf);
      const dropped = states.indexOf("connecting");
      return dropped >= 0 && states.slice(dropped).includes("connected");
    });
    await until("usable again", usable);
    expect(wallet.peerStatus().find((p) => p.pubkey === lsp())).toMatchObject({ state: "connected" });
  }, 60_000);

  it("refuses a payment whose channel is connecting as such (not as a missing balance), then pays once it is back", async () => {
    const { bolt11 } = h.lightning.node.createInvoice(20_000_000n, "while connecting");
    wallet.disconnectPeer(lsp());
    expect(wallet.refusal(20_000_000n)).toMatchObject({ reason: "peer_offline", peer: lsp() });
    await wallet.whenConnected(20_000_000n, CHANNEL_WAIT_MS);
    expect(wallet.refusal(20_000_000n)).toBeNull();
    expect((await wallet.payInvoice(bolt11, 100_000n)).status).toBe("succeeded");
  }, 60_000);

  it("names the partner's limit, the reserve and a real shortfall for what it cannot send", async () => {
    await until("usable", usable);
    const c = wallet.channels().find((x) => x.isUsable)!;
    expect(c.reserveSats).toBeGreaterThan(0n);
    const msat = (sats: bigint) => sats * 1000n;
    // All of the balance above the reserve: the commitment fee the opener keeps back makes it too much for
    // one payment now, though the balance is there.
    const whole = wallet.refusal(msat(c.outboundSats));
    expect(whole).toMatchObject({ reason: "in_flight_limit" });
    expect(whole?.maxMsat).toBeLessThan(msat(c.outboundSats));
    expect(wallet.refusal(whole!.maxMsat!)).toBeNull();
    expect(wallet.refusal(msat(c.outboundSats + c.reserveSats / 2n))).toMatchObject({ reason: "reserve" });
    expect(wallet.refusal(msat(c.outboundSats + c.reserveSats + 1_000n))).toMatchObject({
      reason: "no_balance",
    });
  }, 60_000);
});

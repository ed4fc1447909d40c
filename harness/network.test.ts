/**
 * The world as a network: routing nodes with announced channels whose gossip the LSP collects and the RGS
 * endpoint serves; a wallet node with one channel to the LSP syncs its graph from it and pays past its
 * first hop without route hints (four hops beyond the LSP), splits a payment no single path can carry,
 * goes around a node taken offline, and after a restart asks only for a delta. A lying gossip server
 * (harness/hostile-rgs.ts) changes none of that: garbage is refused and the graph stays as it was, one that
 * never answers holds back no payment, and a valid snapshot with absurd fees on the path never makes the
 * wallet pay more than the routing fee limit it shows before a payment.
 */
import { hex } from "@scure/base";
import { beforeAll, describe, expect, it } from "vitest";
import { GossipSync } from "../src/engine/lightning/gossip-sync";
import { feeLimitSats } from "../src/engine/lightning/policy";
import { SCORER_KEY } from "../src/engine/lightning/routing";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { postJson } from "./http";
import type { Network } from "./network";
import { until } from "./until";
import { startWalletNode } from "./wallet-node";
import { type Harness, startHarness } from "./world";
import { stopAfterAll } from "./stop-after-all";

let h: Harness;
let net: Network;
const seed = crypto.getRandomValues(new Uint8Array(32));
const store = new MemoryBlobStore();
const events: NodeEvent[] = [];
let wallet: LightningNode;

const startWallet = () =>
  startWalletNode(h, { seed, store, onEvent: (e) => events.push(e), paymentTimeoutMs: 90_000 });

const sync = async (node: LightningNode) => {
  const r = await fetch(`${h.esploraUrl}/rgs/snapshot/${await node.lastGossipSync()}`);
  return node.applyGossipSnapshot(new Uint8Array(await r.arrayBuffer()));
};

const hopsOf = (paymentId: string) =>
  events.filter((e) => e.type === "payment_path_succeeded" && e.paymentId === paymentId);

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  net = await h.network();
  wallet = await startWallet();
  await wallet.connectPeer(parsePeerAddress(h.lightning.address)!);
  wallet.openChannel(h.lightning.pubkey, 3_000_000n);
  const pending = await until("the wallet's channel to be funded", () =>
    events.some((e) => e.type === "channel_pending"),
  );
  void pending;
  const funding = events.find((e) => e.type === "channel_pending");
  if (funding?.type === "channel_pending") await h.waitForTx(funding.fundingTxid);
  await h.mine(6);
  await until(
    "the wallet's channel to be usable",
    async () => {
      await wallet.sync();
      return wallet.channels().some((c) => c.isUsable);
    },
    60_000,
    250,
  );
}, 400_000);

stopAfterAll(() => [wallet, h]);

describe("the world's lightning network", () => {
  it("serves its gossip: a full snapshot gives the wallet every public channel with its fees", async () => {
    expect(wallet.graphChannels()).toEqual([]);
    const next = await sync(wallet);
    expect(next).toBeGreaterThan(0);
    const graph = wallet.graphChannels();
    expect(graph.map((c) => c.scid)).toEqual(net.graph().map((c) => c.scid));
    expect(graph).toEqual(net.graph());
    const carolPayee = graph.find(
      (c) =>
        [c.node1, c.node2].includes(net.node("carol").pubkey) &&
        [c.node1, c.node2].includes(net.node("payee").pubkey),
    )!;
    const fromCarol =
      carolPayee.node1 === net.node("carol").pubkey ? carolPayee.updates[0] : carolPayee.updates[1];
    expect(fromCarol).toMatchObject({ feeBaseMsat: 0, feeProportionalMillionths: 10, cltvExpiryDelta: 42 });
    expect(h.rgs.requests.at(-1)).toMatchObject({ kind: "full", since: 0 });
  });

  it("pays a node four hops past the LSP with no route hint, over the cheap path", async () => {
    const invoice = net.invoice("payee", 50_000n);
    const r = await wallet.payInvoice(invoice.bolt11, 10_000_000n);
    expect(r.status).toBe("succeeded");
    await until("the path to be reported", () => hopsOf(invoice.paymentHash).length > 0);
    // wallet → lsp → alice → bob → carol → payee
    expect(
      hopsOf(invoice.paymentHash).map((e) => (e.type === "payment_path_succeeded" ? e.hops : 0)),
    ).toEqual([5]);
    // the cheap path: the LSP's 1,000 msat + 100 ppm; alice, bob and carol charge 10 ppm each
    if (r.status === "succeeded") expect(r.feeMsat).toBeLessThan(10_000n);
  });

  it("splits a payment no single path can carry, and every part settles", async () => {
    // As Send does: a payment waits a moment for the last one's HTLC to leave the channel's in-flight room.
    await wallet.whenConnected(700_000_000n, 30_000);
    const invoice = net.invoice("payee", 700_000n);
    const r = await wallet.payInvoice(invoice.bolt11, 50_000_000n);
    expect(r.status).toBe("succeeded");
    await until("every part to be reported", () => hopsOf(invoice.paymentHash).length >= 2);
    expect(hopsOf(invoice.paymentHash).length).toBeGreaterThanOrEqual(2);
  });

  it("goes around a node taken offline, within the payment's retries", async () => {
    await net.offline("bob");
    const stored = await store.get(SCORER_KEY);
    const invoice = net.invoice("payee", 40_000n);
    const r = await wallet.payInvoice(invoice.bolt11, 10_000_000n);
    expect(r.status).toBe("succeeded");
    // What the scorer learnt (bob's channel failed) is stored at once, not only at the next gossip sync.
    await until("the scorer to be stored with what it learnt", async () => {
      const now = await store.get(SCORER_KEY);
      return now !== undefined && (stored === undefined || hex.encode(now) !== hex.encode(stored));
    });
    await net.online("bob");
  });

  it("pays an invoice with route hints too", async () => {
    const invoice = net.invoice("payee", 20_000n, { hints: true });
    expect((await wallet.payInvoice(invoice.bolt11, 10_000_000n)).status).toBe("succeeded");
  });

  it("after a restart starts from the stored graph and asks only for a delta", async () => {
    const before = await wallet.lastGossipSync();
    await wallet.stop();
    // The stored graph is read once the channel to the LSP is back, not before it: nothing asks for routes
    // here, and the wait for a partner away is longer than this test.
    wallet = await startWalletNode(h, {
      seed,
      store,
      onEvent: (e) => events.push(e),
      paymentTimeoutMs: 90_000,
      graphReadWaitMs: 600_000,
    });
    await wallet.routesRead;
    expect(wallet.channels().some((c) => c.isUsable)).toBe(true);
    expect(await wallet.lastGossipSync()).toBe(before);
    expect(wallet.graphChannels().length).toBe(net.graph().length);
    await sync(wallet);
    expect(h.rgs.requests.at(-1)).toMatchObject({ kind: "delta", since: before });
  });
});

describe("a lying gossip server", () => {
  const SCOPE = "rgs-liar";
  const lie = (mode: string | null, options: Record<string, unknown> = {}) =>
    postJson(h.esploraUrl, "/hostile", { service: "rgs", scope: SCOPE, mode, ...options });
  const logged: string[] = [];
  /** The wallet's own gossip sync, pointed at the lying server. */
  const liar = () =>
    new GossipSync(
      wallet,
      `${h.esploraUrl}/hostile/${SCOPE}/rgs/snapshot/`,
      (i, init) => fetch(i, init),
      (_level, message) => logged.push(message),
    );
  const outbound = () => wallet.channels().reduce((sum, c) => sum + c.outboundSats, 0n);
  /** The fees the wallet's graph holds for what `node` forwards. */
  const feesOf = (node: string) =>
    wallet
      .graphChannels()
      .flatMap((c) => (c.node1 === node ? [c.updates[0]] : c.node2 === node ? [c.updates[1]] : []))
      .map((u) => u?.feeBaseMsat);

  it("serves garbage: refused, and the graph stays as it was", async () => {
    await lie("garbage");
    const graph = wallet.graphChannels();
    const from = await wallet.lastGossipSync();
    await liar().sync();
    expect(logged.at(-1)).toMatch(/^gossip sync: The gossip snapshot could not be applied/);
    expect(wallet.graphChannels()).toEqual(graph);
    expect(await wallet.lastGossipSync()).toBe(from);
  });

  it("never answers: the wallet pays meanwhile, and the sync gives up at its deadline", async () => {
    await lie("hang");
    const sync = liar().sync();
    const invoice = net.invoice("payee", 10_000n);
    const r = await wallet.payInvoice(invoice.bolt11, feeLimitSats(10_000n) * 1000n);
    expect(r.status).toBe("succeeded");
    await sync;
    expect(logged.at(-1)).toMatch(/^gossip sync: .* did not answer within 30000 ms/);
  }, 120_000);

  it("a valid snapshot with absurd fees on the cheap path: the wallet goes the dear way, within the fee it showed", async () => {
    const [bob, carol] = [net.node("bob").pubkey, net.node("carol").pubkey];
    await lie("absurd-fees", { from: [bob, carol] });
    await liar().sync();
    // Applied: the graph now says bob and carol ask 4,000 sats and the whole amount again to forward.
    expect(feesOf(bob).length).toBeGreaterThan(0);
    for (const fee of [...feesOf(bob), ...feesOf(carol)]) expect(fee).toBe(4_000_000);
    // What the dear path can still carry to the payee after the payments above (its last channel is erin's).
    const payee = net.node("payee").pubkey;
    const room = net
      .node("erin")
      .node.channels()
      .filter((c) => c.peer === payee)
      .reduce((sum, c) => sum + c.outboundSats, 0n);
    expect(room).toBeGreaterThan(4_000n);
    const amount = room / 2n < 50_000n ? room / 2n : 50_000n;
    // What Send shows before a payment (EstimateLightningFee), and hands the node as its limit.
    const limit = feeLimitSats(amount);
    const before = outbound();
    const invoice = net.invoice("payee", amount);
    const r = await wallet.payInvoice(invoice.bolt11, limit * 1000n);
    expect(r.status).toBe("succeeded");
    if (r.status === "succeeded") expect(r.feeMsat).toBeLessThanOrEqual(limit * 1000n);
    await until("the channel to show the payment", () => outbound() < before);
    expect(before - outbound()).toBeGreaterThanOrEqual(amount);
    expect(before - outbound()).toBeLessThanOrEqual(amount + limit);
  }, 120_000);

  it("absurd fees on every path: nothing is paid, for want of a route within the fee it showed", async () => {
    await lie("absurd-fees");
    await liar().sync();
    for (const fee of feesOf(net.node("dave").pubkey)) expect(fee).toBe(4_000_000);
    const before = outbound();
    const invoice = net.invoice("payee", 50_000n);
    const r = await wallet.payInvoice(invoice.bolt11, feeLimitSats(50_000n) * 1000n);
    expect(r).toMatchObject({ status: "failed", reason: "route_not_found" });
    expect(outbound()).toBe(before);
    await lie(null);
  }, 120_000);
});

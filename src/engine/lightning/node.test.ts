import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { closingTransaction, startWalletNode, startWorldWithNode } from "../../../harness/wallet-node";
import type { Harness } from "../../../harness/world";
import type { LightningNode, NodeEvent } from "./node";
import { parsePeerAddress } from "./socket";
import { ARCHIVE_PREFIX, MemoryBlobStore, MONITOR_PREFIX } from "./store";
import { lightningSeed } from "./seed";
import { SUPERVISE_MS } from "./supervisor";

const MNEMONIC =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

let h: Harness;
const store = new MemoryBlobStore();
const events: NodeEvent[] = [];
let wallet: LightningNode;

const options = { seed: lightningSeed(MNEMONIC), store, paymentTimeoutMs: 20_000 };
const startWallet = () => startWalletNode(h, { ...options, onEvent: (e) => events.push(e) });

/** The funding transaction the node broadcast reached the world (before blocks are mined on it). */
const fundingSeen = async () => {
  for (const e of events) if (e.type === "channel_pending") await h.waitForTx(e.outpoint.split(":")[0]!);
};

const mineAndSync = async (n: number) => {
  await h.mine(n);
  await wallet.sync();
  await h.lightning.node.sync();
};

const count = (type: NodeEvent["type"]) => events.filter((e) => e.type === type).length;

/** Opens a channel of `sats` to the world's node, buries its funding under 6 blocks and waits until it is usable. */
const openUsableChannel = async (sats: bigint) => {
  const opened = count("channel_pending");
  wallet.openChannel(h.lightning.pubkey, sats);
  await until("pending", () => count("channel_pending") > opened);
  await fundingSeen();
  await mineAndSync(6);
  await until("usable", () => wallet.channels().some((c) => c.isUsable));
};

/**
 * Closes the usable channel cooperatively; resolves once the node reports it closed and its closing
 * transaction reached the world, so the blocks mined next bury the close (on busy cores the broadcast can
 * lag the event, and a close mined later starts LDK's wait for it later).
 */
const closeUsableChannel = async () => {
  const channel = wallet.channels().find((c) => c.isUsable)!;
  const closed = count("channel_closed");
  await wallet.closeChannel(channel.channelId);
  await until("closed", () => count("channel_closed") > closed);
  await closingTransaction(h, channel.outpoint ?? "");
};

beforeAll(async () => {
  ({ world: h, node: wallet } = await startWorldWithNode(events, () => options));
}, 180_000);
stopAfterAll(() => [wallet, h]);

describe("the wallet's lightning node against the local world", () => {
  it("opens a channel through the WebSocket proxy and pays an invoice", async () => {
    const peer = parsePeerAddress(h.lightning.address);
    if (!peer) throw new Error("bad address");
    await wallet.connectPeer(peer);
    expect(wallet.isConnected(h.lightning.pubkey)).toBe(true);
    await openUsableChannel(200_000n);
    const { bolt11 } = h.lightning.node.createInvoice(10_000_000n, "coffee");
    const paid = await wallet.payInvoice(bolt11, 100_000n);
    expect(paid.status).toBe("succeeded");
  }, 180_000);

  it("receives a payment from the world's node", async () => {
    // The first payment settles on the world's side once the commitment dance is done.
    await until("settled", () => h.lightning.node.channels().some((c) => c.outboundSats >= 5_000n));
    const outbound = () => wallet.channels().reduce((sum, c) => sum + c.outboundSats, 0n);
    const before = outbound();
    const { bolt11, paymentHash } = wallet.createInvoice(5_000_000n, "tips");
    const r = await h.lightning.node.payInvoice(bolt11, 100_000n);
    expect(r).toMatchObject({ status: "succeeded" });
    await until("received", () =>
      events.some(
        (e) => e.type === "payment_received" && e.paymentHash === paymentHash && e.amountMsat === 5_000_000n,
      ),
    );
    // The payment is claimed before the commitment dance that removes its HTLC ends: the channel counts it
    // once that is done, and the restart below compares the channel as it then stands.
    await until("counted in the channel", () => outbound() === before + 5_000n);
  }, 180_000);

  it("restarts from its store with the same channel and keeps paying", async () => {
    const before = wallet
      .channels()
      .map((c) => ({ id: c.channelId, out: c.outboundSats, in: c.inboundSats }));
    const balance = wallet.balanceSats();
    await wallet.stop();
    wallet = await startWallet();
    expect(
      wallet.channels().map((c) => ({ id: c.channelId, out: c.outboundSats, in: c.inboundSats })),
    ).toEqual(before);
    expect(wallet.balanceSats()).toBe(balance);
    await until("reconnected and usable", () => wallet.channels().some((c) => c.isUsable), 20_000);
    const { bolt11 } = h.lightning.node.createInvoice(1_000_000n, "again");
    expect((await wallet.payInvoice(bolt11, 100_000n)).status).toBe("succeeded");
  }, 180_000);

  it("pays over two hops to a node behind a private channel", async () => {
    const carol = await h.startPayee();
    const { bolt11 } = carol.node.createInvoice(2_000_000n, "two hops");
    const r = await wallet.payInvoice(bolt11, 100_000n);
    expect(r.status).toBe("succeeded");
    if (r.status === "succeeded") expect(r.feeMsat).toBeGreaterThan(0n);
  }, 180_000);

  it("says why a payment it cannot make fails, before sending anything", async () => {
    const { bolt11 } = h.lightning.node.createInvoice(10_000_000_000n, "too much");
    const r = await wallet.payInvoice(bolt11, 100_000n);
    expect(r).toMatchObject({ status: "failed", reason: "no_balance" });
  });

  it("closes cooperatively and the funds go to the on-chain wallet", async () => {
    const channel = wallet.channels()[0]!;
    await wallet.closeChannel(channel.channelId);
    await until("closed", () =>
      events.some((e) => e.type === "channel_closed" && e.channelId === channel.channelId),
    );
    await mineAndSync(1);
    expect(wallet.channels()).toHaveLength(0);
  }, 180_000);

  it("force closes and sweeps its output after the delay", async () => {
    wallet.openChannel(h.lightning.pubkey, 150_000n);
    await until("pending", () => events.filter((e) => e.type === "channel_pending").length >= 2);
    await fundingSeen();
    await mineAndSync(6);
    await until("usable", () => wallet.channels().some((c) => c.isUsable));
    const channel = wallet.channels()[0]!;
    await wallet.closeChannel(channel.channelId, true);
    await until("closed", () =>
      events.some((e) => e.type === "channel_closed" && e.channelId === channel.channelId),
    );
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 4 && !events.some((e) => e.type === "outputs_swept"); i++) {
      await mineAndSync(50);
      await new Promise((r) => setTimeout(r, 300));
      await wallet.sync();
    }
    const swept = events.find((e) => e.type === "outputs_swept");
    expect(swept).toBeDefined();
    if (swept?.type === "outputs_swept") expect(swept.sats).toBeGreaterThan(140_000n);
  }, 180_000);

  it("with only the seed, finds and sweeps what a cooperative close paid to it", async () => {
    await openUsableChannel(120_000n);
    await closeUsableChannel();
    // The device is lost with the channel state; only the words remain.
    wallet.halt();
    await h.mine(1);
    const sweptBefore = count("outputs_swept");
    store.data.clear();
    wallet = await startWallet();
    expect(wallet.channels()).toHaveLength(0);
    // The wallet runs this scan each time its node starts.
    expect(await wallet.recoverStaticOutputs()).toBeGreaterThan(0);
    await until("swept", () => count("outputs_swept") > sweptBefore);
    const swept = events.filter((e) => e.type === "outputs_swept").at(-1);
    if (swept?.type === "outputs_swept") expect(swept.sats).toBeGreaterThan(110_000n);
  }, 180_000);

  it("reconnects to a peer it keeps (an LSP whose invoice is open) though no channel is open with it", async () => {
    const lsp = await h.startNode();
    await wallet.connectPeer(parsePeerAddress(lsp.address)!);
    wallet.keepConnected(lsp.pubkey, Date.now() + 60_000);
    // The LSP goes away and comes back: the wallet dials it again.
    await lsp.offline();
    await until("dropped", () => !wallet.isConnected(lsp.pubkey), 25_000, 50);
    await lsp.online();
    await until("reconnected", () => wallet.isConnected(lsp.pubkey), 60_000, 100);
    // The owner disconnects it: it stays disconnected.
    wallet.disconnectPeer(lsp.pubkey);
    expect(wallet.isConnected(lsp.pubkey)).toBe(false);
    // Many of the supervisor's looks later, nothing dialled it again.
    await new Promise((r) => setTimeout(r, 12 * SUPERVISE_MS));
    expect(wallet.isConnected(lsp.pubkey)).toBe(false);
  }, 180_000);

  it("archives a closed channel's monitor once it is resolved for four weeks of blocks, and starts without it", async () => {
    const monitors = () => store.keys(MONITOR_PREFIX);
    const archived = () => store.keys(ARCHIVE_PREFIX);
    await wallet.connectPeer(parsePeerAddress(h.lightning.address)!);
    await openUsableChannel(100_000n);
    await closeUsableChannel();
    const before = (await monitors()).length;
    expect(before).toBeGreaterThan(0);
    // Resolved (the close buried under 6 blocks): LDK notes it at a sync once it is, whichever block of the
    // next few that is, and archives at a sync 4,032 blocks later.
    for (let i = 0; i < 4; i++) await mineAndSync(3);
    await mineAndSync(4_040);
    await until(
      "archived",
      async () => {
        await wallet.sync();
        return (await archived()).length > 0;
      },
      60_000,
      250,
    );
    expect((await monitors()).length).toBeLessThan(before);
    // The next start loads no archived monitor and runs as before.
    await wallet.stop();
    wallet = await startWallet();
    expect(wallet.channels()).toHaveLength(0);
  }, 240_000);
});

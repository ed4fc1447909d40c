/**
 * The wallet's lightning node on the mirrored store, against the local world and its storage server: a
 * channel opened and used on one device comes back on another device that has only the 12 words, with no
 * force close, and pays and is paid there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { startWalletNode } from "../../../harness/wallet-node";
import { type Harness, startHarness } from "../../../harness/world";
import type { LightningNode, NodeEvent } from "../lightning/node";
import { lightningSeed } from "../lightning/seed";
import { parsePeerAddress } from "../lightning/socket";
import { LN_PREFIX, MemoryBlobStore } from "../lightning/store";
import { openSealedStore, storageKeysOfWords } from "./index";
import { MirroredBlobStore } from "./mirrored-store";

const WORDS = "legal winner thank year wave sausage worth useful legal winner thank yellow";

let h: Harness;
const nodes: LightningNode[] = [];
beforeAll(async () => {
  h = await startHarness({ port: 0 });
  // The storage server's database starts on first use: start it before the clock of a request runs.
  await h.storage.db();
}, 180_000);
afterAll(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await h?.stop();
});

/** A device: its own local store, mirrored to the world's storage server under the words' keys. */
const device = async () => {
  const local = new MemoryBlobStore();
  const remote = openSealedStore({ url: h.storageUrl, keys: storageKeysOfWords(WORDS), network: "regtest" });
  const opened = await MirroredBlobStore.open({ local, remote, prefix: LN_PREFIX });
  const events: NodeEvent[] = [];
  const node = await startWalletNode(h, {
    seed: lightningSeed(WORDS),
    store: opened.store,
    onEvent: (e) => events.push(e),
    paymentTimeoutMs: 20_000,
  });
  nodes.push(node);
  return { node, events, local, from: opened.from, store: opened.store };
};

describe("a channel kept on the storage server", () => {
  it("comes back on a new device from the words alone, reconnects without a force close, pays and is paid", async () => {
    const phone = await device();
    expect(phone.from).toBe("empty");
    const peer = parsePeerAddress(h.lightning.address);
    if (!peer) throw new Error("bad address");
    await phone.node.connectPeer(peer);
    phone.node.openChannel(h.lightning.pubkey, 200_000n);
    await until("pending", () => phone.events.some((e) => e.type === "channel_pending"));
    for (const e of phone.events)
      if (e.type === "channel_pending") await h.waitForTx(e.outpoint.split(":")[0] ?? "");
    await h.mine(6);
    await phone.node.sync();
    await h.lightning.node.sync();
    await until("usable", () => phone.node.channels().some((c) => c.isUsable));
    const { bolt11 } = h.lightning.node.createInvoice(10_000_000n, "before");
    expect((await phone.node.payInvoice(bolt11, 100_000n)).status).toBe("succeeded");
    await until("settled", () => h.lightning.node.channels().some((c) => c.outboundSats >= 5_000n));
    const channel = phone.node.channels()[0];
    await phone.node.stop();
    // The phone is gone, with its local store. The laptop has the 12 words and the storage server.
    const laptop = await device();
    expect(laptop.from).toBe("remote");
    expect(laptop.node.channels().map((c) => c.channelId)).toEqual([channel?.channelId]);
    expect(laptop.node.channels()[0]?.outboundSats).toBe(channel?.outboundSats);
    await laptop.node.connectPeer(peer);
    await until("reconnected", () => laptop.node.channels().some((c) => c.isUsable), 30_000);
    const invoice = h.lightning.node.createInvoice(5_000_000n, "after");
    expect((await laptop.node.payInvoice(invoice.bolt11, 100_000n)).status).toBe("succeeded");
    const received = laptop.node.createInvoice(3_000_000n, "paid to the laptop");
    expect(await h.lightning.node.payInvoice(received.bolt11, 100_000n)).toMatchObject({
      status: "succeeded",
    });
    await until("received", () =>
      laptop.events.some((e) => e.type === "payment_received" && e.paymentHash === received.paymentHash),
    );
    // The same channel on the world's side, never closed.
    expect(h.lightning.node.channels().map((c) => c.channelId)).toContain(channel?.channelId);
    expect(h.lightning.events.some((e) => e.type === "channel_closed")).toBe(false);
    expect(laptop.store.remoteVersions().global).toBeGreaterThan(phone.store.remoteVersions().global);
  }, 300_000);
});

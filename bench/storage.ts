/**
 * Channel state on the storage server (issue 32), in Node against the local world: the bytes a payment
 * stores remotely, and the time from "restore" (the 12 words on a new device) to a usable channel.
 */
import { until } from "../harness/until";
import { startWalletNode } from "../harness/wallet-node";
import type { Harness } from "../harness/world";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import { lightningSeed } from "../src/engine/lightning/seed";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { LN_PREFIX, MemoryBlobStore } from "../src/engine/lightning/store";
import { openSealedStore, storageKeysOfWords } from "../src/engine/storage/index";
import { MirroredBlobStore } from "../src/engine/storage/mirrored-store";

const WORDS = "letter advice cage absurd amount doctor acoustic avoid letter advice cage above";
const PAYMENTS = 10;

export const benchStorage = async (world: Harness) => {
  await world.storage.db();
  const sent = { bytes: 0, puts: 0 };
  const counting = async (input: string | URL | Request, init?: RequestInit) => {
    if (String(input).endsWith("/putObjects") && init?.body instanceof Uint8Array) {
      sent.bytes += init.body.length;
      sent.puts += 1;
    }
    return fetch(input, init);
  };
  const device = async () => {
    const remote = openSealedStore({
      url: world.storageUrl,
      keys: storageKeysOfWords(WORDS),
      network: "regtest",
      fetchFn: counting,
    });
    const { store } = await MirroredBlobStore.open({
      local: new MemoryBlobStore(),
      remote,
      prefix: LN_PREFIX,
    });
    const events: NodeEvent[] = [];
    const node = await startWalletNode(world, {
      seed: lightningSeed(WORDS),
      store,
      onEvent: (e) => events.push(e),
    });
    return { node, events };
  };
  const peer = parsePeerAddress(world.lightning.address);
  if (!peer) throw new Error("bad address");
  let laptop: LightningNode | null = null;
  const phone = await device();
  try {
    await phone.node.connectPeer(peer);
    phone.node.openChannel(world.lightning.pubkey, 300_000n);
    await until("pending", () => phone.events.some((e) => e.type === "channel_pending"));
    for (const e of phone.events)
      if (e.type === "channel_pending") await world.waitForTx(e.outpoint.split(":")[0] ?? "");
    await world.mine(6);
    await phone.node.sync();
    await world.lightning.node.sync();
    await until("usable", () => phone.node.channels().some((c) => c.isUsable), 60_000);
    const before = { ...sent };
    for (let i = 0; i < PAYMENTS; i++) {
      const { bolt11 } = world.lightning.node.createInvoice(1_000_000n, `bench ${i}`);
      const r = await phone.node.payInvoice(bolt11, 100_000n);
      if (r.status !== "succeeded") throw new Error(`payment ${i} ${r.status}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const bytes = sent.bytes - before.bytes;
    const puts = sent.puts - before.puts;
    console.log(
      `storage per payment (${PAYMENTS} payments of 1,000 sats): ${Math.round(bytes / PAYMENTS).toLocaleString("en")} bytes uploaded in ${(puts / PAYMENTS).toFixed(1)} writes`,
    );
    await phone.node.stop();
    const start = performance.now();
    const restored = await device();
    laptop = restored.node;
    await laptop.connectPeer(peer);
    await until("usable", () => laptop?.channels().some((c) => c.isUsable) ?? false, 60_000);
    console.log(
      `restore from the 12 words to a usable channel (state from the storage server): ${Math.round(performance.now() - start)} ms`,
    );
  } finally {
    await phone.node.stop().catch(() => undefined);
    await laptop?.stop().catch(() => undefined);
  }
};

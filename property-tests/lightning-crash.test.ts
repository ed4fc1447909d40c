/**
 * Crash consistency of the lightning node: the node is stopped dead at a random write while it pays and
 * is paid (as when a tab is closed mid-payment), then restarted from what was durable. The channel must
 * come back usable with the counterparty — no older monitor than the peer has seen, no force close — and
 * pay and be paid again. And every state the store ever held can be read back.
 *
 * CRASH_RUNS and CRASH_SEED (fast-check's seed) repeat or widen a run, CRASH_PATH (fast-check's path, with the
 * seed) replays one run directly; CRASH_LOG prints the wallet node's log.
 */
import fc from "fast-check";
import { until } from "../harness/until";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeWebSocket } from "../services/gossip/pipes";
import { startWalletNode } from "../harness/wallet-node";
import { type Harness, startHarness } from "../harness/world";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import {
  openWebSocketPipe,
  type PeerAddress,
  parsePeerAddress,
  peerSocketUrl,
} from "../src/engine/lightning/socket";
import { type BlobStore, type BlobWrite, MemoryBlobStore } from "../src/engine/lightning/store";
import { stopAfterAll } from "../harness/stop-after-all";

let h: Harness;
const RUNS = Number(process.env.CRASH_RUNS ?? 6);
/**
 * The world's node lives for the whole run, as an LSP lives for months, and gains a closed channel every
 * run. Every this many runs four weeks of blocks (4,040) pass, so it archives the channels resolved by
 * then, as a real node would: without it, a run of a thousand grew LDK's memory past its limit (a panic at
 * run 355). Blocks mined faster than time passes carry times ever further ahead (a block's time must pass
 * the median of the eleven before it), and a chain refuses one more than two hours ahead of its clock: a
 * run of a thousand mines at most eight such passes (one every 50 runs got there at run 550).
 */
const WEEKS_PASS_EVERY = Math.max(50, Math.ceil(RUNS / 8));
let runs = 0;

beforeAll(async () => {
  h = await startHarness({ port: 0 });
}, 180_000);
stopAfterAll(() => [h]);

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
  /** Settles when the store dies. */
  readonly died: Promise<void>;
  private die: () => void = () => {};
  constructor(private readonly crashAt: number) {
    this.died = new Promise((resolve) => {
      this.die = resolve;
    });
  }
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
        this.die();
      }
      return new Promise<void>(() => {});
    }
    await this.durable.put(writes);
  };
}

/**
 * Waits for a payment until it settles or the store dies (one caught by the crash finishes only after the
 * restart), and at most `ms`, which only a slow machine reaches: the next payment then goes on top.
 */
const within = (p: Promise<unknown>, died: Promise<void>, ms = 10_000) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, died, new Promise((r) => (timer = setTimeout(r, ms)))]).finally(() =>
    clearTimeout(timer),
  );
};

const startNode = (
  seed: Uint8Array,
  store: BlobStore,
  events: NodeEvent[],
  connect = (peer: PeerAddress) => openWebSocketPipe(peerSocketUrl(peer, h.proxyUrl), nodeWebSocket),
) =>
  startWalletNode(h, {
    seed,
    store,
    log: (kind, line) => {
      if (process.env.CRASH_LOG) console.log(`[wallet ${kind}] ${line}`);
    },
    connect,
    onEvent: (e) => events.push(e),
    paymentTimeoutMs: 5_000,
  });

/** A store that keeps a copy of everything it held after each write. */
class RecordingStore extends MemoryBlobStore {
  readonly states: Map<string, Uint8Array>[] = [];
  override put = async (writes: readonly BlobWrite[]) => {
    for (const w of writes) {
      if (w.value === null) this.data.delete(w.key);
      else this.data.set(w.key, w.value.slice());
    }
    this.states.push(new Map(this.data));
  };
}

/**
 * A wallet node with a usable 200,000-sat channel to the world's node, half of it pushed to that node so
 * payments can go both ways; stopped, its state in the store answered.
 */
const channelWithWorld = async (seed: Uint8Array) => {
  const peer = parsePeerAddress(h.lightning.address)!;
  const store = new MemoryBlobStore();
  const events: NodeEvent[] = [];
  const node = await startNode(seed, store, events);
  await node.connectPeer(peer);
  node.openChannel(h.lightning.pubkey, 200_000n, 100_000_000n);
  await until("pending", () => events.some((e) => e.type === "channel_pending"), 20_000, 50);
  // The channel's id once funded (the one `openChannel` answers is temporary).
  const pending = events.find((e) => e.type === "channel_pending");
  if (pending?.type !== "channel_pending") throw new Error("no channel");
  await h.waitForTx(pending.fundingTxid);
  await h.mine(6);
  await node.sync();
  await h.lightning.node.sync();
  await until("usable", () => node.channels().some((c) => c.isUsable), 20_000, 50);
  await node.stop();
  return { store, events, channelId: pending.channelId };
};

/** Copies a whole store in one write. */
const copyInto = (from: MemoryBlobStore, to: BlobStore) =>
  to.put([...from.data].map(([key, value]) => ({ key, value })));

/** Closes the channel cooperatively, leaving the world clean for the next run. */
const closeWith = async (node: LightningNode, channelId: string, events: NodeEvent[]) => {
  await node.closeChannel(channelId);
  await until("closed", () => events.some((e) => e.type === "channel_closed"), 20_000, 50);
};

describe("lightning crash consistency", () => {
  it(
    "a node stopped dead at any write restarts with a usable channel and no force close",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 2, max: 40 }),
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          async (crashAfter, seed) => {
            if (++runs % WEEKS_PASS_EVERY === 0) {
              await h.mine(4_040);
              await h.lightning.node.sync();
            }
            // A fresh channel for each run; the crash comes `crashAfter` writes into the payments.
            const { store: setup, events, channelId } = await channelWithWorld(seed);
            const store = new CrashingStore(crashAfter);
            await copyInto(setup, store.durable);
            const node = await startNode(seed, store, events);
            await until("reconnected", () => node.channels().some((c) => c.isUsable), 20_000, 50);
            store.arm(() => node.halt());
            // Payments both ways until the crash.
            for (let i = 0; i < 6 && !store.crashed; i++) {
              const out = h.lightning.node.createInvoice(1_000_000n + BigInt(i), `out ${i}`);
              await within(node.payInvoice(out.bolt11, 100_000n), store.died);
              if (store.crashed) break;
              const back = node.createInvoice(500_000n + BigInt(i), `in ${i}`);
              await within(h.lightning.node.payInvoice(back.bolt11, 100_000n), store.died);
            }
            node.halt();

            // Restart from what was durable: the channel is there and works both ways.
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
              const inAgain = after.createInvoice(700_000n, "in after restart");
              expect((await h.lightning.node.payInvoice(inAgain.bolt11, 100_000n)).status).toBe("succeeded");
              expect(
                h.lightning.events.some((e) => e.type === "channel_closed" && e.channelId === channelId),
              ).toBe(false);
              expect(events.some((e) => e.type === "channel_closed")).toBe(false);
              await closeWith(after, channelId, events);
            } finally {
              await after.stop();
            }
          },
        ),
        {
          numRuns: RUNS,
          endOnFailure: true,
          seed: process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : undefined,
          ...(process.env.CRASH_PATH ? { path: process.env.CRASH_PATH } : {}),
        },
      );
    },
    60_000 + RUNS * 20_000,
  );

  it("every state the store held while paying and being paid opens with the channel in it", async () => {
    const seed = crypto.getRandomValues(new Uint8Array(32));
    const { store: setup, events, channelId } = await channelWithWorld(seed);
    const store = new RecordingStore();
    await copyInto(setup, store);
    const node = await startNode(seed, store, events);
    await until("reconnected", () => node.channels().some((c) => c.isUsable), 20_000, 50);
    for (let i = 0; i < 3; i++) {
      const out = h.lightning.node.createInvoice(1_000_000n + BigInt(i), `out ${i}`);
      expect((await node.payInvoice(out.bolt11, 100_000n)).status).toBe("succeeded");
      const back = node.createInvoice(500_000n + BigInt(i), `in ${i}`);
      expect((await h.lightning.node.payInvoice(back.bolt11, 100_000n)).status).toBe("succeeded");
    }
    const states = store.states.slice();
    await closeWith(node, channelId, events);
    await node.stop();
    expect(states.length).toBeGreaterThan(10);
    // Each state opened on its own, offline (an old state must never meet the peer).
    for (const [i, state] of states.entries()) {
      const copy = new MemoryBlobStore();
      for (const [key, value] of state) copy.data.set(key, value);
      const offline = await startNode(seed, copy, [], () => Promise.reject(new Error("offline")));
      try {
        expect(
          offline.channels().map((c) => c.channelId),
          `state ${i}`,
        ).toContain(channelId);
      } finally {
        offline.halt();
      }
    }
  }, 240_000);
});

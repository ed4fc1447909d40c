/**
 * The world's rapid gossip sync snapshots, proven by LDK's own client (`RapidGossipSync` of the pinned
 * bindings): over random world-shaped networks that grow and change their fees step by step, every full
 * snapshot builds a graph with exactly the network's channels and policies, and a delta applied to the
 * graph the client held gives the same graph as the full snapshot of that moment.
 */
import { hex } from "@scure/base";
import fc from "fast-check";
import * as ldk from "lightningdevkit";
import { beforeAll, describe, expect, it } from "vitest";
import { loadLdk } from "../services/gossip/pipes";
import { nodeKeyOf } from "../harness/small-graph";
import { type ChannelGossip, type DirectionPolicy, GossipHistory } from "../services/gossip/rgs";
import { applyRgs, graphChannels } from "../src/engine/lightning/gossip";

const START = 1_800_000_000;
let logger: ldk.Logger;

beforeAll(async () => {
  await loadLdk();
  logger = ldk.Logger.new_impl({ log: () => {} } as ldk.LoggerInterface);
});

const newGraph = () => ldk.NetworkGraph.constructor_new(ldk.Network.LDKNetwork_Regtest, logger);

const policy: fc.Arbitrary<DirectionPolicy> = fc.record({
  disabled: fc.boolean(),
  cltvExpiryDelta: fc.constantFrom(40, 72, 144, 6, 18),
  htlcMinimumMsat: fc.constantFrom(0n, 1n, 1_000n),
  htlcMaximumMsat: fc.oneof(
    fc.constantFrom(100_000_000n, 990_000_000n),
    fc.bigInt({ min: 1n, max: 10n ** 12n }),
  ),
  feeBaseMsat: fc.oneof(fc.constantFrom(0, 1_000), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
  feeProportionalMillionths: fc.oneof(fc.constantFrom(1, 100), fc.integer({ min: 0, max: 100_000 })),
});

/** A step: new channels between the nodes, and new policies for some directions of existing ones. */
const step = fc.record({
  open: fc.array(
    fc.record({
      a: fc.nat(),
      b: fc.nat(),
      scidGap: fc.bigInt({ min: 1n, max: 1n << 40n }),
      p0: fc.option(policy),
      p1: fc.option(policy),
    }),
    { maxLength: 6 },
  ),
  change: fc.array(
    fc.record({ pick: fc.nat(), direction: fc.constantFrom(0 as const, 1 as const), p: policy }),
    {
      maxLength: 6,
    },
  ),
});

const network = fc.record({
  keys: fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 9 }),
  steps: fc.array(step, { minLength: 1, maxLength: 5 }),
});

/** What the graph must hold: every channel with both directions as the network last said. */
const expectSame = (graph: ldk.NetworkGraph, model: Map<bigint, ChannelGossip>) => {
  const want = [...model.values()]
    .sort((a, b) => (a.scid < b.scid ? -1 : 1))
    .map((c) => ({ ...c, features: hex.encode(c.features) }));
  const got = graphChannels(graph).map((c) => ({ ...c, features: hex.encode(c.features) }));
  expect(got).toEqual(want);
};

describe("rapid gossip sync snapshots", () => {
  it("are applied by LDK's client: full snapshots and deltas give the network's channels and fees", () => {
    fc.assert(
      fc.property(network, ({ keys, steps }) => {
        const nodes = keys.map(nodeKeyOf);
        let now = START;
        const history = new GossipHistory(() => now);
        const model = new Map<bigint, ChannelGossip>();
        let scid = 0n;
        let held = newGraph();
        let since = 0;
        for (const s of steps) {
          for (const o of s.open) {
            const a = nodes[o.a % nodes.length]!;
            const b = nodes[o.b % nodes.length]!;
            if (a === b) continue;
            scid += o.scidGap;
            const [node1, node2] = a < b ? [a, b] : [b, a];
            model.set(scid, { scid, node1, node2, features: new Uint8Array(), updates: [o.p0, o.p1] });
          }
          const scids = [...model.keys()];
          for (const c of s.change) {
            if (scids.length === 0) break;
            const id = scids[c.pick % scids.length]!;
            const ch = model.get(id)!;
            const updates: [DirectionPolicy | null, DirectionPolicy | null] = [...ch.updates];
            updates[c.direction] = c.p;
            model.set(id, { ...ch, updates });
          }
          now += 7;
          history.observe(model.values());

          const full = history.snapshot(0);
          const fresh = newGraph();
          expect(applyRgs(fresh, logger, full.bytes, now)).toBe(full.latestSeen);
          expectSame(fresh, model);

          const delta = history.snapshot(since);
          since = applyRgs(held, logger, delta.bytes, now);
          expect(since).toBe(full.latestSeen);
          expectSame(held, model);
          // and the graph held survives being stored and read back
          const read = ldk.NetworkGraph.constructor_read(held.write(), logger);
          if (!(read instanceof ldk.Result_NetworkGraphDecodeErrorZ_OK))
            throw new Error("graph not read back");
          held = read.res;
        }
      }),
      { numRuns: Number(process.env.RGS_RUNS ?? 60) },
    );
  });

  it("serves the whole graph at 0 and only what changed after", () => {
    let now = START;
    const history = new GossipHistory(() => now);
    const p: DirectionPolicy = {
      disabled: false,
      cltvExpiryDelta: 40,
      htlcMinimumMsat: 1000n,
      htlcMaximumMsat: 99_000_000n,
      feeBaseMsat: 1000,
      feeProportionalMillionths: 100,
    };
    const [a, b, c] = [nodeKeyOf(1), nodeKeyOf(2), nodeKeyOf(3)].sort();
    const channel = (scid: bigint, node1: string, node2: string, updates: ChannelGossip["updates"]) => ({
      scid,
      node1,
      node2,
      features: new Uint8Array(),
      updates,
    });
    const ch1 = channel(500n << 40n, a!, b!, [p, p]);
    history.observe([ch1]);
    const first = history.snapshot(0);
    expect(first).toMatchObject({ announcements: 1, updates: 2, latestSeen: START });
    now += 60;
    const ch2 = channel(501n << 40n, b!, c!, [p, null]);
    history.observe([{ ...ch1, updates: [{ ...p, feeBaseMsat: 5 }, p] }, ch2]);
    const delta = history.snapshot(first.latestSeen);
    expect(delta).toMatchObject({ announcements: 1, updates: 2, latestSeen: START + 60 });
    // nothing new: an empty delta at the same timestamp
    expect(history.snapshot(delta.latestSeen)).toMatchObject({
      announcements: 0,
      updates: 0,
      latestSeen: START + 60,
    });
    // the prefix, version and regtest chain hash LDK expects
    expect(hex.encode(first.bytes.slice(0, 8))).toBe("4c444b0106226e46");
  });
});

/** The world's RGS endpoint: LDK's client applies what it serves, full at 0 and a delta after. */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { beforeAll, describe, expect, it } from "vitest";
import { applyRgs, type ChannelGossip, graphChannels } from "../src/engine/lightning/gossip";
import { RgsServer } from "./gossip";
import { loadLdk } from "../services/gossip/pipes";

let logger: ldk.Logger;
beforeAll(async () => {
  await loadLdk();
  logger = ldk.Logger.new_impl({ log: () => {} } as ldk.LoggerInterface);
});

const key = (n: number) => {
  const secret = new Uint8Array(32);
  secret[31] = n;
  return hex.encode(secp256k1.getPublicKey(secret, true));
};

describe("the RGS endpoint", () => {
  it("serves the collected graph in full at 0, then deltas, and logs each request", async () => {
    let now = 1_800_000_000;
    const rgs = new RgsServer(() => now);
    const [a, b] = [key(1), key(2)].sort() as [string, string];
    const policy = {
      disabled: false,
      cltvExpiryDelta: 144,
      htlcMinimumMsat: 1n,
      htlcMaximumMsat: 500_000_000n,
      feeBaseMsat: 1000,
      feeProportionalMillionths: 200,
    };
    let graph: ChannelGossip[] = [
      {
        scid: (600n << 40n) | (1n << 16n),
        node1: a,
        node2: b,
        features: new Uint8Array(),
        updates: [policy, null],
      },
    ];
    rgs.source = () => graph;
    const route = rgs.routes().find(([, path]) => path.test("/rgs/snapshot/0"))!;
    const get = async (since: number) =>
      new Uint8Array((await route[2](`/rgs/snapshot/${since}`.match(route[1])!, ""))!.bytes!);

    const held = ldk.NetworkGraph.constructor_new(ldk.Network.LDKNetwork_Regtest, logger);
    const t1 = applyRgs(held, logger, await get(0), now);
    expect(graphChannels(held)).toEqual(graph);
    now += 30;
    graph = [{ ...graph[0]!, updates: [{ ...policy, feeProportionalMillionths: 5 }, policy] }];
    const t2 = applyRgs(held, logger, await get(t1), now);
    expect(t2).toBeGreaterThan(t1);
    expect(graphChannels(held)).toEqual(graph);
    expect(rgs.requests.map((r) => [r.kind, r.announcements, r.updates])).toEqual([
      ["full", 1, 1],
      ["delta", 0, 2],
    ]);
  });
});

/** The services' rapid gossip sync speaks each network's chain: LDK's client of that network takes it, no other. */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { beforeAll, describe, expect, it } from "vitest";
import { applyRgs, graphChannels } from "../../src/engine/lightning/gossip";
import type { Network } from "../../src/events/types";
import { RgsServer } from "../../harness/gossip";
import { loadLdk } from "./pipes";
import { CHAIN_HASHES } from "./node";

let logger: ldk.Logger;
beforeAll(async () => {
  await loadLdk();
  logger = ldk.Logger.new_impl({ log: () => {} } as ldk.LoggerInterface);
});

const LDK_NETWORK: { readonly [N in Network]: ldk.Network } = {
  bitcoin: ldk.Network.LDKNetwork_Bitcoin,
  testnet: ldk.Network.LDKNetwork_Testnet,
  signet: ldk.Network.LDKNetwork_Signet,
  regtest: ldk.Network.LDKNetwork_Regtest,
};

const key = (n: number) => {
  const secret = new Uint8Array(32);
  secret[31] = n;
  return hex.encode(secp256k1.getPublicKey(secret, true));
};

describe("the services' gossip snapshots", () => {
  it("carry each network's chain hash, which that network's client applies and another refuses", () => {
    const now = 1_800_000_000;
    const [a, b] = [key(1), key(2)].sort() as [string, string];
    const channel = {
      scid: (800_000n << 40n) | (7n << 16n),
      node1: a,
      node2: b,
      features: new Uint8Array(),
      updates: [
        {
          disabled: false,
          cltvExpiryDelta: 80,
          htlcMinimumMsat: 1000n,
          htlcMaximumMsat: 1_000_000_000n,
          feeBaseMsat: 1000,
          feeProportionalMillionths: 100,
        },
        null,
      ] as const,
    };
    for (const network of ["bitcoin", "testnet", "signet", "regtest"] as const) {
      const rgs = new RgsServer(() => now, CHAIN_HASHES[network]);
      rgs.source = () => [{ ...channel, updates: [...channel.updates] }];
      const bytes = rgs.snapshot(0).bytes;
      const held = ldk.NetworkGraph.constructor_new(LDK_NETWORK[network], logger);
      applyRgs(held, logger, bytes, now);
      expect(graphChannels(held).map((c) => c.scid)).toEqual([channel.scid]);
      const other = network === "bitcoin" ? "signet" : "bitcoin";
      const wrong = ldk.NetworkGraph.constructor_new(LDK_NETWORK[other], logger);
      expect(() => applyRgs(wrong, logger, bytes, now)).toThrow();
    }
  });
});

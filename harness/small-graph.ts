/**
 * Small public graphs for tests of the wallet's routing: node keys from small secrets, one forwarding
 * policy, and channels in LDK's order of node ids, served as a rapid gossip sync snapshot by the world's
 * own serializer.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hex } from "@scure/base";
import type { ChannelGossip, DirectionPolicy } from "../src/engine/lightning/gossip";
import { GossipHistory } from "../services/gossip/rgs";

/** A node's public key from a small secret (any 1 ≤ n < the curve order is a valid secret key). */
export const nodeKeyOf = (n: number): string => {
  const secret = new Uint8Array(32);
  new DataView(secret.buffer).setUint32(28, n);
  return hex.encode(secp256k1.getPublicKey(secret, true));
};

export const TEST_POLICY: DirectionPolicy = {
  disabled: false,
  cltvExpiryDelta: 40,
  htlcMinimumMsat: 1n,
  htlcMaximumMsat: 990_000_000n,
  feeBaseMsat: 1000,
  feeProportionalMillionths: 100,
};

/** The `i`th public channel between `x` and `y`, both directions on TEST_POLICY. */
export const testChannel = (i: number, x: string, y: string): ChannelGossip => {
  const [node1, node2] = x < y ? [x, y] : [y, x];
  return {
    scid: (700_000n << 40n) | (BigInt(i) << 16n),
    node1,
    node2,
    features: new Uint8Array(),
    updates: [TEST_POLICY, TEST_POLICY],
  };
};

/** A full snapshot of these channels. */
export const snapshotOf = (channels: ChannelGossip[]): Uint8Array => {
  const history = new GossipHistory();
  history.observe(channels);
  return history.snapshot(0).bytes;
};

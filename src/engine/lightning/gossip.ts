/**
 * The network graph as gossip describes it: its public channels and each direction's fees, read out of
 * LDK's `NetworkGraph`, and rapid gossip sync snapshots applied to it with LDK's own client
 * (`RapidGossipSync`). The world's RGS server writes what `graphChannels` reads from its routing node.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";

/** One direction's channel_update, as the rapid gossip sync format carries it. */
export interface DirectionPolicy {
  readonly disabled: boolean;
  readonly cltvExpiryDelta: number;
  readonly htlcMinimumMsat: bigint;
  readonly htlcMaximumMsat: bigint;
  readonly feeBaseMsat: number;
  readonly feeProportionalMillionths: number;
}

/** A public channel as gossip describes it; `node1` sorts before `node2` (BOLT 7), keys as 33-byte hex. */
export interface ChannelGossip {
  readonly scid: bigint;
  readonly node1: string;
  readonly node2: string;
  /** Channel features, as channel_announcement carries them (usually empty). */
  readonly features: Uint8Array;
  /** Direction 0 (node1 → node2) and 1; null until that side's update is known. */
  readonly updates: readonly [DirectionPolicy | null, DirectionPolicy | null];
}

/** The bindings answer an absent optional struct as one whose pointer is 0. */
const absent = (o: object | null): boolean => !o || !(o as unknown as { ptr: bigint }).ptr;

const policyOf = (u: ldk.ChannelUpdateInfo | null): DirectionPolicy | null => {
  if (!u || absent(u)) return null;
  const fees = u.get_fees();
  return {
    disabled: !u.get_enabled(),
    cltvExpiryDelta: u.get_cltv_expiry_delta(),
    htlcMinimumMsat: u.get_htlc_minimum_msat(),
    htlcMaximumMsat: u.get_htlc_maximum_msat(),
    feeBaseMsat: fees.get_base_msat() >>> 0,
    feeProportionalMillionths: fees.get_proportional_millionths() >>> 0,
  };
};

/** Every channel of `graph`, sorted by short channel id. */
export const graphChannels = (graph: ldk.NetworkGraph): ChannelGossip[] => {
  // A read lock on the graph: freed by hand (the bindings throw if the collector finds it held).
  const view = graph.read_only();
  const out: ChannelGossip[] = [];
  try {
    for (const scid of view.list_channels()) {
      const c = view.channel(scid);
      if (absent(c)) continue;
      out.push({
        scid,
        node1: hex.encode(c.get_node_one().as_slice()),
        node2: hex.encode(c.get_node_two().as_slice()),
        // written as a u16 length, then the bytes
        features: c.get_features().write().slice(2),
        updates: [policyOf(c.get_one_to_two()), policyOf(c.get_two_to_one())],
      });
    }
  } finally {
    view.free();
  }
  return out.sort((a, b) => (a.scid < b.scid ? -1 : a.scid > b.scid ? 1 : 0));
};

export class GossipError extends Error {}

/**
 * Applies a rapid gossip sync snapshot to `graph` with LDK's client; answers the timestamp to ask the
 * next delta from. `nowSecs` lets LDK refuse data more than two weeks old and prune stale channels.
 */
export const applyRgs = (
  graph: ldk.NetworkGraph,
  logger: ldk.Logger,
  bytes: Uint8Array,
  nowSecs: number,
): number => {
  const sync = ldk.RapidGossipSync.constructor_new(graph, logger);
  const r = sync.update_network_graph_no_std(bytes, ldk.Option_u64Z.constructor_some(BigInt(nowSecs)));
  if (r instanceof ldk.Result_u32GraphSyncErrorZ_OK) return r.res >>> 0;
  const err = (r as ldk.Result_u32GraphSyncErrorZ_Err).err;
  const why =
    err instanceof ldk.GraphSyncError_LightningError
      ? err.lightning_error.get_err()
      : err instanceof ldk.GraphSyncError_DecodeError
        ? `decode error (${err.decode_error.constructor.name})`
        : "unknown error";
  throw new GossipError(`The gossip snapshot could not be applied: ${why}`);
};

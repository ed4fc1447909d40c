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
 * A snapshot in parts, as the operator's server sends one when asked (`?parts`): "RGSP", a version byte
 * (1), a u32 part count, then each part as a u32 length and its bytes, every part an RGS snapshot of its
 * own. A server that does not know the query answers a plain snapshot ("LDK" …), read as one part.
 */
const PARTS_MAGIC = [0x52, 0x47, 0x53, 0x50, 1] as const;

/** The parts in one body (the server's side). */
export const packParts = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(9 + parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  out.set(PARTS_MAGIC);
  view.setUint32(5, parts.length);
  let at = 9;
  for (const p of parts) {
    view.setUint32(at, p.length);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
};

/** The parts of a body: a plain snapshot is one part; a body cut short is refused whole. */
export const unpackParts = (body: Uint8Array): Uint8Array[] => {
  if (!PARTS_MAGIC.every((b, i) => body[i] === b)) return [body];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  if (body.length < 9) throw new GossipError("The gossip snapshot is cut short");
  const count = view.getUint32(5);
  const parts: Uint8Array[] = [];
  let at = 9;
  for (let i = 0; i < count; i++) {
    const n = at + 4 <= body.length ? view.getUint32(at) : -1;
    if (n < 0 || at + 4 + n > body.length) throw new GossipError("The gossip snapshot is cut short");
    parts.push(body.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return parts;
};

/**
 * Applies a rapid gossip sync snapshot to `graph` with LDK's client; answers the timestamp to ask the
 * next delta from. `nowSecs` lets LDK refuse data more than two weeks old and prune stale channels.
 */
export const applyRgs = (
  graph: ldk.NetworkGraph,
  logger: ldk.Logger,
  bytes: Uint8Array,
  nowSecs: number | null,
): number => {
  const sync = ldk.RapidGossipSync.constructor_new(graph, logger);
  const r = sync.update_network_graph_no_std(
    bytes,
    nowSecs === null ? ldk.Option_u64Z.constructor_none() : ldk.Option_u64Z.constructor_some(BigInt(nowSecs)),
  );
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

/**
 * A turn of the event loop: what waits for the worker (a command, the node's loop) runs first. A message
 * to itself, not a timer: timers set one inside another are held at least 4 ms each, a wait longer than a
 * small part's own work.
 */
const nextTurn = () =>
  new Promise<void>((r) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      r();
    };
    port2.postMessage(null);
  });

/**
 * Applies a body of snapshot parts (`unpackParts`) one at a time, each in `step` (the node's own call),
 * with a turn of the event loop between them: a command waits at most one part. LDK checks the snapshot's
 * age on the first part and prunes stale channels after the last; the graph's sync timestamp moves only
 * once the last part is in (until then, and after a part LDK refuses, it is what it was, so a graph stored
 * meanwhile asks for the whole again). Answers the timestamp to ask from next.
 */
export const applyRgsParts = async (
  graph: ldk.NetworkGraph,
  logger: ldk.Logger,
  body: Uint8Array,
  nowSecs: number,
  step: <T>(f: () => T) => T,
  turn: () => Promise<void> = nextTurn,
): Promise<number> => {
  const parts = unpackParts(body);
  const before = step(() => {
    const t = graph.get_last_rapid_gossip_sync_timestamp();
    return t instanceof ldk.Option_u32Z_Some ? t.some >>> 0 : 0;
  });
  let next = before;
  for (const [i, part] of parts.entries()) {
    if (i > 0) await turn();
    const last = i === parts.length - 1;
    try {
      next = step(() => {
        const at = applyRgs(graph, logger, part, i === 0 || last ? nowSecs : null);
        if (!last) graph.set_last_rapid_gossip_sync_timestamp(before);
        return at;
      });
    } catch (e) {
      if (i > 0) step(() => graph.set_last_rapid_gossip_sync_timestamp(before));
      throw e;
    }
  }
  return next;
};

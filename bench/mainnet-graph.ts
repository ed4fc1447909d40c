/**
 * A rapid gossip sync snapshot shaped like mainnet's public lightning graph, generated here (no download):
 * about 13,000 nodes with channels and 50,000 public channels, written by the world's own RGS serializer
 * (harness/rgs.ts) so LDK's client reads it exactly as it reads the world's.
 *
 * The figures it follows are public network statistics (approximate, as of 2024):
 *  - Size: ~13,000-16,000 nodes with public channels and ~50,000-55,000 public channels, ~5,000 BTC of
 *    public capacity (mempool.space's Lightning dashboard, https://mempool.space/lightning and its
 *    network-statistics graphs; 1ML's statistics page, https://1ml.com/statistics).
 *  - Capacity: a mean channel of ~0.09-0.1 BTC and a median near 0.02-0.03 BTC, heavy-tailed (a few
 *    channels of 1-5 BTC), the minimum wallets accept near 20,000 sats (same sources).
 *  - Fees: a median base fee of 1,000 msat with a large share of nodes at 0 msat (the "zero base fee"
 *    movement), and a median fee rate of ~100 ppm with a long tail into thousands (mempool.space's
 *    "median fee rate" and "median base fee" figures; 1ML's fee statistics).
 *  - Degree: scale-free, most nodes with a few channels and the largest routing nodes with 1,000-3,000
 *    (Seres, Gulyás, Nagy, Burcsi, "Topological Analysis of Bitcoin's Lightning Network", 2019,
 *    arXiv:1901.04972; Rohrer, Malliaris, Tschorsch, "Discharged Payment Channels", 2019, arXiv:1904.10253).
 *  - CLTV expiry deltas: LDK's and LND's defaults (72, 80, 40, 144) dominate.
 *
 * The shape, not the exact values, is what matters for the figures the bench prints: how many bytes the
 * snapshot is, how long LDK takes to apply, store and read it, and how long routes take over it. The
 * generator is deterministic for a seed.
 */
import { createECDH } from "node:crypto";
import type { ChannelGossip, DirectionPolicy } from "../src/engine/lightning/gossip";
import { GossipHistory } from "../services/gossip/rgs";

export interface GraphShape {
  readonly nodes: number;
  readonly channels: number;
  readonly seed: number;
}

export const MAINNET_SHAPE: GraphShape = { nodes: 13_000, channels: 50_000, seed: 31 };

/** A small, fast, seeded generator (mulberry32). */
const rng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A log-normal draw with this median and spread (sigma of the underlying normal). */
const logNormal = (r: () => number, median: number, sigma: number) => {
  const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  return median * Math.exp(sigma * z);
};

const pick = <T>(r: () => number, weighted: readonly (readonly [number, T])[]): T => {
  let x = r();
  for (const [w, v] of weighted) {
    if (x < w) return v;
    x -= w;
  }
  return weighted[weighted.length - 1]![1];
};

/** One node's forwarding policy (nodes tend to use one policy for all their channels, with noise). */
const nodePolicy = (r: () => number) => ({
  feeBaseMsat: pick(r, [
    [0.4, 0],
    [0.45, 1000],
    [0.15, Math.floor(r() * 5000)],
  ]),
  feeProportionalMillionths: Math.min(5000, Math.max(0, Math.round(logNormal(r, 100, 1.3)))),
  cltvExpiryDelta: pick(r, [
    [0.35, 80],
    [0.25, 144],
    [0.2, 72],
    [0.15, 40],
    [0.05, 34],
  ]),
});

/** The public graph: nodes sorted into channels by preferential attachment (a scale-free degree spread). */
export const mainnetChannels = (shape: GraphShape = MAINNET_SHAPE): ChannelGossip[] => {
  const r = rng(shape.seed);
  // Real keys (OpenSSL's secp256k1: 13,000 of them in well under a second).
  const ecdh = createECDH("secp256k1");
  const keys: string[] = [];
  for (let i = 1; i <= shape.nodes; i++) {
    const secret = Buffer.alloc(32);
    secret.writeUInt32BE(shape.seed, 24);
    secret.writeUInt32BE(i, 28);
    ecdh.setPrivateKey(secret);
    keys.push(ecdh.getPublicKey("hex", "compressed"));
  }
  const policies = keys.map(() => nodePolicy(r));
  // Every node gets one channel first (no isolated nodes: they would not be in gossip), then the rest go
  // by attachment: an endpoint drawn from earlier channels' endpoints (degree-proportional) most times.
  const pairs = new Set<string>();
  const edges: [number, number][] = [];
  const add = (a: number, b: number) => {
    if (a === b) return false;
    const k = a < b ? `${a}:${b}` : `${b}:${a}`;
    if (pairs.has(k)) return false;
    pairs.add(k);
    edges.push([a, b]);
    return true;
  };
  // A node's pull grows with its rank as a power law (Zipf, exponent 0.8): the largest hubs end with
  // ~2,000 channels and most nodes a few (the mean is fixed by 50,000 channels over 13,000 nodes: 7.7).
  const cumulative: number[] = [];
  let total = 0;
  for (let i = 0; i < shape.nodes; i++) {
    total += 1 / (i + 1) ** 0.8;
    cumulative.push(total);
  }
  const hub = () => {
    const x = r() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const uniform = () => Math.floor(r() * shape.nodes);
  // Every node has a channel (a node without one is not in gossip), most of them to a hub.
  for (let i = 0; i < shape.nodes; i++) while (!add(i, r() < 0.8 ? hub() : uniform()));
  while (edges.length < shape.channels) add(hub(), r() < 0.85 ? hub() : uniform());

  // Channels were opened over the years: short channel ids from block 500,000 to 850,000, in order.
  const heights = edges.map(() => 500_000 + Math.floor(r() * 350_000)).sort((a, b) => a - b);
  const out: ChannelGossip[] = [];
  edges.forEach(([a, b], i) => {
    const scid = (BigInt(heights[i]!) << 40n) | (BigInt(Math.floor(r() * 3000)) << 16n) | BigInt(i % 4);
    const capacitySats = Math.min(500_000_000, Math.max(20_000, Math.round(logNormal(r, 2_500_000, 1.5))));
    const [n1, n2] = keys[a]! < keys[b]! ? [a, b] : [b, a];
    const direction = (n: number): DirectionPolicy | null => {
      if (r() < 0.03) return null; // a side that never sent an update
      const p = policies[n]!;
      return {
        disabled: r() < 0.04,
        cltvExpiryDelta: p.cltvExpiryDelta,
        htlcMinimumMsat: r() < 0.8 ? 1_000n : 1n,
        // LDK routes by htlc_maximum_msat when it cannot look the funding output up (as a wallet cannot).
        htlcMaximumMsat: BigInt(Math.floor(capacitySats * 0.99)) * 1000n,
        feeBaseMsat: p.feeBaseMsat,
        feeProportionalMillionths: p.feeProportionalMillionths,
      };
    };
    out.push({
      scid,
      node1: keys[n1]!,
      node2: keys[n2]!,
      features: new Uint8Array(),
      updates: [direction(n1), direction(n2)],
    });
  });
  return out;
};

/** The full RGS snapshot (`since` 0) of a mainnet-shaped graph, and the graph it came from. */
export const mainnetSnapshot = (shape: GraphShape = MAINNET_SHAPE) => {
  const channels = mainnetChannels(shape);
  const history = new GossipHistory();
  history.observe(channels);
  return { channels, snapshot: history.snapshot(0) };
};

/** Node degrees of a generated graph, sorted descending (for the bench's line on its shape). */
export const degrees = (channels: readonly ChannelGossip[]): number[] => {
  const d = new Map<string, number>();
  for (const c of channels) {
    d.set(c.node1, (d.get(c.node1) ?? 0) + 1);
    d.set(c.node2, (d.get(c.node2) ?? 0) + 1);
  }
  return [...d.values()].sort((a, b) => b - a);
};

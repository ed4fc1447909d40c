/**
 * The world's rapid gossip sync server lying, as a gossip server an attacker runs would: under
 * `/hostile/<scope>/rgs/snapshot/<t>` (the wallet's `rgs` setting), honest unless `POST /hostile
 * {"service":"rgs","scope":…,"mode":…}` says otherwise (harness/hostile.ts). A mode of the world only: the
 * gossip server an operator runs (services/) has no such route.
 *
 *   garbage      the honest snapshot's header (magic, version, chain hash, timestamp) and counts, then noise
 *   hang         accepts the request and never answers
 *   absurd-fees  a valid snapshot of the same graph, newer than any the honest server served, in which each
 *                channel direction forwarded by a node of `from` (33-byte hex ids; every node when absent)
 *                asks `base` msat (4,000,000 by default) plus `ppm` millionths (1,000,000: the whole amount)
 */
import type { ChannelGossip } from "../src/engine/lightning/gossip";
import type { RgsServer } from "./gossip";
import type { Hostility } from "./hostile";
import { GossipHistory, REGTEST_CHAIN_HASH } from "../services/gossip/rgs";
import type { RouteTable } from "./server";

/** The graph `rgs` serves, with the fees of the directions forwarded by `from` (all when null) replaced. */
const withFees = (
  graph: readonly ChannelGossip[],
  from: ReadonlySet<string> | null,
  feeBaseMsat: number,
  feeProportionalMillionths: number,
): ChannelGossip[] =>
  graph.map((c) => ({
    ...c,
    updates: [0, 1].map((d) => {
      const u = c.updates[d];
      // Direction 0 is forwarded by node 1, direction 1 by node 2 (BOLT 7).
      const forwarder = d === 0 ? c.node1 : c.node2;
      return u && (from === null || from.has(forwarder))
        ? { ...u, feeBaseMsat, feeProportionalMillionths }
        : u;
    }) as unknown as ChannelGossip["updates"],
  }));

const u32 = (v: unknown, fallback: number): number =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffff_ffff ? v : fallback;

export const hostileRgsRoutes = (
  rgs: RgsServer,
  hostility: Hostility,
  chainHash: string = REGTEST_CHAIN_HASH,
): RouteTable => {
  // Each lie is stamped after the last one too: two lies within one second would otherwise carry the same
  // timestamp, and the wallet rightly keeps the update it already holds.
  let stamped = 0;
  const stamp = () => {
    stamped = Math.max(stamped + 1, Math.floor(Date.now() / 1000) + 1);
    return stamped;
  };
  return [
    [
      "GET",
      /^\/hostile\/([a-z0-9-]{1,40})\/rgs\/snapshot\/(\d{1,10})$/,
      (m) => {
        const since = Number(m[2]);
        const lie = hostility.of("rgs", m[1]!);
        if (lie?.mode === "hang") return new Promise(() => {});
        if (lie?.mode === "absurd-fees") {
          rgs.refresh();
          const from = Array.isArray(lie.options.from)
            ? new Set(lie.options.from.filter((x): x is string => typeof x === "string"))
            : null;
          const graph = withFees(
            rgs.source?.() ?? [],
            from,
            u32(lie.options.base, 4_000_000),
            u32(lie.options.ppm, 1_000_000),
          );
          // Seen a second after anything the honest server stamped: the wallet takes these updates as newest.
          const at = stamp();
          const history = new GossipHistory(() => at, chainHash);
          history.observe(graph);
          return { bytes: Buffer.from(history.snapshot(0).bytes) };
        }
        const honest = rgs.snapshot(since).bytes;
        if (lie?.mode === "garbage") {
          // "LDK", version, chain hash, timestamp and the node count as served; then noise where the ids go.
          const head = honest.slice(0, Math.min(honest.length, 44));
          const noise = crypto.getRandomValues(new Uint8Array(4_096));
          return { bytes: Buffer.concat([head, noise]) };
        }
        return { bytes: Buffer.from(honest) };
      },
    ],
  ];
};

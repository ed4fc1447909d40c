/**
 * A snapshot in parts: applied one part at a time by the wallet's client (LDK's own, a part per call), the
 * parts give the graph the whole snapshot gives, for a first sync of a mainnet-shaped graph and for a delta
 * after it; the sync timestamp moves only once the last part is in, and stays where it was when a part is
 * refused; a command queued meanwhile waits at most one part.
 */
import * as ldk from "lightningdevkit";
import { beforeAll, describe, expect, test } from "vitest";
import { mainnetChannels } from "../../bench/mainnet-graph";
import {
  applyRgs,
  applyRgsParts,
  type ChannelGossip,
  GossipError,
  graphChannels,
  packParts,
  unpackParts,
} from "../../src/engine/lightning/gossip";
import { ldkLogger } from "../../src/engine/lightning/logger";
import { loadLdk } from "./pipes";
import { GossipHistory } from "./rgs";

const PER_PART = 300;

describe("a rapid gossip sync snapshot in parts", () => {
  let logger: ldk.Logger;
  const newGraph = () => ldk.NetworkGraph.constructor_new(ldk.Network.LDKNetwork_Regtest, logger);
  const counts = (g: ldk.NetworkGraph) => {
    const view = g.read_only();
    try {
      return { channels: view.list_channels().length, nodes: view.list_nodes().length };
    } finally {
      view.free();
    }
  };
  const lastSync = (g: ldk.NetworkGraph) => {
    const t = g.get_last_rapid_gossip_sync_timestamp();
    return t instanceof ldk.Option_u32Z_Some ? t.some : null;
  };
  const nowSecs = () => Math.floor(Date.now() / 1000);
  const step = <T>(f: () => T): T => f();
  const noTurn = async () => {};

  // Mainnet's shape at a small size: hubs with hundreds of channels, most nodes with a few.
  let channels: ChannelGossip[];
  beforeAll(async () => {
    await loadLdk();
    logger = ldkLogger(() => {});
    channels = mainnetChannels({ nodes: 600, channels: 2_000, seed: 7 });
  });

  test("the parts of a first sync give the whole snapshot's graph", async () => {
    const history = new GossipHistory();
    history.observe(channels);
    const whole = history.snapshot(0);
    const parted = history.snapshotParts(0, PER_PART);
    expect(parted.parts.length).toBeGreaterThanOrEqual(10);
    expect(parted.latestSeen).toBe(whole.latestSeen);

    const byWhole = newGraph();
    applyRgs(byWhole, logger, whole.bytes, nowSecs());
    const byParts = newGraph();
    const stamps: (number | null)[] = [];
    const next = await applyRgsParts(byParts, logger, packParts(parted.parts), nowSecs(), step, async () => {
      stamps.push(lastSync(byParts));
    });

    expect(counts(byParts)).toEqual({ channels: 2_000, nodes: 600 });
    expect(counts(byParts)).toEqual(counts(byWhole));
    expect(graphChannels(byParts)).toEqual(graphChannels(byWhole));
    expect(next).toBe(whole.latestSeen);
    expect(lastSync(byParts)).toBe(whole.latestSeen);
    // Between parts the graph still says "never synced": one stored then asks for the whole again.
    expect(stamps).toHaveLength(parted.parts.length - 1);
    expect(new Set(stamps)).toEqual(new Set([0]));
  });

  test("the parts of a delta give the whole delta's graph", async () => {
    let t = nowSecs() - 100;
    const history = new GossipHistory(() => t);
    history.observe(channels.slice(0, 1_600));
    const first = history.snapshot(0);
    t += 10;
    // New channels, and new fees on old ones.
    const changed = channels.map((c, i) =>
      i % 7 === 0 && c.updates[0]
        ? { ...c, updates: [{ ...c.updates[0], feeBaseMsat: 4_242 }, c.updates[1]] }
        : c,
    ) as ChannelGossip[];
    history.observe(changed);
    const whole = history.snapshot(first.latestSeen);
    const parted = history.snapshotParts(first.latestSeen, PER_PART);
    expect(parted.parts.length).toBeGreaterThan(1);

    const byWhole = newGraph();
    const byParts = newGraph();
    for (const g of [byWhole, byParts]) applyRgs(g, logger, first.bytes, nowSecs());
    applyRgs(byWhole, logger, whole.bytes, nowSecs());
    await applyRgsParts(byParts, logger, packParts(parted.parts), nowSecs(), step, noTurn);
    expect(counts(byParts)).toEqual(counts(byWhole));
    expect(graphChannels(byParts)).toEqual(graphChannels(byWhole));
    expect(graphChannels(byParts).filter((c) => c.updates[0]?.feeBaseMsat === 4_242).length).toBeGreaterThan(
      200,
    );
    expect(lastSync(byParts)).toBe(whole.latestSeen);
  });

  test("a command that arrives while a first sync is applied waits at most one part", async () => {
    const history = new GossipHistory();
    history.observe(channels);
    const parted = history.snapshotParts(0, PER_PART);
    const g = newGraph();
    // What the worker does: each part is one call on the node; a command is a task queued meanwhile.
    const order: ("part" | "command")[] = [];
    let applying = true;
    const command = () => {
      if (!applying) return;
      order.push("command");
      setTimeout(command, 0);
    };
    setTimeout(command, 0);
    await applyRgsParts(g, logger, packParts(parted.parts), nowSecs(), (f) => {
      order.push("part");
      return f();
    });
    applying = false;
    // The first step reads the sync timestamp; from then on no two parts run without a command between them.
    const steps = order.slice(order.indexOf("part") + 1);
    expect(steps.filter((s) => s === "part")).toHaveLength(parted.parts.length);
    expect(steps.join(" ")).not.toContain("part part");
  });

  test("a part LDK refuses leaves the sync timestamp where it was", async () => {
    const history = new GossipHistory();
    history.observe(channels);
    const parts = history.snapshotParts(0, PER_PART).parts.map((p) => p.slice());
    // The third part's chain is not this network's.
    const third = parts[2]!;
    third[5] = third[5]! ^ 0xff;
    const g = newGraph();
    await expect(applyRgsParts(g, logger, packParts(parts), nowSecs(), step, noTurn)).rejects.toBeInstanceOf(
      GossipError,
    );
    expect(lastSync(g)).toBe(0);
  });

  test("a plain snapshot is one part; a body cut short is refused", () => {
    const history = new GossipHistory();
    history.observe(channels.slice(0, 10));
    const whole = history.snapshot(0).bytes;
    expect(unpackParts(whole)).toEqual([whole]);
    const body = packParts([whole, whole]);
    expect(unpackParts(body)).toEqual([whole, whole]);
    expect(() => unpackParts(body.subarray(0, body.length - 1))).toThrow(GossipError);
  });
});

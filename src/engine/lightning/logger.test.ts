/**
 * LDK's logger as the node builds it: the lines the wallet keeps (debug and above) reach its log with
 * their module; the gossip and trace lines LDK writes for every channel of a snapshot never do.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { beforeAll, describe, expect, it } from "vitest";
import { loadLdk } from "../../../services/gossip/pipes";
import { nodeKeyOf, snapshotOf, testChannel } from "../../../harness/small-graph";
import { ldkLogger } from "./logger";
import { Routing } from "./routing";
import { MemoryBlobStore } from "./store";

beforeAll(() => loadLdk());

/** A line a → b → c: two public channels with both directions' updates. */
const snapshot = () => {
  const [a, b, c] = [nodeKeyOf(1), nodeKeyOf(2), nodeKeyOf(3)];
  return { a, c, bytes: snapshotOf([testChannel(1, a, b), testChannel(2, b, c)]) };
};

describe("LDK's logger", () => {
  it("drops the gossip lines of a snapshot and passes its summary and a route's lines with their module", async () => {
    const lines: { level: string; line: string }[] = [];
    const logger = ldkLogger((level, line) => lines.push({ level, line }));
    const routing = await Routing.load(
      new MemoryBlobStore(),
      ldk.Network.LDKNetwork_Regtest,
      logger,
      () => {},
      () => Date.now(),
    );
    const { a, c, bytes } = snapshot();
    routing.applySnapshot(bytes);
    expect(routing.channels()).toHaveLength(2);
    expect(routing.channelCount()).toBe(2);
    // LDK wrote a gossip line for every channel and update: none of them is the wallet's; its summary is.
    expect(lines.map((l) => l.line)).toEqual([
      expect.stringMatching(
        /^lightning_rapid_gossip_sync::processing: Processing RGS update .* 2 channel announcements and 4 channel updates/,
      ),
    ]);
    lines.length = 0;

    const route = ldk.UtilMethods.constructor_find_route(
      hex.decode(a),
      ldk.RouteParameters.constructor_from_payment_params_and_value(
        ldk.PaymentParameters.constructor_from_node_id(hex.decode(c), 40),
        1_000_000n,
      ),
      routing.graph,
      null,
      logger,
      routing.scorer.as_ScoreLookUp(),
      ldk.ProbabilisticScoringFeeParameters.constructor_default(),
      new Uint8Array(32),
    );
    expect(route).toBeInstanceOf(ldk.Result_RouteLightningErrorZ_OK);
    // The router says what it found at info level: kept, as a debug line of the wallet's log.
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.level === "debug" && l.line.startsWith("lightning::"))).toBe(true);
    expect(lines.some((l) => /route/i.test(l.line))).toBe(true);
  });
});

/**
 * The services' rapid gossip sync against a lightning network: a `services` instance pointed at the local
 * world's chain (as a deployment is at signet's) takes gossip from two of the network's public nodes
 * (`GOSSIP_PEERS`), and its snapshot, applied by LDK's client, holds every public channel.
 */
import * as ldk from "lightningdevkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { applyRgs, graphChannels } from "../src/engine/lightning/gossip";
import { type Harness, startHarness } from "../harness/world";
import { loadLdk } from "./gossip/pipes";
import { until } from "../harness/until";
import type { RunningServices } from "./app";
import { startTestServices } from "./testing/services";

describe("the services' gossip node on the world's network", () => {
  let world: Harness;
  let services: RunningServices;
  beforeAll(async () => {
    world = await startHarness({ port: 0, network: true });
    const network = await world.network();
    services = await startTestServices({
      ESPLORA_URL: world.esploraUrl,
      GOSSIP_PEERS: [world.lightning.address, network.node("dave").address].join(","),
      RELAYS: world.nostr.relayUrl,
      HERMES_SECRET: "33".repeat(32),
    });
  }, 600_000);
  afterAll(async () => {
    await services?.stop();
    await world?.stop();
  }, 120_000);

  test("serves every public channel of the network", async () => {
    const network = await world.network();
    const expected = network
      .graph()
      .map((c) => c.scid)
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(7);
    await loadLdk();
    const logger = ldk.Logger.new_impl({ log: () => {} } as ldk.LoggerInterface);
    const held = () => {
      const graph = ldk.NetworkGraph.constructor_new(ldk.Network.LDKNetwork_Regtest, logger);
      return fetch(`${services.url}/rgs/snapshot/0`)
        .then((r) => r.arrayBuffer())
        .then((b) => {
          applyRgs(graph, logger, new Uint8Array(b), Math.floor(Date.now() / 1000));
          return graphChannels(graph)
            .map((c) => c.scid)
            .sort();
        });
    };
    let got: bigint[] = [];
    await until(
      "the services' gossip node to learn the network",
      async () => {
        got = await held();
        return got.length >= expected.length;
      },
      300_000,
      1_000,
    ).catch(() => undefined);
    expect(got).toEqual(expected);
  }, 400_000);
});

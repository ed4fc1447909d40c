/**
 * The `scorer` setting: a trained scorer from a server is read with LDK's own reader before the node is
 * built and used in place of the wallet's; an answer that is not one (or no answer) leaves the wallet on
 * its stored scorer. The server here is a real HTTP server on loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadLdk } from "../../../services/gossip/pipes";
import { nodeKeyOf, snapshotOf, testChannel } from "../../../harness/small-graph";
import { globalFetch } from "../http/bounded";
import { applyRgs } from "./gossip";
import { GRAPH_KEY, Routing, SCORER_KEY } from "./routing";
import { fetchScorer } from "./scorer";
import { MemoryBlobStore } from "./store";

let logger: ldk.Logger;
let server: Server;
let base = "";
const answers = new Map<string, { status: number; body: Uint8Array }>();

beforeAll(async () => {
  await loadLdk();
  logger = ldk.Logger.new_impl({ log: () => {} } as ldk.LoggerInterface);
  server = createServer((req, res) => {
    const a = answers.get(req.url ?? "") ?? { status: 404, body: new Uint8Array() };
    res.writeHead(a.status, { "content-type": "application/octet-stream" });
    res.end(Buffer.from(a.body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A scorer that learnt something: a payment failed on the one channel of a small graph. */
const trainedScorer = (): Uint8Array => {
  const [a, b] = [nodeKeyOf(1), nodeKeyOf(2)].sort();
  const channel = testChannel(1, a!, b!);
  const scid = channel.scid;
  const graph = ldk.NetworkGraph.constructor_new(ldk.Network.LDKNetwork_Regtest, logger);
  applyRgs(graph, logger, snapshotOf([channel]), Math.floor(Date.now() / 1000));
  const decay = ldk.ProbabilisticScoringDecayParameters.constructor_default();
  const scorer = ldk.ProbabilisticScorer.constructor_new(decay, graph, logger);
  const hop = ldk.RouteHop.constructor_new(
    hex.decode(b!),
    ldk.NodeFeatures.constructor_empty(),
    scid,
    ldk.ChannelFeatures.constructor_empty(),
    500_000_000n,
    40,
    true,
  );
  const path = ldk.Path.constructor_new([hop], null);
  scorer.as_ScoreUpdate().payment_path_failed(path, scid, BigInt(Math.floor(Date.now() / 1000)));
  return scorer.write();
};

const load = (store: MemoryBlobStore, remoteScorer: Uint8Array | null, log: string[] = []) =>
  Routing.load(
    store,
    ldk.Network.LDKNetwork_Regtest,
    logger,
    (_level, m) => log.push(m),
    () => Date.now(),
    { remoteScorer },
  );

describe("the scorer server's answer", () => {
  it("is the node's scorer when LDK reads it", async () => {
    const trained = trainedScorer();
    const fresh = (await load(new MemoryBlobStore(), null)).scorer.write();
    expect(hex.encode(trained)).not.toBe(hex.encode(fresh));
    const routing = await load(new MemoryBlobStore(), trained);
    expect(hex.encode(routing.scorer.write())).toBe(hex.encode(trained));
  });

  it("is set aside for the stored scorer when it is not a scorer", async () => {
    const trained = trainedScorer();
    const store = new MemoryBlobStore();
    const saved = await load(new MemoryBlobStore(), trained);
    await store.put([
      { key: GRAPH_KEY, value: saved.graph.write() },
      { key: SCORER_KEY, value: trained },
    ]);
    const log: string[] = [];
    const routing = await load(store, Uint8Array.from([0xff, 0x01, 0x02, 0x03, 0x04]), log);
    expect(hex.encode(routing.scorer.write())).toBe(hex.encode(trained));
    expect(log.join("\n")).toMatch(/not a scorer LDK can read/);
  });

  it("is fetched within bounds; a server that fails or answers nothing gives none", async () => {
    const trained = trainedScorer();
    answers.set("/v1/scorer", { status: 200, body: trained });
    answers.set("/broken", { status: 500, body: new TextEncoder().encode("oops") });
    answers.set("/empty", { status: 200, body: new Uint8Array() });
    const log: string[] = [];
    const got = await fetchScorer(`${base}/v1/scorer`, globalFetch, (_l, m) => log.push(m));
    expect(got && hex.encode(got)).toBe(hex.encode(trained));
    expect(await fetchScorer(`${base}/broken`, globalFetch, (_l, m) => log.push(m))).toBeNull();
    expect(await fetchScorer(`${base}/empty`, globalFetch, (_l, m) => log.push(m))).toBeNull();
    expect(await fetchScorer(null, globalFetch, (_l, m) => log.push(m))).toBeNull();
    expect(log).toHaveLength(2);
  });
});

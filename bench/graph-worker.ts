/**
 * Runs in Chromium's module worker (bundled by bench/graph.ts): the wallet's lightning engine code that
 * holds the network graph (`Routing`: LDK's NetworkGraph and ProbabilisticScorer, stored as the wallet
 * stores them) takes a mainnet-shaped RGS snapshot, is stored and read back, and finds routes.
 */
/// <reference lib="webworker" />
import * as ldk from "lightningdevkit";
import { initializeWith } from "../src/engine/lightning/ldk-wasm";
import { ldkLogger } from "../src/engine/lightning/logger";
import { Routing } from "../src/engine/lightning/routing";
import { MemoryBlobStore } from "../src/engine/lightning/store";

type Job = { snapshot: ArrayBuffer; from: string; destinations: string[]; wasm: string };

let memory: WebAssembly.Memory | null = null;
const wasmMb = () => (memory ? memory.buffer.byteLength / 1_048_576 : 0);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

self.onmessage = async (ev: MessageEvent<Job>) => {
  const job = ev.data;
  const own = WebAssembly.instantiate;
  // LDK's linear memory, to tell how much the graph takes there (it is outside the JavaScript heap).
  WebAssembly.instantiate = (async (m: WebAssembly.Module, imports?: WebAssembly.Imports) => {
    const instance = (await own(m, imports)) as unknown as WebAssembly.Instance;
    memory = instance.exports.memory as WebAssembly.Memory;
    return instance;
  }) as typeof WebAssembly.instantiate;
  await initializeWith(ldk, job.wasm, WebAssembly.compileStreaming(fetch(job.wasm)));
  WebAssembly.instantiate = own;
  const log = () => {};
  // The node's own logger: how LDK's log lines reach it is part of what the snapshot costs.
  const logger = ldkLogger(log);
  const now = () => Date.now();
  const store = new MemoryBlobStore();
  const regtest = ldk.Network.LDKNetwork_Regtest;
  self.postMessage({ kind: "ready", wasmMb: wasmMb() });
  await new Promise<void>((r) => {
    self.onmessage = () => r();
  });

  const routing = await Routing.load(store, regtest, logger, log, now);
  let t = performance.now();
  routing.applySnapshot(new Uint8Array(job.snapshot));
  const applyMs = performance.now() - t;
  t = performance.now();
  const blobs = routing.blobs();
  await store.put(blobs);
  const writeMs = performance.now() - t;
  const channels = routing.channelCount();
  const graphBytes = blobs[0]!.value.length;
  const scorerBytes = blobs[1]!.value.length;
  self.postMessage({
    kind: "applied",
    applyMs,
    writeMs,
    channels,
    graphBytes,
    scorerBytes,
    wasmMb: wasmMb(),
  });
  await new Promise<void>((r) => {
    self.onmessage = () => r();
  });

  t = performance.now();
  const reloaded = await Routing.load(store, regtest, logger, log, now);
  const reloadMs = performance.now() - t;
  const reloadedChannels = reloaded.channelCount();

  // Routes as the wallet's router finds them, from a well-connected node (the wallet's LSP's place; the
  // wallet's own first hop adds one channel), for 50,000 sats with LDK's default scoring.
  const params = ldk.ProbabilisticScoringFeeParameters.constructor_default();
  const from = hexBytes(job.from);
  const times: number[] = [];
  let found = 0;
  const hops: number[] = [];
  for (const d of job.destinations) {
    const route = ldk.RouteParameters.constructor_from_payment_params_and_value(
      ldk.PaymentParameters.constructor_from_node_id(hexBytes(d), 40),
      50_000_000n,
    );
    const seed = crypto.getRandomValues(new Uint8Array(32));
    t = performance.now();
    const r = ldk.UtilMethods.constructor_find_route(
      from,
      route,
      reloaded.graph,
      null,
      logger,
      reloaded.scorer.as_ScoreLookUp(),
      params,
      seed,
    );
    times.push(performance.now() - t);
    if (r instanceof ldk.Result_RouteLightningErrorZ_OK) {
      found++;
      hops.push(r.res.get_paths()[0]?.get_hops().length ?? 0);
    }
  }
  self.postMessage({
    kind: "routed",
    reloadMs,
    reloadedChannels,
    found,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    medianHops: percentile(hops, 50),
    wasmMb: wasmMb(),
  });
};

const hexBytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

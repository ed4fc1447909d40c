/**
 * Runs in Chromium's module worker (bundled by bench/graph.ts): the wallet's lightning engine code that
 * holds the network graph (`Routing`: LDK's NetworkGraph and ProbabilisticScorer, stored as the wallet
 * stores them) takes a mainnet-shaped RGS snapshot, is stored and read back, and finds routes.
 */
/// <reference lib="webworker" />
import * as ldk from "lightningdevkit";
import { applyRgs } from "../src/engine/lightning/gossip";
import { initializeWith } from "../src/engine/lightning/ldk-wasm";
import { ldkLogger } from "../src/engine/lightning/logger";
import { Routing } from "../src/engine/lightning/routing";
import { MemoryBlobStore } from "../src/engine/lightning/store";

type Job = { snapshot: ArrayBuffer; parts: ArrayBuffer; from: string; destinations: string[]; wasm: string };

// A command to the node's worker: answered at once, when the worker gets to it (the page times the wait).
self.addEventListener("message", (ev: MessageEvent) => {
  if ((ev.data as { kind?: string })?.kind === "ping") self.postMessage({ kind: "pong", id: ev.data.id });
});

let memory: WebAssembly.Memory | null = null;
const wasmMb = () => (memory ? memory.buffer.byteLength / 1_048_576 : 0);

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

self.onmessage = async (ev: MessageEvent<Job>) => {
  if ((ev.data as { kind?: string })?.kind === "ping") return;
  // One job; what comes after it is a "go" or a ping.
  self.onmessage = null;
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
  await go();

  const routing = await Routing.load(store, regtest, logger, log, now);
  // As the node applies a first sync: part by part, each in a call of its own, commands answered between.
  const steps: number[] = [];
  let t = performance.now();
  await routing.applyInSteps(new Uint8Array(job.parts), (f) => {
    const s = performance.now();
    try {
      return f();
    } finally {
      steps.push(performance.now() - s);
    }
  });
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
    parts: steps.length - 1,
    longestStep: Math.max(...steps),
    stepsMs: steps.reduce((a, b) => a + b, 0),
    writeMs,
    channels,
    graphBytes,
    scorerBytes,
    wasmMb: wasmMb(),
  });
  await go();

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
  await go();

  // The same snapshot whole, in one LDK call (how a first sync was applied before it came in parts).
  const whole = ldk.NetworkGraph.constructor_new(regtest, logger);
  t = performance.now();
  applyRgs(whole, logger, new Uint8Array(job.snapshot), Math.floor(Date.now() / 1000));
  const wholeMs = performance.now() - t;
  self.postMessage({ kind: "whole", wholeMs });
};

/** The page's next "go". */
const go = () =>
  new Promise<void>((r) => {
    const on = (ev: MessageEvent) => {
      if ((ev.data as { kind?: string })?.kind === "ping") return;
      self.removeEventListener("message", on);
      r();
    };
    self.addEventListener("message", on);
  });

const hexBytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

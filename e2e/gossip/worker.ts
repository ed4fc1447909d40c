/**
 * Runs in Chromium's module worker (bundled by e2e/gossip-worker.spec.ts): the wallet's routing code takes a
 * first sync in parts as the node does (`Routing.applyInSteps`, each part one call of the node), while the
 * page sends it commands. Each part's start and end, and each command's answer, are stamped on the clock the
 * page shares (`performance.timeOrigin + performance.now()`).
 */
/// <reference lib="webworker" />
import * as ldk from "lightningdevkit";
import { initializeWith } from "../../src/engine/lightning/ldk-wasm";
import { ldkLogger } from "../../src/engine/lightning/logger";
import { Routing } from "../../src/engine/lightning/routing";
import { MemoryBlobStore } from "../../src/engine/lightning/store";

const clock = () => performance.timeOrigin + performance.now();

type Message = { kind: "command"; id: number } | { kind: "apply"; parts: ArrayBuffer; wasm: string };

self.onmessage = async (ev: MessageEvent<Message>) => {
  const m = ev.data;
  if (m.kind === "command") {
    self.postMessage({ kind: "answer", id: m.id, at: clock() });
    return;
  }
  await initializeWith(ldk, m.wasm, WebAssembly.compileStreaming(fetch(m.wasm)));
  const log = () => {};
  const routing = await Routing.load(
    new MemoryBlobStore(),
    ldk.Network.LDKNetwork_Regtest,
    ldkLogger(log),
    log,
    () => Date.now(),
  );
  self.postMessage({ kind: "loaded" });
  const parts: { start: number; end: number }[] = [];
  const start = clock();
  await routing.applyInSteps(new Uint8Array(m.parts), (f) => {
    const part = { start: clock(), end: 0 };
    try {
      return f();
    } finally {
      part.end = clock();
      parts.push(part);
    }
  });
  self.postMessage({ kind: "applied", start, end: clock(), parts, channels: routing.channelCount() });
};

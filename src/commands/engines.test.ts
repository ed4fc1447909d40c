import { describe, expect, it } from "vitest";
import type { Engine, Platform } from "../engine/engine";
import { initialStates } from "../projections";
import { type EngineEnv, EngineRunner, type EngineStatus } from "./engines";
import { lightningLive } from "./lightning/hooks";

const platform: Platform = {
  fetch: () => Promise.reject(new Error("no network in this test")),
  makeSocket: () => {
    throw new Error("no sockets in this test");
  },
  loadLdk: () => Promise.reject(new Error("no LDK in this test")),
};

const env: EngineEnv = {
  config: { network: "regtest", esplora: "", priceSource: "", proxy: null, lsp: null },
  platform,
  store: { get: async () => undefined, put: async () => {}, keys: async () => [] },
  hooks: () => ({}) as never,
};

describe("the engines' lifecycle", () => {
  it("starts what the wallet needs, reports each step, and drops an engine that failed while running", async () => {
    const seen: [string, EngineStatus["state"]][] = [];
    const port = { running: true };
    const onchain: Engine<"onchain"> = {
      name: "onchain",
      needed: () => true,
      start: async () => port as never,
      stop: async () => {
        port.running = false;
      },
    };
    const lightning: Engine<"lightning"> = {
      name: "lightning",
      needed: (s) => !s.wallet.safe_mode,
      start: async () => {
        throw new Error("no node here");
      },
      stop: async () => {},
    };
    const runner = new EngineRunner([onchain, lightning], (name, s) => seen.push([name, s.state]));
    runner.startNeeded(initialStates(), "words", env);
    expect(runner.isStarting("onchain")).toBe(true);
    await runner.whenStarted("onchain");
    await runner.whenStarted("lightning");
    expect(runner.port("onchain")).toBe(port);
    expect(seen).toEqual([
      ["onchain", "starting"],
      ["lightning", "starting"],
      ["onchain", "ready"],
      ["lightning", "failed"],
    ]);
    runner.failed("onchain", "LDK panicked");
    expect(runner.port("onchain")).toBeNull();
    expect(seen.at(-1)).toEqual(["onchain", "failed"]);
    await runner.stopAll();
  });

  it("shows a failed node with its reason, and nothing of it waiting for the storage server", () => {
    expect(lightningLive({ state: "failed", error: "The lightning engine stopped" }, null)).toEqual({
      lightning: "failed",
      lightning_stage: null,
      lightning_error: "The lightning engine stopped",
      storage_waiting: false,
      storage_waiting_for: [],
    });
    expect(lightningLive({ state: "not_needed" }, null)).toMatchObject({ lightning: "safe_mode" });
  });
});

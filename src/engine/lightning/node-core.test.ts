import { beforeAll, describe, expect, it } from "vitest";
import { loadLdk } from "../../../services/gossip/pipes";
import { makeEsplora } from "../onchain/esplora";
import { EsploraChain } from "./chain";
import { NodeCore } from "./node-core";
import { NodeError } from "./policy";
import { MemoryBlobStore } from "./store";

beforeAll(async () => {
  await loadLdk();
});

const core = (onFatal: (m: string) => void) =>
  new NodeCore(
    {
      seed: new Uint8Array(32).fill(3),
      network: "regtest",
      store: new MemoryBlobStore(),
      chain: new EsploraChain(
        makeEsplora("http://127.0.0.1:9", (i, init) => fetch(i, init)),
        () => {},
      ),
      log: () => {},
      role: "wallet",
      connect: () => Promise.reject(new Error("offline")),
      fundChannel: () => Promise.reject(new Error("no funds")),
      sweepScript: () => Promise.reject(new Error("no wallet")),
      onEvent: () => {},
      onFatal,
    },
    () => {},
  );

describe("a panic inside LDK", () => {
  it("stops the node, tells the wallet once, and refuses every later call with the reason", () => {
    const told: string[] = [];
    const c = core((m) => told.push(m));
    c.timers.push(setInterval(() => {}, 1_000));
    // What LDK's wasm throws when its Rust code panics.
    c.guard("persist", () => {
      throw new WebAssembly.RuntimeError("unreachable");
    });
    expect(c.stopped).toBe(true);
    expect(c.timers).toHaveLength(0);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/internal error .*unreachable.*Restart the wallet/);
    expect(() => c.call(() => "pay")).toThrow(NodeError);
    c.guard("again", () => {
      throw new WebAssembly.RuntimeError("unreachable");
    });
    expect(told).toHaveLength(1);
  });

  it("an error LDK answers is not a panic: the node goes on", () => {
    const told: string[] = [];
    const c = core((m) => told.push(m));
    c.guard("tick", () => {
      throw new Error("peer misbehaved");
    });
    expect(c.stopped).toBe(false);
    expect(told).toHaveLength(0);
    expect(c.call(() => "pay")).toBe("pay");
    expect(() =>
      c.call(() => {
        throw new WebAssembly.RuntimeError("unreachable");
      }),
    ).toThrow(NodeError);
    expect(told).toHaveLength(1);
  });
});

import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import * as ldk from "lightningdevkit";
import { describe, expect, it } from "vitest";
import { initializeWith } from "./ldk-wasm";

describe("LDK's wasm compiled beside its bindings", () => {
  it("the pinned bindings start on a module compiled beforehand, without fetching the wasm again", async () => {
    const path = createRequire(import.meta.url).resolve("lightningdevkit/liblightningjs.wasm");
    const compiled = WebAssembly.compile(new Uint8Array(await readFile(path)));
    const fetched: string[] = [];
    const ownFetch = globalThis.fetch;
    const ownInstantiate = WebAssembly.instantiateStreaming;
    const offline = (async (input: RequestInfo | URL) => {
      fetched.push(String(input));
      throw new Error("offline");
    }) as typeof fetch;
    globalThis.fetch = offline;
    try {
      await initializeWith(ldk, "https://wallet.invalid/assets/liblightningjs.wasm", compiled);
      // The stand-ins were for the loader's first steps only.
      expect(globalThis.fetch).toBe(offline);
      expect(WebAssembly.instantiateStreaming).toBe(ownInstantiate);
    } finally {
      globalThis.fetch = ownFetch;
    }
    expect(fetched).toEqual([]);
    // LDK runs: a key manager from a seed gives the node key that seed always gives.
    const keys = ldk.KeysManager.constructor_new(new Uint8Array(32).fill(7), 1n, 1);
    const id = keys.as_NodeSigner().get_node_id(ldk.Recipient.LDKRecipient_Node);
    expect(id).toBeInstanceOf(ldk.Result_PublicKeyNoneZ_OK);
    expect((id as ldk.Result_PublicKeyNoneZ_OK).res).toHaveLength(33);
  });
});

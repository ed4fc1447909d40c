import { describe, expect, it } from "vitest";
import { defaultNostrServers, resolveNostrServers } from "../config";
import { nostrFormOf, saveNostrServers, validateNostrServers } from "./nostr";

const memory = () => {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
    m,
  };
};

const ESPLORA = "http://127.0.0.1:4000";

describe("nostr server settings", () => {
  it("defaults to the local world's relay, cache and media server on regtest", () => {
    expect(resolveNostrServers(memory(), "regtest", ESPLORA)).toEqual({
      relays: ["ws://127.0.0.1:4000/nostr"],
      primal: "http://127.0.0.1:4000/primal",
      blossom: "http://127.0.0.1:4000/blossom",
    });
  });

  it("refuses relays that are not WebSocket addresses and media servers that are not http(s)", () => {
    const form = nostrFormOf(defaultNostrServers("regtest", ESPLORA));
    expect(validateNostrServers(form)).toEqual({});
    expect(validateNostrServers({ ...form, relays: "" })).toEqual({ relays: "nostr_keys.error_relays" });
    expect(validateNostrServers({ ...form, relays: "wss://a.example, https://b.example" })).toEqual({
      relays: "nostr_keys.error_relays",
    });
    expect(validateNostrServers({ ...form, blossom: "ftp://x" })).toEqual({
      blossom: "nostr_keys.error_url",
    });
    // An empty cache service is allowed: it means none.
    expect(validateNostrServers({ ...form, primal_api: "" })).toEqual({});
  });

  it("stores only what differs from the defaults, and the next start reads it", () => {
    const storage = memory();
    const defaults = resolveNostrServers(storage, "regtest", ESPLORA);
    saveNostrServers(storage, nostrFormOf(defaults), defaults);
    expect(storage.m.size).toBe(0);
    saveNostrServers(
      storage,
      { relays: "wss://one.example , wss://two.example", primal_api: "", blossom: defaults.blossom },
      defaults,
    );
    expect(resolveNostrServers(storage, "regtest", ESPLORA)).toEqual({
      relays: ["wss://one.example", "wss://two.example"],
      primal: "",
      blossom: defaults.blossom,
    });
  });
});

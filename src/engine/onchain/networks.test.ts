import { describe, expect, it } from "vitest";
import { addressNetworks } from "./networks";

describe("addressNetworks", () => {
  it("tells a mainnet bech32 address (BIP173 example)", () => {
    expect(addressNetworks("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4")).toEqual(["bitcoin"]);
    expect(addressNetworks("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")).toEqual(["bitcoin"]);
  });
  it("tells test-network bech32 apart from regtest", () => {
    expect(addressNetworks("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx")).toEqual(["testnet", "signet"]);
    expect(addressNetworks("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080")).toEqual(["regtest"]);
  });
  it("accepts base58 addresses on every network that shares their prefix", () => {
    expect(addressNetworks("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2")).toEqual(["bitcoin"]);
    expect(addressNetworks("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn")).toEqual(["testnet", "signet", "regtest"]);
  });
  it("refuses what is not an address", () => {
    expect(addressNetworks("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5")).toBeNull();
    expect(addressNetworks("hello")).toBeNull();
    expect(addressNetworks("")).toBeNull();
  });
});

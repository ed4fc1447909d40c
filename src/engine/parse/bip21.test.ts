import { describe, expect, it } from "vitest";
import { decodeBip21, encodeBip21 } from "./bip21";
import bip21Vectors from "./vectors/bip21.json";

const ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

describe("encodeBip21", () => {
  it("writes only the address when nothing else is asked", () => {
    expect(encodeBip21({ address: ADDRESS })).toBe(`bitcoin:${ADDRESS}`);
  });
  it("writes the amount in BTC and percent-encodes text", () => {
    expect(
      encodeBip21({ address: ADDRESS, amountSats: 50_000n, label: "Luke-Jr & co", message: "Donation? ✓" }),
    ).toBe(`bitcoin:${ADDRESS}?amount=0.0005&label=Luke-Jr%20%26%20co&message=Donation%3F%20%E2%9C%93`);
  });
  it("adds a lightning invoice for a unified request", () => {
    expect(encodeBip21({ address: ADDRESS, lightning: "lnbc1xyz", amountSats: null })).toBe(
      `bitcoin:${ADDRESS}?lightning=lnbc1xyz`,
    );
  });
});

describe("decodeBip21", () => {
  it("reads keys in any case and the scheme in any case", () => {
    const uri = decodeBip21(
      `BITCOIN:${ADDRESS.toUpperCase()}?AMOUNT=0.001&Label=x&pj=https://pj.example/abc`,
    );
    expect(uri?.address).toBe(ADDRESS.toUpperCase());
    expect(uri?.amountSats).toBe(100_000n);
    expect(uri?.label).toBe("x");
    expect(uri?.payjoin).toBe("https://pj.example/abc");
  });
  it("accepts an empty address when a lightning invoice stands in for it", () => {
    expect(decodeBip21("bitcoin:?lightning=lnbc1xyz")?.lightning).toBe("lnbc1xyz");
    expect(decodeBip21("bitcoin:")).toBeNull();
    expect(decodeBip21("bitcoin:?amount=1")).toBeNull();
  });
  it("refuses bad amounts, repeated amounts, unknown required parameters and broken escapes", () => {
    expect(decodeBip21(`bitcoin:${ADDRESS}?amount=1e3`)).toBeNull();
    expect(decodeBip21(`bitcoin:${ADDRESS}?amount=0.000000001`)).toBeNull();
    expect(decodeBip21(`bitcoin:${ADDRESS}?amount=1&amount=2`)).toBeNull();
    expect(decodeBip21(`bitcoin:${ADDRESS}?req-unknown=1`)).toBeNull();
    expect(decodeBip21(`bitcoin:${ADDRESS}?label=%E2%82`)).toBeNull();
    expect(decodeBip21(`bitcoin:bc1q!x`)).toBeNull();
    expect(decodeBip21(ADDRESS)).toBeNull();
  });
  it("keeps unknown optional parameters and an understood required payjoin", () => {
    const uri = decodeBip21(`bitcoin:${ADDRESS}?somethingnew=1&req-pj=https://pj.example`);
    expect(uri?.params.somethingnew).toBe("1");
    expect(uri?.payjoin).toBe("https://pj.example");
  });
});

describe("BIP21 examples (bitcoin/bips bip-0021.mediawiki)", () => {
  for (const example of bip21Vectors.examples) {
    it(`${example.valid ? "reads" : "refuses"}: ${example.title}`, () => {
      const uri = decodeBip21(example.uri);
      if (!example.valid) {
        expect(uri).toBeNull();
        return;
      }
      expect(uri?.address).toBe(example.address);
      expect(uri?.amountSats).toBe(example.amount_sats ? BigInt(example.amount_sats) : null);
      expect(uri?.label).toBe(example.label);
      expect(uri?.message).toBe(example.message);
    });
  }
});

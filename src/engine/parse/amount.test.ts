import { describe, expect, it } from "vitest";
import { btcToSats, msatToSats, msatToSatsCeil, satsToBtc, satsToMsat } from "./amount";

describe("btcToSats", () => {
  it("converts BTC decimal strings exactly", () => {
    expect(btcToSats("20.3")).toBe(2_030_000_000n);
    expect(btcToSats("50")).toBe(5_000_000_000n);
    expect(btcToSats("0.00000001")).toBe(1n);
    expect(btcToSats(".5")).toBe(50_000_000n);
    expect(btcToSats("1.")).toBe(100_000_000n);
    expect(btcToSats("20999999.9769")).toBe(2_099_999_997_690_000n);
    expect(btcToSats("0")).toBe(0n);
  });
  it("refuses more than 8 decimals, signs, exponents and other text", () => {
    for (const bad of ["0.000000001", "-1", "+1", "1e3", "1,5", " 1", "", ".", "abc", "1.2.3", "0x10"]) {
      expect(btcToSats(bad)).toBeNull();
    }
  });
});

describe("satsToBtc", () => {
  it("writes the shortest decimal", () => {
    expect(satsToBtc(2_030_000_000n)).toBe("20.3");
    expect(satsToBtc(1n)).toBe("0.00000001");
    expect(satsToBtc(0n)).toBe("0");
    expect(satsToBtc(100_000_000n)).toBe("1");
  });
  it("round-trips through btcToSats", () => {
    for (const sats of [0n, 1n, 546n, 99_999_999n, 2_099_999_997_690_000n]) {
      expect(btcToSats(satsToBtc(sats))).toBe(sats);
    }
  });
  it("refuses negative amounts", () => {
    expect(() => satsToBtc(-1n)).toThrow(RangeError);
  });
});

describe("millisats", () => {
  it("rounds down or up to whole sats", () => {
    expect(msatToSats(1_999n)).toBe(1n);
    expect(msatToSatsCeil(1_001n)).toBe(2n);
    expect(msatToSatsCeil(1_000n)).toBe(1n);
    expect(satsToMsat(25n)).toBe(25_000n);
  });
});

import { describe, expect, it } from "vitest";
import {
  btcStringToSats,
  fiatToSats,
  formatSats,
  InvalidPrice,
  normaliseFiatInput,
  normaliseSatsInput,
  parseDecimal,
  satsToBtcString,
  satsToFiat,
} from "./index";

describe("normaliseSatsInput", () => {
  it("keeps digits only and strips leading zeros", () => {
    expect(normaliseSatsInput("")).toBe("");
    expect(normaliseSatsInput("abc")).toBe("");
    expect(normaliseSatsInput("000")).toBe("0");
    expect(normaliseSatsInput("0012,345 sats")).toBe("12345");
    expect(normaliseSatsInput("1.5")).toBe("15");
    expect(normaliseSatsInput("-7")).toBe("7");
  });
});

describe("normaliseFiatInput", () => {
  it("keeps digits and one point, truncated to the currency's digits", () => {
    expect(normaliseFiatInput("12.345", 2)).toBe("12.34");
    expect(normaliseFiatInput("1.2.3", 2)).toBe("1.23");
    expect(normaliseFiatInput("$1,000.5", 2)).toBe("1000.5");
    expect(normaliseFiatInput("12.", 2)).toBe("12.");
    expect(normaliseFiatInput(".5", 2)).toBe("0.5");
    expect(normaliseFiatInput("007.25", 2)).toBe("7.25");
    expect(normaliseFiatInput("0.123", 3)).toBe("0.123");
    expect(normaliseFiatInput("1.99", 1)).toBe("1.9");
    expect(normaliseFiatInput("", 2)).toBe("");
  });

  it("keeps digits only for a currency without fraction digits", () => {
    expect(normaliseFiatInput("1500", 0)).toBe("1500");
    expect(normaliseFiatInput("15.00", 0)).toBe("1500");
    expect(normaliseFiatInput("0", 0)).toBe("0");
  });
});

describe("satsToFiat", () => {
  it("converts at a decimal price, rounding halves up to the minor unit", () => {
    expect(satsToFiat(100_000_000n, "98765.43", 2)).toBe("98765.43");
    expect(satsToFiat(100_000n, "98765.43", 2)).toBe("98.77");
    expect(satsToFiat(1n, "98765.43", 2)).toBe("0.00");
    expect(satsToFiat(0n, "98765.43", 2)).toBe("0.00");
    // 50 sats at 1,000,000 per BTC is exactly 0.5 of a unit: rounds up.
    expect(satsToFiat(50n, "1000000", 0)).toBe("1");
    expect(satsToFiat(49n, "1000000", 0)).toBe("0");
    expect(satsToFiat(-150n, "1000000", 1)).toBe("-1.5");
  });

  it("shows BTC exactly at price 1 with 8 digits", () => {
    expect(satsToFiat(1000n, "1", 8)).toBe("0.00001000");
    expect(satsToFiat(2_100_000_000_000_000n, 1, 8)).toBe("21000000.00000000");
  });

  it("reads number prices, exponents included", () => {
    expect(satsToFiat(100_000_000n, 98765.43, 2)).toBe("98765.43");
    expect(satsToFiat(100_000_000n, 1e-7, 8)).toBe("0.00000010");
    expect(satsToFiat(100_000_000n, "2.5e3", 2)).toBe("2500.00");
  });

  it("refuses a price that is not a finite positive decimal", () => {
    for (const bad of ["0", "-1", "abc", "", "1,000", Number.NaN, Number.POSITIVE_INFINITY, 0]) {
      expect(() => satsToFiat(1n, bad, 2)).toThrow(InvalidPrice);
      expect(() => fiatToSats("1", bad, 2)).toThrow(InvalidPrice);
    }
  });
});

describe("fiatToSats", () => {
  it("converts to the nearest sat", () => {
    expect(fiatToSats("98765.43", "98765.43", 2)).toBe(100_000_000n);
    expect(fiatToSats("1", "100000", 2)).toBe(1000n);
    expect(fiatToSats("0.01", "30000", 2)).toBe(33n); // 33.33… sats
    expect(fiatToSats("0.02", "30000", 2)).toBe(67n); // 66.67 sats
    expect(fiatToSats("0.00001000", "1", 8)).toBe(1000n);
  });

  it("reads the fiat the way the input keeps it", () => {
    expect(fiatToSats("", "100000", 2)).toBe(0n);
    expect(fiatToSats("1.", "100000", 2)).toBe(1000n);
    expect(fiatToSats("1.009", "100000", 2)).toBe(1000n);
    expect(fiatToSats("150", "15000000", 0)).toBe(1000n);
  });
});

describe("BTC strings and sats", () => {
  it("writes all eight digits and reads them back", () => {
    expect(satsToBtcString(1000n)).toBe("0.00001000");
    expect(satsToBtcString(0n)).toBe("0.00000000");
    expect(satsToBtcString(123_456_789n)).toBe("1.23456789");
    expect(satsToBtcString(-1n)).toBe("-0.00000001");
    expect(btcStringToSats("0.00001000")).toBe(1000n);
    expect(btcStringToSats("20.3")).toBe(2_030_000_000n);
    expect(btcStringToSats("0.000000001")).toBeNull();
    expect(btcStringToSats("-1")).toBeNull();
  });

  it("groups sats by thousands", () => {
    expect(formatSats(0n)).toBe("0");
    expect(formatSats(999n)).toBe("999");
    expect(formatSats(1_234_567n)).toBe("1,234,567");
    expect(formatSats(-2100n)).toBe("-2,100");
    expect(formatSats(1_000_000n, "\u202f")).toBe("1\u202f000\u202f000");
  });
});

describe("parseDecimal", () => {
  it("reads plain and exponent decimals exactly", () => {
    expect(parseDecimal("98765.43")).toEqual({ units: 9876543n, scale: 2 });
    expect(parseDecimal("1e-7")).toEqual({ units: 1n, scale: 7 });
    expect(parseDecimal("1.5e2")).toEqual({ units: 150n, scale: 0 });
    expect(parseDecimal(".5")).toEqual({ units: 5n, scale: 1 });
    expect(parseDecimal("1e999")).toBeNull();
    expect(parseDecimal(Number.MIN_VALUE)).toEqual({ units: 5n, scale: 324 });
    expect(parseDecimal(" 1")).toBeNull();
    expect(parseDecimal(".")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { BTC, currencyByCode, DEFAULT_FIAT_CODE, FIAT_CURRENCIES } from "./currencies";

describe("currencies", () => {
  it("offers about 110 or more fiat currencies, each once, with a code-and-name label", () => {
    expect(FIAT_CURRENCIES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(FIAT_CURRENCIES.map((c) => c.value)).size).toBe(FIAT_CURRENCIES.length);
    for (const c of FIAT_CURRENCIES) {
      expect(c.value).toMatch(/^[A-Z]{3}$/);
      expect(c.label.startsWith(`${c.value} - `)).toBe(true);
    }
    expect(FIAT_CURRENCIES.some((c) => c.value === "BTC")).toBe(false);
  });

  it("uses the spec's fraction digits", () => {
    const digits = (code: string) => currencyByCode(code)?.maxFractionalDigits;
    expect(digits("BTC")).toBe(8);
    expect(digits("USD")).toBe(2);
    expect(digits("EUR")).toBe(2);
    for (const code of ["JPY", "KRW", "CLP", "ISK", "VND", "CDF", "DJF", "UGX", "TND"])
      expect(digits(code)).toBe(0);
    expect(digits("BHD")).toBe(3);
    expect(digits("MGA")).toBe(1);
    expect(digits("MRU")).toBe(1);
    for (const code of ["XAU", "XAG", "XPT", "XPD"]) expect(digits(code)).toBe(6);
  });

  it("looks codes up in either case and defaults to USD", () => {
    expect(currencyByCode("usd")?.label).toBe("USD - United States Dollar");
    expect(currencyByCode("btc")).toBe(BTC);
    expect(currencyByCode("XXX")).toBeUndefined();
    expect(currencyByCode(DEFAULT_FIAT_CODE)?.value).toBe("USD");
  });
});

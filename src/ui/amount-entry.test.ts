import { describe, expect, it } from "vitest";
import {
  amountSatsOf,
  canCycleMethods,
  disabledInputs,
  enterAction,
  followRate,
  initialAmountEntry,
  keyboardShown,
  nextMethod,
  toggleMode,
  typeFiat,
  typeSats,
} from "./amount-entry";

const usd = { price: "100000", digits: 2 };
const jpy = { price: "15000000", digits: 0 };

describe("amount entry", () => {
  it("sats input keeps digits without leading zeros; fiat follows at the price", () => {
    const s = typeSats(initialAmountEntry(null, usd), "00a1,000", usd);
    expect(s.sats).toBe("1000");
    expect(s.fiat).toBe("1.00");
    expect(amountSatsOf(s)).toBe(1000n);
    expect(typeSats(s, "", usd)).toMatchObject({ sats: "", fiat: "" });
  });
  it("never holds more than the 21 million bitcoin that can exist, typed in sats or in fiat", () => {
    expect(typeSats(initialAmountEntry(null, usd), "99999999999999999999", usd).sats).toBe(
      "2100000000000000",
    );
    const fiat = toggleMode(initialAmountEntry(null, usd), usd);
    expect(typeFiat(fiat, "999999999999999", usd).sats).toBe("2100000000000000");
  });
  it("fiat input keeps one point and the currency's digits; sats follow", () => {
    const s = toggleMode(initialAmountEntry(null, usd), usd);
    expect(s.mode).toBe("fiat");
    expect(typeFiat(s, "$1.239", usd)).toMatchObject({ fiat: "1.23", sats: "1230" });
    expect(typeFiat(s, "1.5", jpy)).toMatchObject({ fiat: "15", sats: "100" });
    expect(typeFiat(s, "", usd)).toMatchObject({ fiat: "", sats: "" });
  });
  it("without a price there is no fiat mode", () => {
    const s = initialAmountEntry(5n, null);
    expect(toggleMode(s, null).mode).toBe("sats");
    expect(typeFiat(s, "3", null)).toBe(s);
    expect(disabledInputs("sats", false, null)).toEqual({ sats: false, fiat: true });
  });
  it("one input is disabled by mode, both when the amount is frozen", () => {
    expect(disabledInputs("sats", false, usd)).toEqual({ sats: false, fiat: true });
    expect(disabledInputs("fiat", false, usd)).toEqual({ sats: true, fiat: false });
    expect(disabledInputs("sats", true, usd)).toEqual({ sats: true, fiat: true });
    expect(initialAmountEntry(2500n, usd)).toEqual({ mode: "sats", sats: "2500", fiat: "2.50" });
  });
  it("methods cycle in order; one method cannot cycle", () => {
    const methods = [
      { method: "lightning", maxAmountSats: 10n },
      { method: "onchain", maxAmountSats: 20n },
    ] as const;
    expect(nextMethod(methods, "lightning")).toBe("onchain");
    expect(nextMethod(methods, "onchain")).toBe("lightning");
    expect(canCycleMethods(methods)).toBe(true);
    expect(canCycleMethods([methods[0]])).toBe(false);
    expect(nextMethod([], "onchain")).toBe("onchain");
  });
  it("keyboard shown under 0.75 of the screen height; Enter submits or unfocuses", () => {
    expect(keyboardShown(500, 1, 800)).toBe(true);
    expect(keyboardShown(600, 1, 800)).toBe(false);
    expect(keyboardShown(400, 1.5, 800)).toBe(false);
    expect(enterAction(true)).toBe("submit");
    expect(enterAction(false)).toBe("blur");
  });
});

describe("a new price or currency", () => {
  const btc = { price: "1", digits: 8 };

  it("shows the same sats at the new rate in the fiat input, never the old number", () => {
    const typed = typeSats(initialAmountEntry(null, usd), "25000", usd);
    expect(typed.fiat).toBe("25.00");
    // The feed fell back to BTC: 25,000 sats is 0.00025 BTC, not "25.00".
    expect(followRate(typed, btc)).toEqual({ mode: "sats", sats: "25000", fiat: "0.00025000" });
    expect(followRate(typed, { price: "50000", digits: 2 }).fiat).toBe("12.50");
  });

  it("makes sats the live input when no rate is known", () => {
    const inFiat = toggleMode(typeSats(initialAmountEntry(null, usd), "25000", usd), usd);
    expect(inFiat.mode).toBe("fiat");
    expect(followRate(inFiat, null)).toEqual({ mode: "sats", sats: "25000", fiat: "" });
  });
});

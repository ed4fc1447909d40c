import { describe, expect, it } from "vitest";
import {
  initialPriceState,
  MAX_BACKOFF_MULTIPLE,
  nextPriceState,
  PRICE_CHECK_MS,
  type PriceState,
} from "./schedule";

const failed = { _tag: "PriceFailed" } as const;

describe("price schedule", () => {
  it("starts with no price, the chosen fiat and a check at once", () => {
    expect(initialPriceState("eur")).toEqual({
      price: null,
      fiatShown: "EUR",
      multiple: 1,
      nextCheckInMs: 0,
    });
  });

  it("shows the fiat at its price after a good check and checks again in 60 s", () => {
    const s = nextPriceState(initialPriceState("USD"), {
      _tag: "PriceFetched",
      code: "USD",
      price: "98765.43",
    });
    expect(s).toEqual({ price: "98765.43", fiatShown: "USD", multiple: 1, nextCheckInMs: PRICE_CHECK_MS });
  });

  it("falls back to BTC at price 1 on failure and doubles the wait up to the cap", () => {
    let s: PriceState = initialPriceState("USD");
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      s = nextPriceState(s, failed);
      expect(s.price).toBe("1");
      expect(s.fiatShown).toBe("BTC");
      waits.push(s.nextCheckInMs / PRICE_CHECK_MS);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, 64, 64, 64, 64]);
    expect(s.multiple).toBe(MAX_BACKOFF_MULTIPLE);
  });

  it("resets the multiple to 1 on the first good check after failures", () => {
    let s = initialPriceState("USD");
    for (let i = 0; i < 4; i++) s = nextPriceState(s, failed);
    s = nextPriceState(s, { _tag: "PriceFetched", code: "eur", price: "90000.5" });
    expect(s).toEqual({ price: "90000.5", fiatShown: "EUR", multiple: 1, nextCheckInMs: 60_000 });
  });
});

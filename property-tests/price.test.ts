import { Result } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fetchPrice,
  initialPriceState,
  MAX_BACKOFF_MULTIPLE,
  nextPriceState,
  PRICE_CHECK_MS,
  type PriceFetch,
  type PriceOutcome,
  PriceUnavailable,
  priceSourceFromTemplate,
  priceString,
} from "../src/engine/price";

const outcome: fc.Arbitrary<PriceOutcome> = fc.oneof(
  fc.constant({ _tag: "PriceFailed" } as const),
  fc.record({
    _tag: fc.constant("PriceFetched" as const),
    code: fc.constantFrom("USD", "eur", "JPY"),
    price: fc.constantFrom("98765.43", "1", "0.5"),
  }),
);

describe("price schedule", () => {
  it("waits 60 s times a multiple that doubles per failure in a row, capped, and resets on success", () => {
    fc.assert(
      fc.property(fc.array(outcome, { maxLength: 40 }), (outcomes) => {
        let state = initialPriceState("USD");
        let failuresInARow = 0;
        for (const o of outcomes) {
          state = nextPriceState(state, o);
          failuresInARow = o._tag === "PriceFailed" ? failuresInARow + 1 : 0;
          expect(state.multiple).toBe(Math.min(2 ** failuresInARow, MAX_BACKOFF_MULTIPLE));
          expect(state.nextCheckInMs).toBe(PRICE_CHECK_MS * state.multiple);
          if (o._tag === "PriceFailed") expect([state.price, state.fiatShown]).toEqual(["1", "BTC"]);
          else expect([state.price, state.fiatShown]).toEqual([o.price, o.code.toUpperCase()]);
        }
      }),
    );
  });
});

describe("prices off the wire", () => {
  it("a believable price becomes a plain decimal string of that number; any other is refused", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false, noDefaultInfinity: false }), (n) => {
        const text = priceString(n);
        if (!(n >= 0.01 && n <= 1e13)) {
          expect(text).toBeNull();
          return;
        }
        expect(text).toMatch(/^(0|[1-9]\d*)(\.\d{0,7}[1-9])?$/);
        // Exact up to the 8 decimals kept.
        expect(Math.abs(Number(text) - n)).toBeLessThan(1e-8);
      }),
    );
  });

  it("fetchPrice never rejects: any answer is a positive decimal price or PriceUnavailable", async () => {
    const sources = fc.constantFrom(
      priceSourceFromTemplate("http://127.0.0.1:3002/api/v1/price/{code}"),
      priceSourceFromTemplate("https://mempool.space/api/v1/prices"),
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ currency: fc.constantFrom("USD", "usd", "EUR"), price: fc.jsonValue() }),
      fc.dictionary(fc.constantFrom("USD", "EUR", "time"), fc.oneof(fc.double(), fc.string(), fc.integer())),
    );
    const answer = fc.oneof(
      fc.record({ kind: fc.constant("json" as const), status: fc.constantFrom(200, 404, 500), body }),
      fc.constant({ kind: "throws" as const, status: 0, body: null }),
    );
    await fc.assert(
      fc.asyncProperty(sources, answer, async (source, a) => {
        const fetchFn: PriceFetch = async () => {
          if (a.kind === "throws") throw new TypeError("Failed to fetch");
          return { ok: a.status === 200, status: a.status, json: async () => a.body };
        };
        const r = await fetchPrice(fetchFn, source, "usd");
        if (Result.isSuccess(r)) {
          expect(r.success).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
          expect(/[1-9]/.test(r.success)).toBe(true);
        } else {
          expect(r.failure).toBeInstanceOf(PriceUnavailable);
          expect(r.failure.code).toBe("USD");
        }
      }),
    );
  });
});

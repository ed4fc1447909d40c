import { Result } from "effect";
import { describe, expect, it } from "vitest";
import { fetchPrice, type PriceFetch, PriceUnavailable, priceString } from "./fetch";
import { priceSourceFromTemplate } from "./source";

const local = priceSourceFromTemplate("http://127.0.0.1:3002/api/v1/price/{code}");
const table = priceSourceFromTemplate("https://mempool.space/api/v1/prices");

const answering = (status: number, body: unknown, asked: string[] = []): PriceFetch => {
  return async (url) => {
    asked.push(url);
    return { ok: status >= 200 && status < 300, status, json: async () => body };
  };
};

const failure = (r: Result.Result<string, PriceUnavailable>) => {
  if (Result.isSuccess(r)) throw new Error(`expected a failure, got ${r.success}`);
  return r.failure;
};

describe("price sources", () => {
  it("tells a per-currency template from a table", () => {
    expect(local.shape).toBe("single");
    expect(table.shape).toBe("table");
  });
});

describe("fetchPrice", () => {
  it("reads a single-currency answer, asking with the upper-case code", async () => {
    const asked: string[] = [];
    const r = await fetchPrice(answering(200, { currency: "USD", price: 98765.43 }, asked), local, "usd");
    expect(r).toEqual(Result.succeed("98765.43"));
    expect(asked).toEqual(["http://127.0.0.1:3002/api/v1/price/USD"]);
  });

  it("reads the code out of a table answer", async () => {
    const body = { time: 1_700_000_000, USD: 98765, EUR: 91234.5, JPY: 14800000 };
    expect(await fetchPrice(answering(200, body), table, "EUR")).toEqual(Result.succeed("91234.5"));
    expect(await fetchPrice(answering(200, body), table, "jpy")).toEqual(Result.succeed("14800000"));
  });

  it("gives 1 for BTC without asking", async () => {
    const asked: string[] = [];
    expect(await fetchPrice(answering(500, null, asked), local, "BTC")).toEqual(Result.succeed("1"));
    expect(asked).toEqual([]);
  });

  it("turns every failure into PriceUnavailable and never rejects", async () => {
    const bad = failure(await fetchPrice(answering(503, {}), local, "USD"));
    expect(bad).toBeInstanceOf(PriceUnavailable);
    expect(bad._tag).toBe("PriceUnavailable");
    expect(bad.status).toBe(503);
    expect(bad.code).toBe("USD");

    expect(failure(await fetchPrice(answering(200, { currency: "EUR", price: 1 }), local, "USD"))._tag).toBe(
      "PriceUnavailable",
    );
    expect(failure(await fetchPrice(answering(200, { price: "abc" }), local, "USD"))._tag).toBe(
      "PriceUnavailable",
    );
    expect(failure(await fetchPrice(answering(200, { price: 0 }), local, "USD"))._tag).toBe(
      "PriceUnavailable",
    );
    expect(failure(await fetchPrice(answering(200, { price: -5 }), local, "USD"))._tag).toBe(
      "PriceUnavailable",
    );
    expect(failure(await fetchPrice(answering(200, [1, 2]), local, "USD"))._tag).toBe("PriceUnavailable");
    expect(failure(await fetchPrice(answering(200, { USD: 1 }), table, "CHF"))._tag).toBe("PriceUnavailable");

    const offline: PriceFetch = async () => {
      throw new TypeError("Failed to fetch");
    };
    expect(failure(await fetchPrice(offline, local, "USD")).message).toBe("Failed to fetch");
    const unreadable: PriceFetch = async () => ({
      ok: true,
      status: 200,
      json: async () => {
        throw new SyntaxError("Unexpected token");
      },
    });
    expect(failure(await fetchPrice(unreadable, local, "USD"))._tag).toBe("PriceUnavailable");
  });

  it("writes prices as plain decimal strings", () => {
    expect(priceString(98765.43)).toBe("98765.43");
    expect(priceString("98765.4300")).toBe("98765.43");
    expect(priceString(100)).toBe("100");
    expect(priceString("0.01")).toBe("0.01");
    expect(priceString("0.123456789")).toBe("0.12345678");
  });

  it("refuses prices no currency could have: zero, negative, absurdly large or small, not finite", () => {
    for (const absurd of [0, -5, "-98765", 1e308, 1e-300, 1e21, 1e-7, "1e400", Number.POSITIVE_INFINITY])
      expect(priceString(absurd)).toBeNull();
    expect(priceString(Number.NaN)).toBeNull();
    expect(priceString(null)).toBeNull();
    expect(priceString(true)).toBeNull();
  });
});

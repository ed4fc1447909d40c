import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PRICE_REQUEST_TIMEOUT_MS, startPriceFeed } from "./feed";
import type { PriceFetch } from "./fetch";
import type { PriceState } from "./schedule";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A price server whose answer the test sets; it records what was asked. */
const server = () => {
  const state = { up: true, price: 100000 as number, asked: [] as string[], hang: false };
  const fetchFn: PriceFetch = (url, init) => {
    state.asked.push(url);
    if (state.hang)
      return new Promise((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    return Promise.resolve(
      state.up
        ? { ok: true, status: 200, json: async () => ({ currency: url.slice(-3), price: state.price }) }
        : { ok: false, status: 502, json: async () => ({}) },
    );
  };
  return { state, fetchFn };
};

const run = (fetchFn: PriceFetch, fiat: () => string = () => "usd") => {
  const seen: PriceState[] = [];
  const feed = startPriceFeed({
    fetchFn,
    source: "http://127.0.0.1:3002/api/v1/price/{code}",
    fiat,
    onPrice: (s) => seen.push(s),
    setTimer: (f, ms) => setTimeout(f, ms),
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  });
  return { seen, feed };
};

describe("startPriceFeed", () => {
  it("checks at once, then every 60 s while the server answers", async () => {
    const { state, fetchFn } = server();
    const { seen, feed } = run(fetchFn);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([{ price: "100000", fiatShown: "USD", multiple: 1, nextCheckInMs: 60_000 }]);
    expect(state.asked).toEqual(["http://127.0.0.1:3002/api/v1/price/USD"]);
    state.price = 101000;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.at(-1)?.price).toBe("101000");
    feed.stop();
  });

  it("backs off while the server is down and comes back to the fiat", async () => {
    const { state, fetchFn } = server();
    state.up = false;
    const { seen, feed } = run(fetchFn);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.at(-1)).toEqual({ price: "1", fiatShown: "BTC", multiple: 2, nextCheckInMs: 120_000 });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(seen.at(-1)?.multiple).toBe(4);
    expect(state.asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(239_999);
    expect(state.asked).toHaveLength(2);
    state.up = true;
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.at(-1)).toEqual({ price: "100000", fiatShown: "USD", multiple: 1, nextCheckInMs: 60_000 });
    feed.stop();
  });

  it("counts an unanswered check as failed after the request limit", async () => {
    const { state, fetchFn } = server();
    state.hang = true;
    const { seen, feed } = run(fetchFn);
    await vi.advanceTimersByTimeAsync(PRICE_REQUEST_TIMEOUT_MS - 1);
    expect(seen).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual([{ price: "1", fiatShown: "BTC", multiple: 2, nextCheckInMs: 120_000 }]);
    feed.stop();
  });

  it("checks at once on refresh, for the currency chosen now", async () => {
    const { state, fetchFn } = server();
    let fiat = "USD";
    const { seen, feed } = run(fetchFn, () => fiat);
    await vi.advanceTimersByTimeAsync(0);
    fiat = "eur";
    feed.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.asked.at(-1)).toBe("http://127.0.0.1:3002/api/v1/price/EUR");
    expect(seen.at(-1)?.fiatShown).toBe("EUR");
    // The refresh replaced the pending check: one check per minute from here, not two.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.asked).toHaveLength(3);
    feed.stop();
  });

  it("abandons a check that a refresh overtook", async () => {
    const { state, fetchFn } = server();
    state.hang = true;
    const { seen, feed } = run(fetchFn);
    await vi.advanceTimersByTimeAsync(1000);
    state.hang = false;
    feed.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([{ price: "100000", fiatShown: "USD", multiple: 1, nextCheckInMs: 60_000 }]);
    feed.stop();
  });

  it("stops: no more checks, and an answer in flight is dropped", async () => {
    const { state, fetchFn } = server();
    const { seen, feed } = run(fetchFn);
    feed.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(seen).toEqual([]);
    expect(state.asked).toHaveLength(1);
    feed.refresh();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.asked).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

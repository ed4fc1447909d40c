import { Result } from "effect";
import { fetchPrice, type PriceFetch } from "./fetch";
import { initialPriceState, nextPriceState, type PriceState } from "./schedule";
import { type PriceSource, priceSourceFromTemplate } from "./source";

/** A check that has not answered after this long counts as failed (ours; the spec names no limit). */
export const PRICE_REQUEST_TIMEOUT_MS = 10_000;

export interface PriceFeedDeps {
  readonly fetchFn: PriceFetch;
  /** A source, or the wallet's URL template for one (see `priceSourceFromTemplate`). */
  readonly source: PriceSource | string;
  /**
   * The fiat chosen now, read before every check. Either case: spec 1 §7's get_bitcoin_price is given the
   * lower-case code; the feed upper-cases it, as every code inside the wallet is.
   */
  readonly fiat: () => string;
  /** Called after every check with what to show. */
  readonly onPrice: (state: PriceState) => void;
  /** Timers, injected so the feed runs in the worker and under fake timers alike. */
  readonly setTimer: (run: () => void, ms: number) => unknown;
  readonly clearTimer: (handle: unknown) => void;
}

export interface PriceFeed {
  /** No check starts after this, an unanswered one is abandoned and `onPrice` is not called again. */
  readonly stop: () => void;
  /** Checks at once (after the owner chose another currency), keeping the backoff multiple. */
  readonly refresh: () => void;
}

/** Checks the price now, then again on the schedule of `nextPriceState`, one check at a time. */
export const startPriceFeed = (deps: PriceFeedDeps): PriceFeed => {
  const source = typeof deps.source === "string" ? priceSourceFromTemplate(deps.source) : deps.source;
  let stopped = false;
  let timer: unknown;
  let inFlight: AbortController | undefined;
  let state = initialPriceState(deps.fiat());

  const cancelTimer = () => {
    if (timer !== undefined) deps.clearTimer(timer);
    timer = undefined;
  };

  const check = async () => {
    timer = undefined;
    if (stopped) return;
    const code = deps.fiat().toUpperCase();
    const controller = new AbortController();
    inFlight = controller;
    const limit = deps.setTimer(() => controller.abort(), PRICE_REQUEST_TIMEOUT_MS);
    const abandoned = new Promise<null>((resolve) =>
      controller.signal.addEventListener("abort", () => resolve(null), { once: true }),
    );
    const answer = await Promise.race([fetchPrice(deps.fetchFn, source, code, controller.signal), abandoned]);
    deps.clearTimer(limit);
    // A newer check (refresh) or stop took over while this one was out; its answer is stale.
    if (stopped || inFlight !== controller) return;
    inFlight = undefined;
    state = nextPriceState(
      state,
      answer !== null && Result.isSuccess(answer)
        ? { _tag: "PriceFetched", code, price: answer.success }
        : { _tag: "PriceFailed" },
    );
    deps.onPrice(state);
    if (!stopped) timer = deps.setTimer(() => void check(), state.nextCheckInMs);
  };

  void check();

  return {
    stop: () => {
      stopped = true;
      cancelTimer();
      inFlight?.abort();
    },
    refresh: () => {
      if (stopped) return;
      cancelTimer();
      const previous = inFlight;
      inFlight = undefined;
      previous?.abort();
      void check();
    },
  };
};

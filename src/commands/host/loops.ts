import { boundedFetch, globalFetch } from "../../engine/http/bounded";
import { startPriceFeed } from "../../engine/price/feed";
import type { WalletHost } from "./host";
import type { WalletConfig } from "../../config";

/** The on-chain wallet syncs on start, then every 60 s (and after each send, in its handler). */
export const ONCHAIN_SYNC_MS = 60_000;

/** The wait before the next sync after `failures` failed ones in a row: 5 s, 10 s, 20 s, 40 s, then 60 s. */
export const syncDelay = (failures: number): number =>
  failures === 0 ? ONCHAIN_SYNC_MS : Math.min(ONCHAIN_SYNC_MS, 5_000 * 2 ** (failures - 1));

export interface WalletLoops {
  readonly stop: () => void;
  /** Checks the price at once, after the owner chose another currency. */
  readonly refreshPrice: () => void;
}

/**
 * The wallet's background work in the worker: chain sync and the price feed. Each loop schedules its
 * next run only after the last one finished, so a slow server never piles up requests.
 */
export const startWalletLoops = (host: WalletHost, config: WalletConfig): WalletLoops => {
  let stopped = false;
  let syncTimer: ReturnType<typeof setTimeout> | undefined;

  // A failed sync (a server down, hung or lying) is tried again sooner, backing off to the usual minute:
  // the wallet catches up on its own once the server recovers.
  let failures = 0;
  const sync = async () => {
    if (stopped) return;
    if (host.exists) {
      const answer = await host.run({ _tag: "SyncOnchain" });
      failures = answer.ok ? 0 : failures + 1;
    }
    if (!stopped) syncTimer = setTimeout(sync, syncDelay(failures));
  };
  void sync();

  const price = startPriceFeed({
    // A price feed that hangs or floods is cut off; the feed tries again on its own schedule.
    fetchFn: boundedFetch(globalFetch, { timeoutMs: 10_000, maxBytes: 64_000 }),
    source: config.priceSource,
    fiat: () => host.fiat,
    onPrice: (s) => host.setLive({ price: s.price, fiat: s.fiatShown }),
    setTimer: (f, ms) => setTimeout(f, ms),
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  });

  return {
    stop: () => {
      stopped = true;
      clearTimeout(syncTimer);
      price.stop();
    },
    refreshPrice: price.refresh,
  };
};

import type { WalletHost } from "./host";
import type { WalletConfig } from "./protocol";

/** The on-chain wallet syncs on start, then every 60 s (and after each send, in its handler). */
export const ONCHAIN_SYNC_MS = 60_000;

/**
 * The wallet's background work in the worker: chain sync and the price feed. Each loop schedules its
 * next run only after the last one finished, so a slow server never piles up requests.
 */
export const startWalletLoops = (host: WalletHost, config: WalletConfig): (() => void) => {
  let stopped = false;
  let syncTimer: ReturnType<typeof setTimeout> | undefined;

  const sync = async () => {
    if (stopped) return;
    if (host.exists) {
      host.setLive({ is_syncing: true });
      const answer = await host.run({ _tag: "SyncOnchain" });
      host.setLive(
        answer.ok
          ? { is_syncing: false, last_sync: Date.now(), sync_error: null }
          : { is_syncing: false, sync_error: answer.error.message },
      );
    }
    if (!stopped) syncTimer = setTimeout(sync, ONCHAIN_SYNC_MS);
  };
  void sync();
  void config;

  return () => {
    stopped = true;
    clearTimeout(syncTimer);
  };
};

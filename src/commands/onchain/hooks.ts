/**
 * The on-chain engine beside the host: it calls nothing back, and a chain sync shows on the screens as it
 * runs (syncing, when it last succeeded, what failed). The node's chain view moves with the wallet's.
 */
import type { Attachment, HostSide } from "../attached";

export const onchainAttachment = (side: HostSide): Attachment => ({
  engine: "onchain",
  around: async (command, run) => {
    if (command._tag !== "SyncOnchain") return run();
    side.setLive({ is_syncing: true });
    const answer = await run();
    // The node's chain view moves with the wallet's: confirmations of channels, closes, sweeps.
    void side.engines.port("lightning")?.sync();
    side.setLive(
      answer.ok
        ? { is_syncing: false, last_sync: side.now(), sync_error: null }
        : { is_syncing: false, sync_error: answer.error.message },
    );
    return answer;
  },
});

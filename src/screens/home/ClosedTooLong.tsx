import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { useView } from "../../ui/wallet";
import type { Notice } from "./notice";

/** About 144 blocks are found a day. */
const BLOCKS_A_DAY = 144;

/**
 * How long the wallet may stay closed (its channels' real delay), told when it matters: the wallet has a channel and no watchtower
 * watches it. A wallet that was closed for more than half that time is warned as it opens.
 */
export function useClosedNotice(): Notice | null {
  const { t } = useI18n();
  const tower = (useWalletConfig().servers?.tower ?? "") !== "";
  const live = useView("live");
  const channels = useView("channels") ?? [];
  if (tower || channels.length === 0) return null;
  const closed = live?.closed_for ?? null;
  // The shortest delay of the wallet's channels (one accepted shorter for an LSP), else the one it asks.
  const delays = channels.map((c) => c.to_self_delay).filter((d): d is number => d !== null);
  const limit = delays.length > 0 ? Math.min(...delays) : (closed?.limit_blocks ?? null);
  if (closed === null || limit === null) return null;
  const limitDays = Math.floor(limit / BLOCKS_A_DAY);
  if (closed.blocks * 2 > limit)
    return {
      id: "closed-too-long",
      tone: "alert",
      text: t("channels.closed_too_long", {
        days: Math.floor(closed.blocks / BLOCKS_A_DAY),
        blocks: closed.blocks,
        limit: limitDays,
      }),
    };
  return { id: "closed-limit", tone: "status", text: t("channels.closed_limit", { days: limitDays }) };
}

import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import { useView } from "../../ui/wallet";
import type { Notice } from "./notice";

/** How long home keeps telling of a partner punished for publishing an old state (the activity always does). */
export const PENALTY_SHOWN_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * A channel partner published a revoked state and the wallet took the whole channel: said in plain words on
 * home, with what came back (or is on its way) on-chain.
 */
export function usePenaltyNotices(): Notice[] {
  const { t } = useI18n();
  const fmt = useFormat();
  const penalties = useView("penalties") ?? [];
  const now = Date.now();
  return penalties
    .filter((p) => now - p.at < PENALTY_SHOWN_MS)
    .map((p) => {
      const what = t(p.swept ? "channels.penalty" : "channels.penalty_pending", {
        amount: fmt.sats(p.amount),
      });
      return {
        id: `penalty-${p.channel_id}`,
        tone: "status",
        label: t("channels.penalty_title"),
        heading: t("channels.penalty_title"),
        text: what,
      };
    });
}

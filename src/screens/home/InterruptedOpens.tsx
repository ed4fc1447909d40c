import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { truncateMiddle } from "../../ui/format";
import { useFormat } from "../../ui/useFormat";
import { useView } from "../../ui/wallet";
import type { Notice } from "./notice";

/** How long home keeps telling of an open the wallet's closing cut short (the channels screen always does). */
export const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * Channel opens asked for whose funding never went out because the wallet closed first (`ln.open_interrupted`):
 * one notice each with the catalogue's open failure, what was asked, when (to the minute) and that nothing
 * was spent, and the peer's node id (the channels page names peers).
 */
export function InterruptedOpens() {
  const { t } = useI18n();
  const fmt = useFormat();
  const shown = useView("interrupted_opens") ?? [];
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((o) => (
        <section key={`${o.peer}-${o.at}`} className="card notice" aria-label={t("swap.failure_title")}>
          <strong>{t("swap.failure_title")}</strong>
          <p className="hint">
            {t("channels.open_interrupted", { amount: fmt.sats(o.amount), date: fmt.when(o.at) })}
          </p>
          <p className="hint">
            {t("channels.peer")}: <code title={o.peer}>{truncateMiddle(o.peer)}</code>
          </p>
        </section>
      ))}
    </>
  );
}

/** Home's notices of the opens cut short in the last day: what was asked and when, the channels page to see it. */
export function useInterruptedNotices(): Notice[] {
  const { t } = useI18n();
  const fmt = useFormat();
  const opens = useView("interrupted_opens") ?? [];
  const now = Date.now();
  return opens
    .filter((o) => now - o.at < RECENT_MS)
    .map((o) => ({
      id: `interrupted-${o.peer}-${o.at}`,
      tone: "status",
      label: t("swap.failure_title"),
      text: t("channels.open_interrupted", { amount: fmt.sats(o.amount), date: fmt.when(o.at) }),
      action: <Link href="/settings/channels">{t("settings.channels")}</Link>,
    }));
}

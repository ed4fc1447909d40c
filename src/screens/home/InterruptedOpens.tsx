import { useI18n } from "../../i18n/intl";
import { truncateMiddle } from "../../ui/format";
import { useFormat } from "../../ui/useFormat";
import { useView } from "../../ui/wallet";

/** How long home keeps telling of an open the wallet's closing cut short (the channels screen always does). */
export const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * Channel opens asked for whose funding never went out because the wallet closed first (`ln.open_interrupted`):
 * one notice each with the catalogue's open failure, what was asked, when (to the minute) and that nothing
 * was spent. `recent`: only those of the last day, on home, in its status area. The channels page, where
 * peers are named, adds the peer's node id.
 */
export function InterruptedOpens({ recent = false }: { readonly recent?: boolean }) {
  const { t } = useI18n();
  const fmt = useFormat();
  const opens = useView("interrupted_opens") ?? [];
  const now = Date.now();
  const shown = recent ? opens.filter((o) => now - o.at < RECENT_MS) : opens;
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((o) => (
        <section key={`${o.peer}-${o.at}`} className="card notice" aria-label={t("swap.failure_title")}>
          <strong>{t("swap.failure_title")}</strong>
          <p className="hint">
            {t("channels.open_interrupted", { amount: fmt.sats(o.amount), date: fmt.when(o.at) })}
          </p>
          {recent ? null : (
            <p className="hint">
              {t("channels.peer")}: <code title={o.peer}>{truncateMiddle(o.peer)}</code>
            </p>
          )}
        </section>
      ))}
    </>
  );
}

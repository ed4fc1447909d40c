import { useCallback, useEffect, useState } from "react";
import { useI18n } from "../../i18n/intl";
import type { FriendZap } from "../../projections/zaps";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { formatSats, relativeTime } from "../../ui/format";
import { Skeleton } from "../../ui/Skeleton";
import { useWallet } from "../../ui/wallet";

/** The friends tab (spec 1 home): zaps among the people the owner follows, newest first, older on demand. */
export function FriendsZaps() {
  const { t, lang, intl } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [zaps, setZaps] = useState<FriendZap[] | null>(null);
  const [until, setUntil] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (before: number | null) => {
      setLoading(true);
      setError(null);
      try {
        const page = await client.dispatch({ _tag: "GetFriendZaps", until: before });
        setZaps((shown) => (before === null ? page.zaps : [...(shown ?? []), ...page.zaps]));
        setUntil(page.until);
      } catch (e) {
        setError(errorText(e));
        setZaps((shown) => shown ?? []);
      } finally {
        setLoading(false);
      }
    },
    [client, errorText],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  const now = Math.floor(Date.now() / 1000);
  const who = (name: string | null, hex: string | null) =>
    name ?? (hex ? `${hex.slice(0, 8)}…` : t("zaps.anonymous"));

  if (zaps === null) return <Skeleton width="100%" height="3rem" />;
  return (
    <>
      <ErrorBox text={error} />
      {zaps.length === 0 && !error ? <p className="empty-state">{t("home.friends_empty")}</p> : null}
      <ul className="activity-list" aria-label={t("zaps.title")}>
        {zaps.map((z) => (
          <li key={z.event_id} className="activity-row">
            <span className="activity-kind">{t(`zaps.kind_${z.kind}`)}</span>
            <span className="activity-label">
              {t("zaps.from_to", { from: who(z.from_name, z.from_hexpub), to: who(z.to_name, z.to_hexpub) })}
              {z.note ? ` · ${z.note}` : ""}
            </span>
            <span className="activity-amount">
              {t("zaps.amount", { amount: formatSats(intl, z.amount_sats) })}
            </span>
            <span className="activity-time">{relativeTime(z.timestamp, now, lang)}</span>
          </li>
        ))}
      </ul>
      {until !== null ? (
        <button type="button" className="button" disabled={loading} onClick={() => void load(until)}>
          {t("zaps.older")}
        </button>
      ) : null}
    </>
  );
}

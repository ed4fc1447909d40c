import { useCallback, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import type { FriendZap } from "../../projections/zaps";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox, useErrorText } from "../../ui/errors";
import { formatSats, relativeTime } from "../../ui/format";
import { Skeleton } from "../../ui/Skeleton";
import { useWallet } from "../../ui/wallet";

/** What a person not yet among the contacts is called: their profile's name, else the start of their npub. */
const shownName = (chat: FriendZap["chat"]) => chat.name ?? `${chat.npub.slice(0, 12)}…`;

/**
 * The friends tab (spec 1 home): zaps among the people the owner follows, newest first, older on demand.
 * A row opens the chat with its sender (the recipient of an anonymous zap); someone not yet among the
 * contacts is added only once the owner says Continue.
 */
export function FriendsZaps() {
  const { t, lang, intl } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [zaps, setZaps] = useState<FriendZap[] | null>(null);
  const [until, setUntil] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const [ask, setAsk] = useState<FriendZap["chat"] | null>(null);
  const [adding, setAdding] = useState(false);

  const openChat = (chat: FriendZap["chat"]) => {
    if (chat.contact_id) navigate(`/chat/${encodeURIComponent(chat.contact_id)}`);
    else setAsk(chat);
  };
  const addAndOpen = async (chat: FriendZap["chat"]) => {
    setAdding(true);
    try {
      const { id } = await client.dispatch({
        _tag: "CreateContact",
        name: shownName(chat),
        npub: chat.npub,
        ln_address: "",
        fromProfile: true,
      });
      navigate(`/chat/${encodeURIComponent(id)}`);
    } catch (e) {
      setError(errorText(e));
      setAsk(null);
    } finally {
      setAdding(false);
    }
  };

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
          <li key={z.event_id}>
            <button type="button" className="activity-row no-icon" onClick={() => openChat(z.chat)}>
              <span className="activity-line">
                <span className="activity-label">
                  {t("zaps.from_to", {
                    from: who(z.from_name, z.from_hexpub),
                    to: who(z.to_name, z.to_hexpub),
                  })}
                  {z.note ? ` · ${z.note}` : ""}
                </span>
                <span className="activity-amount">
                  {t("zaps.amount", { amount: formatSats(intl, z.amount_sats) })}
                </span>
              </span>
              <span className="activity-line">
                <span className="activity-kind">{t(`zaps.kind_${z.kind}`)}</span>
                <span className="activity-time">{relativeTime(z.timestamp, now, lang)}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={ask !== null}
        title={t("zaps.new_contact_title")}
        message={t("zaps.new_contact_message", { name: ask ? shownName(ask) : "" })}
        busy={adding}
        onConfirm={() => {
          if (ask) void addAndOpen(ask);
        }}
        onCancel={() => setAsk(null)}
      />
      {until !== null ? (
        <button type="button" className="button" disabled={loading} onClick={() => void load(until)}>
          {t("zaps.older")}
        </button>
      ) : null}
    </>
  );
}

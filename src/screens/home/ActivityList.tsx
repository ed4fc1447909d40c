import { useEffect, useState } from "react";
import { ArrowDownLeft, ArrowUpRight } from "lucide-react";
import { Link, useLocation } from "wouter";
import { type ActivityItem, neverOpened } from "../../projections/activity";
import { useI18n } from "../../i18n/intl";
import { relativeTime } from "../../ui/format";
import { useGradualCount } from "../../ui/gradual";
import { Skeleton } from "../../ui/Skeleton";
import { useBalanceShown } from "../../ui/prefs";
import { useView } from "../../ui/wallet";
import { ActivityDetails } from "./ActivityDetails";
import { Amount } from "./Amount";

/** Rows in home's first frame; the rest of the 50 follow at once, in the background. */
const FIRST_ROWS = 12;

const useNowSeconds = () => {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
};

/** The last 50 activity items from the activity view; each row opens its details. */
export function ActivityList() {
  const { t, lang } = useI18n();
  const activity = useView("activity");
  const contacts = useView("contacts");
  const live = useView("live");
  const [shown] = useBalanceShown();
  const [open, setOpen] = useState<ActivityItem | null>(null);
  const now = useNowSeconds();
  const [, navigate] = useLocation();
  const rows = useGradualCount(activity?.items.length ?? 0, FIRST_ROWS);

  /** A payment to or from a contact is shown as that contact's ("To Alice", "From Alice"). */
  const contactName = (item: ActivityItem): string | null => {
    const c = contacts?.find((x) => item.contacts.includes(x.id));
    return c ? t(item.inbound ? "activity.from_contact" : "activity.to_contact", { name: c.name }) : null;
  };

  if (!activity) return <Skeleton width="100%" height="3rem" />;
  if (activity.items.length === 0) {
    return (
      <div className="empty-state">
        <p>{t("activity.empty")}</p>
        <div className="row">
          <Link href="/receive" className="button button-primary">
            {t("activity.receive_shortcut")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <>
      <ul className="activity-list" aria-label={t("activity.title")}>
        {activity.items.slice(0, rows).map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="activity-row"
              onClick={() => {
                // A row with a contact opens its chat (spec 1 home); any other opens its details.
                const c = contacts?.find((x) => item.contacts.includes(x.id));
                if (c) navigate(`/chat/${encodeURIComponent(c.id)}`);
                else setOpen(item);
              }}
            >
              <span className={item.inbound ? "activity-icon inbound" : "activity-icon"} aria-hidden="true">
                {item.inbound ? <ArrowDownLeft size={20} /> : <ArrowUpRight size={20} />}
              </span>
              {/* Two lines, each its own: the label takes what its amount leaves, the kind what the time leaves. */}
              <span className="activity-line">
                <span className="activity-label">
                  {neverOpened(item)
                    ? t("activity.nothing_spent")
                    : (contactName(item) ??
                      item.labels[0] ??
                      (item.inbound ? t("activity.received") : t("activity.sent")))}
                  {item.dropped && !neverOpened(item) ? ` · ${t("activity.dropped")}` : ""}
                  {item.privacy_level === "Public"
                    ? ` · ${t("activity.zapped")}`
                    : item.privacy_level === "Private"
                      ? ` · ${t("zaps.kind_private")}`
                      : item.privacy_level === "Anonymous"
                        ? ` · ${t("zaps.kind_anonymous")}`
                        : ""}
                </span>
                {/* What never left the wallet (a dropped transaction, a channel never opened) is no debit. */}
                {item.dropped ? (
                  <s className="activity-amount">
                    <Amount sats={item.amount_sats} shown={shown} live={live} />
                  </s>
                ) : (
                  <span className={item.inbound ? "activity-amount inbound" : "activity-amount"}>
                    {item.inbound ? "+" : "-"}
                    {/* Ecash is counted in e-sats, as the balance card counts it. */}
                    <Amount
                      sats={item.amount_sats}
                      shown={shown}
                      live={live}
                      unit={item.kind === "Ecash" ? "e-sats" : "sats"}
                    />
                  </span>
                )}
              </span>
              <span className="activity-line">
                <span className="activity-kind">
                  {neverOpened(item) ? t("activity.channel_not_opened") : t(`activity.kind.${item.kind}`)}
                </span>
                <span className="activity-time">
                  {item.last_updated === 0
                    ? t("activity.pending")
                    : relativeTime(item.last_updated, now, lang)}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      <ActivityDetails item={open} onClose={() => setOpen(null)} />
    </>
  );
}

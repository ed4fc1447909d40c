import { useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useView } from "../../ui/wallet";
import { usePenaltyNotices } from "./ChannelPenalties";
import { useClosedNotice } from "./ClosedTooLong";
import { useExpiryNotices } from "./ExpiryBanner";
import { useInterruptedNotices } from "./InterruptedOpens";
import type { Notice } from "./notice";
import { useStorageNotice } from "./StorageBanner";
import { useRestoreNotice } from "./StorageRestoreCard";

/** Every notice home has now, the most pressing first. */
const useHomeNotices = (): Notice[] => {
  const { t } = useI18n();
  const wallet = useView("wallet");
  const storage = useStorageNotice();
  const restore = useRestoreNotice();
  const penalties = usePenaltyNotices();
  const expiry = useExpiryNotices();
  const closed = useClosedNotice();
  const interrupted = useInterruptedNotices();
  const backup: Notice | null =
    wallet?.exists && !wallet.has_backed_up
      ? {
          id: "backup",
          tone: "status",
          action: (
            <Link href="/settings/backup" className="backup-prompt">
              {t("home.backup_prompt")}
            </Link>
          ),
        }
      : null;
  return [storage, restore, ...penalties, ...expiry, closed, ...interrupted, backup].filter(
    (n): n is Notice => n !== null,
  );
};

/** One notice as a line: its words, then its one action (the backup's action is its words). */
function Line({ notice }: { readonly notice: Notice }) {
  if (notice.card) return <>{notice.card}</>;
  const className = notice.text ? `status-line status-${notice.tone}` : undefined;
  const title = notice.title || undefined;
  const body = (
    <>
      {notice.heading ? (
        <>
          <strong>{notice.heading}</strong>{" "}
        </>
      ) : null}
      {notice.text ? <span>{notice.text}</span> : null} {notice.action}
    </>
  );
  return notice.tone === "alert" ? (
    <div className={className} role="alert" aria-label={notice.label} title={title}>
      {body}
    </div>
  ) : (
    <div className={className} role="status" aria-label={notice.label} title={title}>
      {body}
    </div>
  );
}

/**
 * Home's one status line, at its top: the most pressing notice (lightning's servers, a restore's figures, a
 * partner punished, a custodian shutting down, the wallet closed too long, an open cut short, the backup),
 * with its one action; the others wait behind a count the owner may open. Nothing when all is well; each
 * notice clears itself when its cause does.
 */
export function HomeStatus() {
  const { t } = useI18n();
  const notices = useHomeNotices();
  const [open, setOpen] = useState(false);
  const [first, ...rest] = notices;
  if (!first) return null;
  return (
    <div className="home-status">
      <Line notice={first} />
      {rest.length > 0 ? (
        <button
          type="button"
          className="status-more"
          aria-expanded={open}
          aria-controls={open ? "home-status-more" : undefined}
          onClick={() => setOpen(!open)}
        >
          {t("home.status.more", { count: rest.length })}
        </button>
      ) : null}
      {open && rest.length > 0 ? (
        <div id="home-status-more" className="home-status-more">
          {rest.map((n) => (
            <Line key={n.id} notice={n} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

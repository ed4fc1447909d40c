import { useEffect, useState } from "react";
import { useI18n } from "../../i18n/intl";
import type { StorageRestore } from "../../projections/live";
import { keepRestore, keptRestore } from "../../ui/prefs";
import { useFormat } from "../../ui/useFormat";
import { useView } from "../../ui/wallet";
import type { Notice } from "./notice";

/**
 * What a restore brought back from the storage server (issue 32), on home after the first start on a new
 * browser: the channels and their balance, the payments of the history as the person counts them (its
 * rows), contacts and settings, the ecash mints, and what the 12 words cannot bring back (a federation's
 * ecash). Kept on this browser until the owner closes it, across reloads. Its figures are a card of their
 * own on home's status line, read before any other notice but lightning's.
 */
export function useRestoreNotice(): Notice | null {
  const { t } = useI18n();
  const fmt = useFormat();
  const live = useView("live")?.storage_restore ?? null;
  const payments = useView("activity")?.total;
  const [kept, setKept] = useState(() => keptRestore<StorageRestore>());
  useEffect(() => {
    if (live) {
      keepRestore(live);
      setKept(live);
    }
  }, [live]);
  const found = live ?? kept;
  if (!found) return null;
  const close = () => {
    keepRestore(null);
    setKept(null);
  };
  const card = (
    <section className="card storage-restore" aria-labelledby="storage-restore-title">
      <h2 id="storage-restore-title">{t("storage.restored.title")}</h2>
      <p>
        {t("storage.restored.channels", {
          count: found.channels,
          amount: fmt.sats(BigInt(found.channel_sats)),
        })}
      </p>
      <p>{t("storage.restored.history", { count: payments ?? 0, contacts: found.contacts })}</p>
      {found.mints.length > 0 ? <p>{t("storage.restored.mints", { list: found.mints.join(", ") })}</p> : null}
      <p>{t("storage.restored.onchain")}</p>
      {found.lost_federations.length > 0 ? (
        <>
          <h3>{t("storage.restored.lost_title")}</h3>
          {found.lost_federations.map((name) => (
            <p key={name}>{t("storage.restored.lost_federation", { name })}</p>
          ))}
        </>
      ) : null}
      <button type="button" className="button" onClick={close}>
        {t("storage.restored.close")}
      </button>
    </section>
  );
  return { id: "restore", tone: "status", card };
}

import { useState } from "react";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import { useView } from "../../ui/wallet";

/**
 * What a restore brought back from the storage server (issue 32), on home after the first start on a new
 * browser: the channels and their balance, the history, contacts and settings, the ecash mints, and what the
 * 12 words cannot bring back (a federation's ecash). Shown until the owner closes it.
 */
export function StorageRestoreCard() {
  const { t } = useI18n();
  const fmt = useFormat();
  const found = useView("live")?.storage_restore;
  const [closed, setClosed] = useState(false);
  if (!found || closed) return null;
  return (
    <section className="card storage-restore" aria-labelledby="storage-restore-title">
      <h2 id="storage-restore-title">{t("storage.restored.title")}</h2>
      <ul>
        <li>
          {t("storage.restored.channels", {
            count: found.channels,
            amount: fmt.sats(BigInt(found.channel_sats)),
          })}
        </li>
        <li>{t("storage.restored.history", { count: found.events, contacts: found.contacts })}</li>
        {found.mints.length > 0 ? (
          <li>{t("storage.restored.mints", { list: found.mints.join(", ") })}</li>
        ) : null}
        <li>{t("storage.restored.onchain")}</li>
      </ul>
      {found.lost_federations.length > 0 ? (
        <>
          <h3>{t("storage.restored.lost_title")}</h3>
          <ul>
            {found.lost_federations.map((name) => (
              <li key={name}>{t("storage.restored.lost_federation", { name })}</li>
            ))}
          </ul>
        </>
      ) : null}
      <button type="button" className="button" onClick={() => setClosed(true)}>
        {t("storage.restored.close")}
      </button>
    </section>
  );
}

import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useView } from "../../ui/wallet";

/** The storage server's words (`src/engine/storage`) the node stops with, and their catalogue keys. */
const STOPPED_KEYS: { readonly [text: string]: string } = {
  "Mutiny was opened on another device, so it stopped here.": "storage.taken_over",
  "Mutiny saved your channels from another device, so it stopped here.": "storage.taken_over",
  "Mutiny could not reach its storage server to keep running on this device, so it stopped here.":
    "storage.lock_expired",
  "The storage server answered an older state of your channels than this device saved. Mutiny will not start from it.":
    "storage.rollback",
  "The storage server could not be reached.": "storage.unreachable",
  "The storage server refuses every write, so lightning cannot start here. No other device holds the lock.":
    "storage.refuses_writes",
};

/**
 * The channel state's storage server, on home: while a write waits for it (payments wait too), why the
 * node stopped when the server is the reason (another device took over), and when the server was found
 * behind this device (which save each held; the node went on from this device's, with the way to restore).
 */
export function StorageBanner() {
  const { t } = useI18n();
  const live = useView("live");
  if (live?.storage_waiting)
    return (
      <p className="card storage-banner" role="status">
        {t("storage.waiting")}
      </p>
    );
  const behind = live?.storage_behind;
  if (behind && live?.lightning !== "failed")
    return (
      <div className="card storage-banner" role="status">
        <p>
          {t(behind.forged ? "storage.behind_forged" : "storage.behind", {
            server: behind.server,
            device: behind.device,
          })}
        </p>
        <p>
          {t("storage.behind_other_device")}{" "}
          <Link href="/settings/restore">{t("storage.behind_restore")}</Link>
        </p>
      </div>
    );
  const key =
    live?.lightning === "failed" && live.lightning_error ? STOPPED_KEYS[live.lightning_error] : undefined;
  if (!key) return null;
  return (
    <p className="card storage-banner" role="alert">
      {t(key)}
    </p>
  );
}

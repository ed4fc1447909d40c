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
 * Home's one status line for lightning, at its top: a write waiting for the storage server (payments wait
 * too); the storage server found behind this device (which save each held; the node went on from this
 * device's, with the way to restore); the node paused because a server went away (it starts again by
 * itself, and the line says what still works); or why it stopped when the owner must decide. One action
 * beside it: Restart, a shortcut.
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
  if (live?.lightning_retrying) return <StatusLine text={t("home.lightning_paused")} role="status" />;
  if (live?.lightning !== "failed") return null;
  const key = (live.lightning_error && STOPPED_KEYS[live.lightning_error]) || "home.lightning_failed";
  return <StatusLine text={t(key)} role="alert" title={live.lightning_error ?? ""} />;
}

function StatusLine({ text, role, title }: { text: string; role: "status" | "alert"; title?: string }) {
  const { t } = useI18n();
  return (
    <div className="card storage-banner row" role={role}>
      <span title={title}>{text}</span>
      {/* A new worker is a new LDK instance: reloading runs lightning again at once. */}
      <button type="button" className="button button-small" onClick={() => location.reload()}>
        {t("home.lightning_restart")}
      </button>
    </div>
  );
}

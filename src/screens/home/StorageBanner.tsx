import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useView } from "../../ui/wallet";
import type { Notice } from "./notice";

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
 * Lightning's notice, first on home's status line: the node paused because a server went away (it starts
 * again by itself, and the line says what still works, with Restart as a shortcut); a write waiting for the
 * storage server (payments wait too); the storage server found behind this device (which save each held;
 * the node went on from this device's, with the way to restore); or why it stopped when the owner must
 * decide, with Restart.
 */
export function useStorageNotice(): Notice | null {
  const { t } = useI18n();
  const live = useView("live");
  // A new worker is a new LDK instance: reloading runs lightning again at once.
  const restart = (
    <button type="button" className="button button-small" onClick={() => location.reload()}>
      {t("home.lightning_restart")}
    </button>
  );
  // Paused, it comes back by itself: Restart stays beside it as a shortcut. While it is paused, what else
  // waits for the storage server (the wallet's log) waits with it, and the line says what still works.
  if (live?.lightning_retrying)
    return { id: "storage", tone: "status", text: t("home.lightning_paused"), action: restart };
  if (live?.storage_waiting) return { id: "storage", tone: "status", text: t("storage.waiting") };
  const behind = live?.storage_behind;
  if (behind && live?.lightning !== "failed")
    return {
      id: "storage",
      tone: "status",
      text: `${t(behind.forged ? "storage.behind_forged" : "storage.behind", {
        server: behind.server,
        device: behind.device,
      })} ${t("storage.behind_other_device")}`,
      action: <Link href="/settings/restore">{t("storage.behind_restore")}</Link>,
    };
  if (live?.lightning !== "failed") return null;
  const key = (live.lightning_error && STOPPED_KEYS[live.lightning_error]) || "home.lightning_failed";
  return { id: "storage", tone: "alert", text: t(key), title: live.lightning_error ?? "", action: restart };
}

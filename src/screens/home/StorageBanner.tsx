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
};

/**
 * The channel state's storage server, on home: while a write waits for it (payments wait too), and why the
 * node stopped when the server is the reason (another device took over, a stale state refused).
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
  const key =
    live?.lightning === "failed" && live.lightning_error ? STOPPED_KEYS[live.lightning_error] : undefined;
  if (!key) return null;
  return (
    <p className="card storage-banner" role="alert">
      {t(key)}
    </p>
  );
}

import { useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { Dialog } from "../../ui/Dialog";
import { markShutdownWarningSeen, shutdownWarningSeen } from "../../ui/prefs";

/** The hosts of the servers lightning depends on (proxy, storage, LSP), each once. */
const hostsOf = (urls: readonly (string | undefined)[]): string[] => {
  const hosts = new Set<string>();
  for (const url of urls) {
    if (!url) continue;
    try {
      hosts.add(new URL(url).host);
    } catch {
      // not a URL (an LSPS connection string is no server of this list)
    }
  }
  return [...hosts];
};

/**
 * The shutdown warning (spec 1 home modals): a wallet on servers others run is told once what happens if
 * they shut down and where to choose others. Not shown when self-hosted (the `selfhosted` setting).
 */
export function ShutdownWarning() {
  const { t } = useI18n();
  const config = useWalletConfig();
  const [open, setOpen] = useState(() => !config.selfHosted && !shutdownWarningSeen());
  if (config.selfHosted) return null;
  const close = () => {
    markShutdownWarningSeen();
    setOpen(false);
  };
  const servers = config.servers;
  const hosts = hostsOf([servers?.proxy, servers?.storage, servers?.lsp]).join(", ");
  return (
    <Dialog open={open} title={t("home.shutdown.title")} onClose={close}>
      <p>{t("home.shutdown.text", { hosts })}</p>
      <div className="row">
        <Link href="/settings/servers" className="button" onClick={close}>
          {t("home.shutdown.servers")}
        </Link>
        <button type="button" className="button button-primary" onClick={close}>
          {t("home.shutdown.ok")}
        </button>
      </div>
    </Dialog>
  );
}

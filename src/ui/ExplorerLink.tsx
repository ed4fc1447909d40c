import { useI18n } from "../i18n/intl";
import { useWalletConfig } from "./config";
import { explorerTxUrl } from "./explorer";

/** A transaction on the block explorer of the wallet's network. */
export function ExplorerLink({ txid }: { txid: string }) {
  const { t } = useI18n();
  const config = useWalletConfig();
  return (
    <a
      className="link"
      href={explorerTxUrl(config.network, txid, config.esplora)}
      target="_blank"
      rel="noreferrer"
    >
      {t("activity.explorer")}
    </a>
  );
}

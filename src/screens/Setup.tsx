import { ErrorBox, useErrorText } from "../ui/errors";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { afterNewWallet } from "../ui/profile";
import { useView, useWallet } from "../ui/wallet";

/** First run (spec 2 §2): a new wallet, or import an existing one. */
export function Setup() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const wallet = useView("wallet");
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.dispatch({ _tag: "CreateWallet" });
      // First run: a profile, unless one was set up before or a browser extension holds the identity.
      navigate(afterNewWallet(), { replace: true });
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <main className="screen center setup">
      <h1>{t("setup.title")}</h1>
      <p>{t("setup.subtitle")}</p>
      {wallet?.exists ? (
        <p>{t("setup.already")}</p>
      ) : (
        <div className="column">
          <button type="button" className="button button-primary" onClick={create} disabled={busy}>
            {busy ? t("setup.creating") : t("setup.new_wallet")}
          </button>
          <Link href="/setup/restore" className="button">
            {t("setup.import")}
          </Link>
          <Link href="/settings/emergencykit" className="link">
            {t("setup.import_file")}
          </Link>
        </div>
      )}
      <ErrorBox text={error} />
    </main>
  );
}

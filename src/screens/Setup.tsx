import { useWalletConfig } from "../ui/config";
import { ErrorBox, useErrorText } from "../ui/errors";
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { takeNewWalletFailure } from "../ui/new-wallet";
import { Logo } from "../ui/Logo";
import { beginNewWallet } from "./first-run";
import { useView, useWallet } from "../ui/wallet";
import { earlyPressWaiting, takeEarlyPress } from "../welcome/first-paint";

/** First run (spec 2 §2): a new wallet, or import an existing one. */
export function Setup() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const wallet = useView("wallet");
  const [, navigate] = useLocation();
  const config = useWalletConfig();
  // "New wallet" pressed on the screen drawn before the app's code arrived: it stays pressed.
  const [busy, setBusy] = useState(earlyPressWaiting);
  // Making the wallet failed while the profile step showed: that step gave way to this screen again.
  const [error, setError] = useState<string | null>(() => {
    const failed = takeNewWalletFailure();
    return failed ? errorText(failed) : null;
  });
  const create = async () => {
    setBusy(true);
    setError(null);
    navigate(await beginNewWallet(client, config.network), { replace: true });
  };

  // Once, for the press made before this screen existed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first render's handler acts on it
  useEffect(() => {
    if (takeEarlyPress()) void create();
  }, []);

  return (
    <main className="screen center setup">
      <Logo large />
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

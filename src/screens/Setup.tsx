import { startWorkerEarly } from "../boot";
import { useWalletConfig } from "../ui/config";
import { ErrorBox, useErrorText } from "../ui/errors";
import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { makeNewWallet, takeNewWalletFailure } from "../ui/new-wallet";
import { Logo } from "../ui/Logo";
import { afterNewWallet } from "../ui/profile";
import { Home, NewProfile } from "./first-run";
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
    // The worker that makes the wallet comes now, if the boot has not made it yet (it waits for a frame).
    startWorkerEarly(config.network, undefined, true);
    setBusy(true);
    setError(null);
    void makeNewWallet(client).catch(() => undefined);
    // First run: a profile, unless one was set up before or a browser extension holds the identity. Neither
    // that step nor home needs anything of the wallet to show: the next one shows as soon as its code is
    // here, while the worker makes the wallet (home takes no action until it exists, and a failure brings
    // this screen back with the error).
    const next = afterNewWallet();
    await (next === "/newprofile" ? NewProfile : Home).preload().catch(() => undefined);
    navigate(next, { replace: true });
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

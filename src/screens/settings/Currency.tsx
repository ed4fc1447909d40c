import { ErrorBox, useErrorText } from "../../ui/errors";
import { useState } from "react";
import { useLocation } from "wouter";
import { FIAT_CURRENCIES } from "../../ui/money";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { useView, useWallet } from "../../ui/wallet";
import { AFTER_SAVE_MS } from "../routes";

/** Fiat currency choice; saved with the wallet, then home after 1000 ms. */
export function CurrencySettings() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const settings = useView("settings");
  const [, navigate] = useLocation();
  const [code, setCode] = useState<string>("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = code || settings?.fiat || "USD";

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.dispatch({ _tag: "SetFiat", code: current });
      setTimeout(() => navigate("/"), AFTER_SAVE_MS);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.currency.title")}</h1>
      <p>{t("settings.currency.caption")}</p>
      <form onSubmit={save} className="column">
        <label htmlFor="currency">{t("settings.currency.select_currency")}</label>
        <select id="currency" value={current} onChange={(e) => setCode(e.target.value)}>
          {FIAT_CURRENCIES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("common.saving") : t("settings.currency.select")}
        </button>
      </form>
      <a
        className="link"
        href="https://github.com/MutinyWallet/mutiny-web/issues/new"
        target="_blank"
        rel="noreferrer"
      >
        {t("settings.currency.request_currency")}
      </a>
    </main>
  );
}

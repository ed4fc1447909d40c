import { ErrorBox } from "../../ui/errors";
import { useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { type Language, LANGUAGES } from "../../i18n/languages";
import { BackControl } from "../../ui/BackControl";
import { AFTER_SAVE_MS } from "../routes";

/** Language choice; kept in this browser (key i18nextLng), then home after 1000 ms. */
export function LanguageSettings() {
  const { t, lang, setLang } = useI18n();
  const [, navigate] = useLocation();
  const [choice, setChoice] = useState<Language>(lang);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!LANGUAGES.some((l) => l.value === choice)) {
      setError(t("settings.language.error_unsupported_language"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await setLang(choice);
      setTimeout(() => navigate("/"), AFTER_SAVE_MS);
    } catch (err) {
      setError(err instanceof Error ? err.message : t("common.unknown_error"));
      setBusy(false);
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.language.title")}</h1>
      <p>{t("settings.language.caption")}</p>
      <form onSubmit={save} className="column">
        <label htmlFor="language">{t("settings.language.select_language")}</label>
        <select id="language" value={choice} onChange={(e) => setChoice(e.target.value as Language)}>
          {LANGUAGES.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("common.saving") : t("settings.language.select")}
        </button>
      </form>
      <a
        className="link"
        href="https://github.com/MutinyWallet/mutiny-web/issues/new"
        target="_blank"
        rel="noreferrer"
      >
        {t("settings.language.request_language")}
      </a>
    </main>
  );
}

import { useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ErrorBox } from "../../ui/errors";
import { Form } from "../../ui/form";
import { AFTER_SAVE_MS } from "../routes";

/**
 * A settings page that picks one option from a list (currency, language): save, then home after 1000 ms.
 * `keys` is the page's message prefix; `save` answers the failure text, or null when saved.
 */
export function ChoiceSettings(props: {
  readonly keys: "settings.currency" | "settings.language";
  readonly id: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly current: string;
  readonly save: (value: string) => Promise<string | null>;
}) {
  const { t } = useI18n();
  const [, navigate] = useLocation();
  const [choice, setChoice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const value = choice ?? props.current;
  const k = props.keys;
  const what = k === "settings.currency" ? "currency" : "language";

  const submit = async () => {
    setBusy(true);
    setError(null);
    const failure = await props.save(value);
    if (failure === null) setTimeout(() => navigate("/"), AFTER_SAVE_MS);
    else {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t(`${k}.title`)}</h1>
      <p>{t(`${k}.caption`)}</p>
      <Form onSubmit={submit}>
        <label htmlFor={props.id}>{t(`${k}.select_${what}`)}</label>
        <select id={props.id} value={value} onChange={(e) => setChoice(e.target.value)}>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("common.saving") : t(`${k}.select`)}
        </button>
      </Form>
      <a
        className="link"
        href="https://github.com/MutinyWallet/mutiny-web/issues/new"
        target="_blank"
        rel="noreferrer"
      >
        {t(`${k}.request_${what}`)}
      </a>
    </main>
  );
}

import { ErrorBox, useErrorText } from "../../ui/errors";
import { Eye, EyeOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { useView, useWallet } from "../../ui/wallet";

const CHECKS = ["confirm", "responsibility", "liar"] as const;

/** Backup: the seed words, three acknowledgements, then the wallet counts as backed up. */
export function Backup() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const [, navigate] = useLocation();
  const [words, setWords] = useState<string[] | null>(null);
  const [checked, setChecked] = useState<Record<string, boolean>>({});
  const [error, setError] = useState<string | null>(null);
  // The words stay covered until the owner asks, and are covered again whenever the page is hidden.
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    const hide = () => {
      if (document.visibilityState === "hidden") setRevealed(false);
    };
    document.addEventListener("visibilitychange", hide);
    return () => document.removeEventListener("visibilitychange", hide);
  }, []);
  // Focus follows the words: to the list when shown, back to the reveal button when covered again.
  const list = useRef<HTMLOListElement>(null);
  const reveal = useRef<HTMLButtonElement>(null);
  const toggled = useRef(false);
  useEffect(() => {
    if (!toggled.current) return;
    (revealed ? list.current : reveal.current)?.focus();
  }, [revealed]);
  const show = (on: boolean) => {
    toggled.current = true;
    setRevealed(on);
  };
  // With a password, the words can be shown once the owner has entered it.
  const locked = useView("live")?.needs_password ?? false;

  useEffect(() => {
    if (locked) return;
    setError(null);
    client
      .dispatch({ _tag: "ShowSeed" })
      .then((r) => setWords(r.words))
      .catch((e) => setError(errorText(e)));
  }, [client, errorText, locked]);

  const confirm = async () => {
    try {
      await client.dispatch({ _tag: "MarkBackedUp" });
      navigate("/");
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.backup.title")}</h1>
      <p>{t("settings.backup.caption")}</p>
      {words && revealed ? (
        <>
          <ol ref={list} tabIndex={-1} className="seed-words" aria-label={t("settings.backup.seed_words")}>
            {words.map((w, i) => (
              // The words never change order while shown; position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: a seed word's position is its identity
              <li key={i}>{w}</li>
            ))}
          </ol>
          <button type="button" className="button" onClick={() => show(false)}>
            <EyeOff aria-hidden="true" size={18} />
            {t("settings.backup.hide")}
          </button>
        </>
      ) : null}
      {words && !revealed ? (
        <div className="seed-cover">
          <p className="hint">{t("settings.backup.hidden_note")}</p>
          <button ref={reveal} type="button" className="button button-primary" onClick={() => show(true)}>
            <Eye aria-hidden="true" size={18} />
            {t("settings.backup.reveal")}
          </button>
        </div>
      ) : null}
      <fieldset className="column">
        <legend>{t("settings.backup.confirm_title")}</legend>
        {CHECKS.map((c) => (
          <label key={c} className="check-row">
            <input
              type="checkbox"
              checked={checked[c] ?? false}
              onChange={(e) => setChecked({ ...checked, [c]: e.target.checked })}
            />
            {t(`settings.backup.${c}`)}
          </label>
        ))}
      </fieldset>
      <ErrorBox text={error} />
      <button
        type="button"
        className="button button-primary"
        disabled={!words || !CHECKS.every((c) => checked[c])}
        onClick={confirm}
      >
        {t("settings.backup.i_wrote_it_down")}
      </button>
    </main>
  );
}

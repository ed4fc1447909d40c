import { useState } from "react";
import { CommandFailed } from "../../commands/client";
import { useI18n } from "../../i18n/intl";
import { BackControl } from "../../ui/BackControl";
import { ConfirmDialog } from "../../ui/Dialog";
import { ErrorBox } from "../../ui/errors";
import { Form, useAction } from "../../ui/form";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { AFTER_SAVE_MS } from "../routes";

const WORDS = 12;

/**
 * Restore from 12 written-down words (spec 2 §2, §4): a grid with paste, a confirmation, then home. The
 * words are checked in the worker; a wrong one is pointed out by its position.
 */
export function Restore() {
  const { t } = useI18n();
  const client = useWallet();
  const toast = useToast();
  const wallet = useView("wallet");
  const [words, setWords] = useState<string[]>(() => Array(WORDS).fill(""));
  const { busy, error, setError, run } = useAction();
  const [wrongAt, setWrongAt] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const replacing = wallet?.exists ?? false;

  const setWord = (i: number, w: string) =>
    setWords((ws) => ws.map((x, j) => (j === i ? w.trim().toLowerCase() : x)));

  const paste = async () => {
    setError(null);
    try {
      const parts = (await navigator.clipboard.readText()).trim().toLowerCase().split(/\s+/).filter(Boolean);
      if (parts.length !== WORDS) {
        setError(t("settings.restore.error_word_number"));
        return;
      }
      setWords(parts);
    } catch {
      setError(t("send.error_clipboard"));
    }
  };

  const restore = () => {
    setWrongAt(null);
    return run(
      async () => {
        await client.dispatch({ _tag: "RestoreWallet", words, replace: replacing });
        client.stop();
        toast({ title: t("settings.restore.restored") });
        setTimeout(() => location.assign("/"), AFTER_SAVE_MS);
      },
      {
        stayBusy: true,
        explain: (e, text) => {
          setConfirming(false);
          if (e instanceof CommandFailed && e.key === "settings.restore.wrong_word" && e.values?.n)
            setWrongAt(Number(e.values.n) - 1);
          return text;
        },
      },
    );
  };

  return (
    <main className="screen">
      <BackControl />
      <h1>{t("settings.restore.title")}</h1>
      <p>{t("settings.restore.caption")}</p>
      <p className="hint">{t("settings.restore.what_comes_back")}</p>
      <Form
        onSubmit={() =>
          words.some((w) => w === "") ? setError(t("settings.restore.all_words")) : setConfirming(true)
        }
      >
        <ol className="word-grid">
          {words.map((w, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a seed word's position is its identity
            <li key={i}>
              <label htmlFor={`word-${i + 1}`}>{t("settings.restore.word", { n: i + 1 })}</label>
              <input
                id={`word-${i + 1}`}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                aria-invalid={wrongAt === i}
                value={w}
                onChange={(e) => setWord(i, e.target.value)}
              />
            </li>
          ))}
        </ol>
        <ErrorBox text={error} />
        <div className="row">
          <button type="button" className="button" onClick={paste}>
            {t("settings.restore.paste")}
          </button>
          <button type="submit" className="button button-primary">
            {t("settings.restore.restore")}
          </button>
        </div>
      </Form>
      <ConfirmDialog
        open={confirming}
        danger={replacing}
        title={t("settings.restore.confirm_title")}
        message={replacing ? t("settings.restore.confirm_replace") : t("settings.restore.confirm")}
        confirmLabel={t("settings.restore.restore")}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void restore()}
      />
    </main>
  );
}

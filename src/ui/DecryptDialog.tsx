import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { Dialog } from "./Dialog";
import { ErrorBox, useErrorText } from "./errors";
import { useView, useWallet } from "./wallet";

/** Where forgot password leads: restoring from the 12 words needs no password. */
const WITHOUT_PASSWORD = ["/settings/restore"];

/**
 * The decrypt dialog (spec 1 §4 password): open while the wallet needs its password. Submitting unlocks
 * the wallet; a wrong password shows 'Incorrect password entered.'. Forgot password leads to the restore.
 */
export function DecryptDialog() {
  const { t } = useI18n();
  const errorText = useErrorText();
  const client = useWallet();
  const live = useView("live");
  const [path] = useLocation();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = (live?.needs_password ?? false) && !WITHOUT_PASSWORD.includes(path);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await client.dispatch({ _tag: "Unlock", password });
      setPassword("");
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} closable={false} title={t("settings.decrypt.title")} onClose={() => undefined}>
      <form className="column" onSubmit={submit}>
        <label htmlFor="decrypt-password">{t("settings.decrypt.password")}</label>
        <input
          id="decrypt-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("settings.decrypt.decrypting") : t("settings.decrypt.decrypt")}
        </button>
        <Link href="/settings/restore" className="link">
          {t("settings.decrypt.forgot_password_link")}
        </Link>
      </form>
    </Dialog>
  );
}

import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../i18n/intl";
import { Dialog } from "./Dialog";
import { ErrorBox } from "./errors";
import { Form, TextField, useAction } from "./form";
import { useView, useWallet } from "./wallet";

/** Where forgot password leads: restoring from the 12 words needs no password. */
const WITHOUT_PASSWORD = ["/settings/restore"];

/**
 * The decrypt dialog (spec 1 §4 password): open while the wallet needs its password. Submitting unlocks
 * the wallet; a wrong password shows 'Incorrect password entered.'. Forgot password leads to the restore.
 */
export function DecryptDialog() {
  const { t } = useI18n();
  const client = useWallet();
  const live = useView("live");
  const [path] = useLocation();
  const [password, setPassword] = useState("");
  const { busy, error, run } = useAction();
  const open = (live?.needs_password ?? false) && !WITHOUT_PASSWORD.includes(path);

  const submit = () =>
    run(async () => {
      await client.dispatch({ _tag: "Unlock", password });
      setPassword("");
    });

  return (
    <Dialog open={open} closable={false} title={t("settings.decrypt.title")} onClose={() => undefined}>
      <Form onSubmit={submit}>
        <TextField
          id="decrypt-password"
          label={t("settings.decrypt.password")}
          type="password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
        />
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t("settings.decrypt.decrypting") : t("settings.decrypt.decrypt")}
        </button>
        <Link href="/settings/restore" className="link">
          {t("settings.decrypt.forgot_password_link")}
        </Link>
      </Form>
    </Dialog>
  );
}

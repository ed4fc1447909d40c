import { useState } from "react";
import { Link, useLocation } from "wouter";
import { useI18n } from "../../i18n/intl";
import { Screen } from "../../ui/Screen";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";
import { useToast } from "../../ui/toast";
import { useView, useWallet } from "../../ui/wallet";
import { AFTER_SAVE_MS } from "../routes";

const FIELDS = [
  { name: "existing", key: "settings.encrypt.existing_password", autoComplete: "current-password" },
  { name: "password", key: "settings.encrypt.new_password", autoComplete: "new-password" },
  { name: "confirm", key: "settings.encrypt.confirm_password", autoComplete: "new-password" },
] as const;

type Passwords = Record<(typeof FIELDS)[number]["name"], string>;

/**
 * Set, change or remove the password that encrypts the seed and lightning state on this device. The
 * rules (match, differ, blank means none, backup first) are the worker's; this page shows its answer.
 */
export function EncryptSettings() {
  const { t } = useI18n();
  const client = useWallet();
  const wallet = useView("wallet");
  const live = useView("live");
  const toast = useToast();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<Passwords>({ existing: "", password: "", confirm: "" });
  const { busy, error, run } = useAction();
  const backedUp = wallet?.has_backed_up ?? false;

  const submit = () =>
    run(
      async () => {
        const { hasPassword } = await client.dispatch({ _tag: "ChangePassword", ...form });
        setForm({ existing: "", password: "", confirm: "" });
        toast({ title: t(hasPassword ? "settings.encrypt.saved" : "settings.encrypt.removed") });
        setTimeout(() => navigate("/"), AFTER_SAVE_MS);
      },
      { stayBusy: true },
    );

  return (
    <Screen title={t("settings.encrypt.title")} caption={t("settings.encrypt.caption")}>
      {backedUp ? null : (
        <p role="status">
          {t("settings.encrypt.error_backup")}{" "}
          <Link href="/settings/backup" className="link">
            {t("settings.backup")}
          </Link>
        </p>
      )}
      <Form onSubmit={submit}>
        {FIELDS.map((f) => (
          <div className="column" key={f.name}>
            <TextField
              id={`encrypt-${f.name}`}
              label={t(f.key)}
              type="password"
              autoComplete={f.autoComplete}
              value={form[f.name]}
              disabled={!backedUp}
              aria-describedby={f.name === "existing" ? "encrypt-existing-caption" : undefined}
              onValue={(value) => setForm({ ...form, [f.name]: value })}
            />
            {f.name === "existing" ? (
              <small id="encrypt-existing-caption">
                {live?.has_password
                  ? t("settings.encrypt.existing_caption_set")
                  : t("settings.encrypt.existing_caption_none")}
              </small>
            ) : null}
          </div>
        ))}
        <small>{t("settings.encrypt.blank_removes")}</small>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={busy || !backedUp}>
          {busy ? t("common.saving") : t("settings.encrypt.save")}
        </button>
      </Form>
    </Screen>
  );
}

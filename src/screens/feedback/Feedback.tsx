import { useEffect, useState } from "react";
import { Link } from "wouter";
import { useI18n } from "../../i18n/intl";
import { Screen } from "../../ui/Screen";
import { useWalletConfig } from "../../ui/config";
import { FilePicker } from "../../ui/FilePicker";
import { ErrorBox } from "../../ui/errors";
import { Form, useAction } from "../../ui/form";
import { useView, useWallet } from "../../ui/wallet";

type UserType = "nostr" | "email";

interface Draft {
  readonly userType: UserType;
  readonly id: string;
  readonly feedback: string;
  readonly includeLogs: boolean;
  readonly images: readonly File[];
}

const EMPTY: Draft = { userType: "nostr", id: "", feedback: "", includeLogs: false, images: [] };

/**
 * Feedback (spec 2): who the owner is (nostr or e-mail, optional), the feedback itself (required), whether
 * the logs go with it (the worker cuts every secret out first) and images; then a thank-you screen.
 */
export function Feedback() {
  const { t } = useI18n();
  const client = useWallet();
  const config = useWalletConfig();
  const [form, setForm] = useState<Draft>(EMPTY);
  const [dirty, setDirty] = useState(false);
  const [touched, setTouched] = useState(false);
  const { busy, error, run } = useAction();
  const [sent, setSent] = useState(false);
  const valid = form.feedback.trim().length > 0;
  // The wallet's own npub is who the owner is on nostr: filled in, and free to change or clear.
  const npub = useView("profile")?.npub ?? null;
  useEffect(() => {
    void client.dispatch({ _tag: "GetNpub" }).catch(() => undefined);
  }, [client]);
  useEffect(() => {
    if (npub) setForm((f) => (f.userType === "nostr" && f.id === "" ? { ...f, id: npub } : f));
  }, [npub]);

  const change = (patch: Partial<Draft>) => {
    setForm({ ...form, ...patch });
    setDirty(true);
  };

  const submit = () => {
    setTouched(true);
    if (!valid || busy) return;
    return run(async () => {
      const images = await Promise.all(
        form.images.map(async (f) => ({
          name: f.name,
          type: f.type,
          bytes: new Uint8Array(await f.arrayBuffer()),
        })),
      );
      await client.dispatch({
        _tag: "SendFeedback",
        host: config.feedback ?? "",
        userType: form.userType,
        id: form.id,
        feedback: form.feedback,
        includeLogs: form.includeLogs,
        images,
      });
      setSent(true);
    });
  };

  if (sent)
    return (
      <main className="screen">
        <h1>{t("feedback.thanks_title")}</h1>
        <p role="status">{t("feedback.thanks")}</p>
        <Link href="/" className="button button-primary">
          {t("common.home")}
        </Link>
        <button
          type="button"
          className="button"
          onClick={() => {
            setForm(EMPTY);
            setDirty(false);
            setTouched(false);
            setSent(false);
          }}
        >
          {t("feedback.send_another")}
        </button>
      </main>
    );

  return (
    <Screen title={t("feedback.title")} caption={t("feedback.caption")}>
      <Form onSubmit={submit} noValidate>
        <fieldset className="column">
          <legend>{t("feedback.user_type")}</legend>
          {(["nostr", "email"] as const).map((u) => (
            <label key={u} className="check-row">
              <input
                type="radio"
                name="user_type"
                value={u}
                checked={form.userType === u}
                onChange={() =>
                  change({ userType: u, id: u === "nostr" ? (npub ?? "") : form.id === npub ? "" : form.id })
                }
              />
              {t(`feedback.user_type_${u}`)}
            </label>
          ))}
        </fieldset>
        <label htmlFor="feedback-id">
          {t(form.userType === "nostr" ? "feedback.id_nostr" : "feedback.id_email")}
        </label>
        <input
          id="feedback-id"
          type={form.userType === "email" ? "email" : "text"}
          value={form.id}
          autoComplete={form.userType === "email" ? "email" : "off"}
          onChange={(e) => change({ id: e.target.value })}
        />
        <label htmlFor="feedback-text">{t("feedback.feedback")}</label>
        <textarea
          id="feedback-text"
          rows={6}
          required
          value={form.feedback}
          aria-invalid={touched && !valid}
          aria-describedby={touched && !valid ? "feedback-text-error" : undefined}
          onBlur={() => setTouched(true)}
          onChange={(e) => {
            setTouched(true);
            change({ feedback: e.target.value });
          }}
        />
        {touched && !valid ? (
          <small id="feedback-text-error" className="error" role="alert">
            {t("feedback.invalid_feedback")}
          </small>
        ) : null}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.includeLogs}
            onChange={(e) => change({ includeLogs: e.target.checked })}
          />
          {t("feedback.include_logs")}
        </label>
        <small>{t("feedback.logs_redacted")}</small>
        <fieldset className="column file-field">
          <legend className="field-label">{t("feedback.images")}</legend>
          <FilePicker
            className="button self-start"
            accept="image/*"
            multiple
            onFiles={(files) => change({ images: files.slice(0, 4) })}
          >
            {t("feedback.images_choose")}
          </FilePicker>
          {form.images.length > 0 ? (
            <p className="hint break">{form.images.map((f) => f.name).join(", ")}</p>
          ) : null}
        </fieldset>
        <ErrorBox text={error} />
        <button type="submit" className="button button-primary" disabled={!dirty || !valid || busy}>
          {busy ? t("feedback.sending") : t("feedback.send")}
        </button>
      </Form>
    </Screen>
  );
}

import { useId, useState } from "react";
import { type ContactForm as Values, contactFormErrors } from "../../commands/contact-form";
import { useI18n } from "../../i18n/intl";
import { ErrorBox, useErrorText } from "../../ui/errors";

const FIELDS = ["name", "ln_address", "npub"] as const;

/**
 * The contact form (spec 2 §5): name, lightning address, optional npub. Each field's broken rule shows
 * beside it once the owner tried to save; the worker checks the same rules again.
 */
export function ContactForm({
  initial,
  submitLabel,
  onSubmit,
  children,
}: {
  initial: Values;
  submitLabel: string;
  onSubmit: (values: Values) => Promise<unknown>;
  children?: React.ReactNode;
}) {
  const { t } = useI18n();
  const errorText = useErrorText();
  const id = useId();
  const [values, setValues] = useState<Values>(initial);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const errors = tried ? contactFormErrors(values) : {};
  return (
    <form
      className="column"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        setTried(true);
        setFailure(null);
        if (Object.keys(contactFormErrors(values)).length > 0) return;
        setBusy(true);
        try {
          await onSubmit(values);
        } catch (err) {
          setFailure(errorText(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      {FIELDS.map((field) => (
        <div className="column" key={field}>
          <label htmlFor={`${id}-${field}`}>{t(`contacts.${field}`)}</label>
          <input
            id={`${id}-${field}`}
            autoComplete="off"
            spellCheck={false}
            value={values[field]}
            placeholder={field === "npub" ? t("contacts.npub_optional") : undefined}
            aria-invalid={errors[field] ? true : undefined}
            aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
            onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
          />
          {errors[field] ? (
            <p id={`${id}-${field}-error`} className="error-box" role="alert">
              {t(errors[field])}
            </p>
          ) : null}
        </div>
      ))}
      <ErrorBox text={failure} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? t("common.saving") : submitLabel}
      </button>
      {children}
    </form>
  );
}

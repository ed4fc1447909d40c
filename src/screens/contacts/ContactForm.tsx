import { useId, useState } from "react";
import { type ContactForm as Values, contactFormErrors } from "../../commands/nostr/contact-form";
import { useI18n } from "../../i18n/intl";
import { ErrorBox } from "../../ui/errors";
import { Form, TextField, useAction } from "../../ui/form";

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
  const id = useId();
  const [values, setValues] = useState<Values>(initial);
  const [tried, setTried] = useState(false);
  const { busy, error, setError, run } = useAction();
  const errors = tried ? contactFormErrors(values) : {};
  const submit = () => {
    setTried(true);
    setError(null);
    if (Object.keys(contactFormErrors(values)).length > 0) return;
    return run(() => onSubmit(values));
  };
  return (
    <Form noValidate onSubmit={submit}>
      {FIELDS.map((field) => {
        const problem = errors[field];
        return (
          <div className="column" key={field}>
            <TextField
              id={`${id}-${field}`}
              label={t(`contacts.${field}`)}
              value={values[field]}
              placeholder={field === "npub" ? t("contacts.npub_optional") : undefined}
              problem={problem ? t(problem) : null}
              onValue={(value) => setValues((v) => ({ ...v, [field]: value }))}
            />
          </div>
        );
      })}
      <ErrorBox text={error} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? t("common.saving") : submitLabel}
      </button>
      {children}
    </Form>
  );
}

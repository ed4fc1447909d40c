import { useState } from "react";
import { useI18n } from "../../../i18n/intl";
import { ErrorBox } from "../../../ui/errors";
import { Form, TextField, useAction } from "../../../ui/form";

const PERIODS = [0, 1, 2, 3] as const;
export interface ConnectionFields {
  name: string;
  budget: string;
  period: number;
  requireApproval: boolean;
  enabled: boolean;
}

export const emptyForm: ConnectionFields = {
  name: "",
  budget: "10000",
  period: 0,
  requireApproval: false,
  enabled: true,
};

/** The connection form's own rules (spec 2 §5), checked before the worker checks them again. */
const formProblem = (f: ConnectionFields): "settings.connections.error_name" | "error_budget_zero" | null => {
  if (f.name.trim() === "") return "settings.connections.error_name";
  if (!f.requireApproval && (f.budget.trim() === "" || BigInt(f.budget) === 0n)) return "error_budget_zero";
  return null;
};

/** The add/edit form; in edit mode the name is locked, and a fixed budget cannot change. */
export function ConnectionForm({
  initial,
  editing,
  budgetFixed,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: ConnectionFields;
  editing: boolean;
  budgetFixed: boolean;
  submitLabel: string;
  onSubmit: (f: ConnectionFields) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const [form, setForm] = useState(initial);
  const [problem, setProblem] = useState<ReturnType<typeof formProblem>>(null);
  const { busy, error, run } = useAction();
  return (
    <Form
      noValidate
      onSubmit={() => {
        const p = formProblem(form);
        setProblem(p);
        return p ? undefined : run(() => onSubmit(form));
      }}
    >
      <TextField
        id="connection-name"
        label={t("settings.connections.name")}
        type="text"
        value={form.name}
        readOnly={editing}
        aria-readonly={editing}
        problem={problem === "settings.connections.error_name" ? t(problem) : null}
        onValue={(name) => setForm({ ...form, name })}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={!form.requireApproval}
          onChange={(e) => setForm({ ...form, requireApproval: !e.target.checked })}
        />
        {t("settings.connections.auto_approve")}
      </label>
      <TextField
        id="connection-budget"
        label={t("settings.connections.budget")}
        type="text"
        inputMode="numeric"
        value={form.budget}
        disabled={budgetFixed}
        problem={problem === "error_budget_zero" ? t(problem) : null}
        onValue={(v) => setForm({ ...form, budget: v.replace(/\D/g, "") })}
      />
      <label htmlFor="connection-period">{t("settings.connections.period")}</label>
      <select
        id="connection-period"
        value={form.period}
        disabled={budgetFixed}
        onChange={(e) => setForm({ ...form, period: Number(e.target.value) })}
      >
        {PERIODS.map((p) => (
          <option key={p} value={p}>
            {t(`settings.connections.period_${p}`)}
          </option>
        ))}
      </select>
      {editing ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.enabled}
            onChange={(e) => setForm({ ...form, enabled: e.target.checked })}
          />
          {t("settings.connections.enabled")}
        </label>
      ) : null}
      <ErrorBox text={error} />
      <div className="row form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}

import type { ReactNode } from "react";
import type { FederationView } from "../../projections";
import { useI18n } from "../../i18n/intl";
import { formatSats } from "../../ui/format";

/** A custodian picker: each federation or mint by name with its ecash balance. */
export function CustodianSelect({
  id,
  label,
  value,
  onChange,
  custodians,
}: {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (federationId: string) => void;
  readonly custodians: readonly FederationView[];
}) {
  const { t, intl } = useI18n();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {custodians.map((f) => (
          <option key={f.federation_id} value={f.federation_id}>
            {f.federation_name} ({formatSats(intl, f.balance)} {t("common.esats")})
          </option>
        ))}
      </select>
    </>
  );
}

/**
 * The quote of an ecash payment before anything moves (a transfer between custodians, a swap to the wallet's
 * own lightning): what it says, then Edit (back to the start with what was entered) and Confirm.
 */
export function QuotePreview({
  title,
  busy,
  editWhileBusy = false,
  editLabel,
  confirmLabel,
  onEdit,
  onConfirm,
  children,
}: {
  readonly title: string;
  readonly busy: boolean;
  /** Edit stays available while the confirmation runs. */
  readonly editWhileBusy?: boolean;
  readonly editLabel: string;
  readonly confirmLabel: string;
  readonly onEdit: () => void;
  readonly onConfirm: () => unknown;
  readonly children: ReactNode;
}) {
  return (
    <section className="card column" aria-label={title}>
      <h2>{title}</h2>
      {children}
      <div className="row">
        <button type="button" className="button" disabled={busy && !editWhileBusy} onClick={onEdit}>
          {editLabel}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void onConfirm()}
        >
          {confirmLabel}
        </button>
      </div>
    </section>
  );
}

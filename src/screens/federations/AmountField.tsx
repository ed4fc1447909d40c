import { useI18n } from "../../i18n/intl";
import { normaliseSatsInput } from "../../ui/money";

/**
 * The sats amount of an ecash form (swap to lightning, transfer, receive, token): digits only, and a Max
 * button that fills in `max` (the source's balance) when there is one.
 */
export function AmountField({
  id,
  value,
  onChange,
  max,
}: {
  id: string;
  value: string;
  onChange: (digits: string) => void;
  max?: bigint;
}) {
  const { t } = useI18n();
  const input = (
    <input
      id={id}
      inputMode="numeric"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(normaliseSatsInput(e.target.value))}
    />
  );
  return (
    <>
      <label htmlFor={id}>{t("federations.amount")}</label>
      {max === undefined ? (
        input
      ) : (
        <div className="row">
          {input}
          {/* amount-text: input value */}
          <button type="button" className="button" onClick={() => onChange(max.toString())}>
            {t("swap.max")}
          </button>
        </div>
      )}
    </>
  );
}

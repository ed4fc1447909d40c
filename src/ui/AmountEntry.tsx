import { useEffect, useRef, useState } from "react";
import { useI18n } from "../i18n/intl";
import {
  type AmountEntryState,
  canCycleMethods,
  disabledInputs,
  enterAction,
  type FiatRate,
  followRate,
  initialAmountEntry,
  keyboardShown,
  methodKey,
  type PaymentMethod,
  toggleMode,
  typeFiat,
  typeSats,
} from "./amount-entry";
import { TextField } from "./form";
import { useFormat } from "./useFormat";
import { currencyByCode } from "./money";
import { useView } from "./wallet";

/** The live price as the amount entry converts at, or null while none is known (or fiat is BTC). */
export const useFiatRate = (): { rate: FiatRate | null; code: string } => {
  const live = useView("live");
  const currency = live?.fiat ? currencyByCode(live.fiat) : undefined;
  const rate = live?.price && currency ? { price: live.price, digits: currency.maxFractionalDigits } : null;
  return { rate, code: currency?.value ?? "" };
};

/** Whether the on-screen keyboard is up (spec 1 §2), from the visual viewport. */
export const useKeyboardShown = (): boolean => {
  const read = () =>
    typeof window !== "undefined" && window.visualViewport
      ? keyboardShown(window.visualViewport.height, window.visualViewport.scale, window.screen.height)
      : false;
  const [shown, setShown] = useState(read);
  useEffect(() => {
    const vv = window.visualViewport;
    if (!vv) return;
    const on = () => setShown(read());
    vv.addEventListener("resize", on);
    return () => vv.removeEventListener("resize", on);
  });
  return shown;
};

/**
 * Amount entry (spec 1 §2): sats and fiat inputs, one live at a time, a toggle between them, a button that
 * cycles the payment methods with each one's most, and Enter that submits or unfocuses.
 */
export function AmountEntry({
  id,
  label,
  value,
  onChange,
  frozen = false,
  methods = [],
  method,
  onMethod,
  onSubmit,
  receiving = false,
}: {
  id: string;
  label: string;
  value: bigint | null;
  onChange: (sats: bigint | null) => void;
  frozen?: boolean;
  methods?: readonly PaymentMethod[];
  /** The chosen method's key (`methodKey`): its method, or for ecash the method and its custodian. */
  method?: string;
  onMethod?: () => void;
  onSubmit?: () => void;
  /** The methods are where a receive goes (the cycle button says so), not what pays. */
  receiving?: boolean;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  const { rate, code } = useFiatRate();
  const keyboard = useKeyboardShown();
  const [state, setState] = useState<AmountEntryState>(() => initialAmountEntry(value, rate));
  // A value set from outside (a fixed amount, the max button) replaces what is typed.
  useEffect(() => {
    const typed = state.sats === "" ? null : BigInt(state.sats);
    if (typed !== value) setState((s) => ({ ...initialAmountEntry(value, rate), mode: s.mode }));
  }, [value, rate, state.sats]);
  // A new price or currency: the fiat input shows the same sats at it, never the old number.
  const rateKey = rate ? [code, rate.price, rate.digits].join(" ") : "";
  const lastRate = useRef(rateKey);
  useEffect(() => {
    if (lastRate.current === rateKey) return;
    lastRate.current = rateKey;
    setState((s) => followRate(s, rate));
  }, [rateKey, rate]);
  const update = (next: AmountEntryState) => {
    setState(next);
    onChange(next.sats === "" ? null : BigInt(next.sats));
  };
  const disabled = disabledInputs(state.mode, frozen, rate);
  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (enterAction(onSubmit !== undefined) === "submit") onSubmit?.();
    else e.currentTarget.blur();
  };
  const current = methods.find((m) => methodKey(m) === method);
  const currentName = current
    ? t(`amount.method_${current.method}`, { name: current.custodian?.name ?? "" })
    : "";
  // Its most is counted in the unit the method holds: ecash in e-sats, as the balance card counts it.
  const unit =
    current?.method === "ecash"
      ? t("common.esats")
      : t("common.sats", { count: current?.maxAmountSats === 1n ? 1 : 2 });
  // The method and, where it has one, its most: "Lightning · up to 48,000 sats".
  const methodText =
    current && current.maxAmountSats !== null
      ? [currentName, t("amount.max", { max: fmt.sats(current.maxAmountSats), unit })].join(" · ")
      : currentName;
  return (
    <div className={keyboard ? "amount-entry column keyboard" : "amount-entry column"}>
      <TextField
        id={`${id}-sats`}
        label={label}
        inputMode="numeric"
        placeholder="0"
        value={state.sats}
        disabled={disabled.sats}
        onValue={(v) => update(typeSats(state, v, rate))}
        onKeyDown={onKeyDown}
      />
      <TextField
        id={`${id}-fiat`}
        label={t("amount.fiat_label", { code: code || "—" })}
        inputMode="decimal"
        placeholder="0"
        value={state.fiat}
        disabled={disabled.fiat}
        onValue={(v) => update(typeFiat(state, v, rate))}
        onKeyDown={onKeyDown}
      />
      <div className="row">
        <button
          type="button"
          className="button button-small"
          disabled={frozen || rate === null}
          onClick={() => setState(toggleMode(state, rate))}
        >
          {state.mode === "sats" ? t("amount.enter_fiat") : t("amount.enter_sats")}
        </button>
        {current && !canCycleMethods(methods) ? (
          // One way only: said as it is, not a button that looks switched off.
          <span className="method-chip">{methodText}</span>
        ) : current ? (
          <button
            type="button"
            className="button button-small"
            onClick={onMethod}
            aria-label={
              current.maxAmountSats === null
                ? t(receiving ? "amount.method_cycle_receive_any" : "amount.method_cycle_any", {
                    method: currentName,
                  })
                : t(receiving ? "amount.method_cycle_receive" : "amount.method_cycle", {
                    method: currentName,
                    max: fmt.sats(current.maxAmountSats),
                    unit,
                  })
            }
          >
            {methodText}
          </button>
        ) : null}
      </div>
    </div>
  );
}

import type { LiveState } from "../../projections/live";
import { satsToFiat } from "../../ui/money";
import { currencyByCode } from "../../ui/money";
import { useI18n } from "../../i18n/intl";
import { useFormat } from "../../ui/useFormat";
import type { BalanceShown } from "../../ui/prefs";

/** An amount as the owner chose to see it: sats, fiat at the live price, or hidden. */
export function Amount({
  sats,
  shown,
  live,
  unit = "sats",
  fiat,
}: {
  sats: bigint;
  shown: BalanceShown;
  live: LiveState | undefined;
  unit?: "sats" | "e-sats";
  /** Its fiat value when it is a part of a whole shown beside it (rounded so the parts add up). */
  fiat?: string;
}) {
  const { t } = useI18n();
  const fmt = useFormat();
  if (shown === "hidden")
    return (
      <span>
        <span aria-hidden="true">*****</span>
        <span className="visually-hidden">{t("home.balance_hidden")}</span>
      </span>
    );
  if (shown === "fiat" && live?.price) {
    const currency = currencyByCode(live.fiat);
    if (currency)
      return (
        <span>
          {fmt.fiat(
            fiat ?? satsToFiat(sats, live.price, currency.maxFractionalDigits),
            currency.value,
            currency.maxFractionalDigits,
          )}
        </span>
      );
  }
  return (
    <span>
      {fmt.sats(sats)}{" "}
      {unit === "e-sats" ? t("common.esats") : t("common.sats", { count: sats === 1n ? 1 : 2 })}
    </span>
  );
}

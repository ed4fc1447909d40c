import type { LiveState } from "../../projections/live";
import { satsToFiat } from "../../ui/money";
import { currencyByCode } from "../../ui/money";
import { useI18n } from "../../i18n/intl";
import { groupSats } from "../../ui/format";
import type { BalanceShown } from "../../ui/prefs";

/** An amount as the owner chose to see it: sats, fiat at the live price, or hidden. */
export function Amount({
  sats,
  shown,
  live,
  unit = "sats",
}: {
  sats: bigint;
  shown: BalanceShown;
  live: LiveState | undefined;
  unit?: "sats" | "e-sats";
}) {
  const { t, lang } = useI18n();
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
      return <span>{`${satsToFiat(sats, live.price, currency.maxFractionalDigits)} ${currency.value}`}</span>;
  }
  return (
    <span>
      {groupSats(sats, lang)}{" "}
      {unit === "e-sats" ? t("common.esats") : t("common.sats", { count: sats === 1n ? 1 : 2 })}
    </span>
  );
}

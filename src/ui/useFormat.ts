import { useMemo } from "react";
import { useI18n } from "../i18n/intl";
import { formatDateTime, formatDay, formatFiat, formatSats, formatTime, formatWhen } from "./format";

/** The formatters bound to the chosen language: every amount and date a screen shows goes through them. */
export const useFormat = () => {
  const { intl } = useI18n();
  return useMemo(
    () => ({
      sats: (sats: bigint) => formatSats(intl, sats),
      fiat: (decimal: string, currency: string, digits: number) =>
        formatFiat(intl, decimal, currency, digits),
      dateTime: (ms: number) => formatDateTime(intl, ms),
      when: (ms: number) => formatWhen(intl, ms),
      day: (ms: number) => formatDay(intl, ms),
      time: (ms: number) => formatTime(intl, ms),
    }),
    [intl],
  );
};

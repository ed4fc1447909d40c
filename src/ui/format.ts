import type { IntlShape } from "@formatjs/intl";

/** Pure formatting for screens: relative times, truncated addresses, grouped sats. */

/**
 * One relative-time formatter per language, made when first needed: making one costs about a millisecond,
 * and home's list writes the time of each of its 50 rows.
 */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const relativeFormat = (locale: string): Intl.RelativeTimeFormat => {
  let f = relativeFormats.get(locale);
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale, { numeric: "always" });
    relativeFormats.set(locale, f);
  }
  return f;
};

/**
 * Relative time of spec 1 §9: under 60 s in seconds, then minutes, hours, days under 7, then MM/DD/YYYY.
 * `then` and `now` are unix seconds.
 */
export const relativeTime = (then: number, now: number, locale: string): string => {
  const diff = Math.max(0, now - then);
  if (diff < 7 * 86400) {
    const rtf = relativeFormat(locale);
    if (diff < 60) return rtf.format(-Math.floor(diff), "second");
    if (diff < 3600) return rtf.format(-Math.floor(diff / 60), "minute");
    if (diff < 86400) return rtf.format(-Math.floor(diff / 3600), "hour");
    return rtf.format(-Math.floor(diff / 86400), "day");
  }
  const d = new Date(then * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
};

/** Text over 32 characters is shortened to its start and its last 8 characters. */
export const truncateMiddle = (text: string): string =>
  text.length > 32 ? `${text.slice(0, 8)}…${text.slice(-8)}` : text;

/** What the formatters need of the language's @formatjs/intl instance. */
export type NumberIntl = Pick<IntlShape<string>, "formatNumber" | "formatDate">;

/**
 * The one way an amount of sats is written: whole sats grouped as the chosen language writes numbers
 * ("500,000" in English, "500.000" in Deutsch), exact for any bigint.
 */
export const formatSats = (intl: NumberIntl, sats: bigint): string =>
  intl.formatNumber(sats, { maximumFractionDigits: 0 });

/**
 * The one way a fiat amount is written: `decimal` is the exact decimal string the amount maths gives,
 * shown in the language's currency format ("€10.00" in English, "10,00 €" in Deutsch).
 */
export const formatFiat = (intl: NumberIntl, decimal: string, currency: string, digits: number): string =>
  // A decimal string is formatted exactly by Intl.NumberFormat (no rounding through a float).
  intl.formatNumber(decimal as unknown as number, {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });

/** A moment (ms) as the chosen language writes a date and time. */
export const formatDateTime = (intl: NumberIntl, ms: number): string =>
  intl.formatDate(ms, { dateStyle: "medium", timeStyle: "medium" });

/** A moment (ms) to the minute, as a notice tells when something happened. */
export const formatWhen = (intl: NumberIntl, ms: number): string =>
  intl.formatDate(ms, { dateStyle: "medium", timeStyle: "short" });

/** A day (ms), as a conversation heads its messages of that day. */
export const formatDay = (intl: NumberIntl, ms: number): string =>
  intl.formatDate(ms, { dateStyle: "medium" });

/** The time of day (ms) to the minute, beside a message under its day. */
export const formatTime = (intl: NumberIntl, ms: number): string =>
  intl.formatDate(ms, { timeStyle: "short" });

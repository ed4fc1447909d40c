/** Pure formatting for screens: relative times, truncated addresses, grouped sats. */

/**
 * Relative time of spec 1 §9: under 60 s in seconds, then minutes, hours, days under 7, then MM/DD/YYYY.
 * `then` and `now` are unix seconds.
 */
export const relativeTime = (then: number, now: number, locale: string): string => {
  const diff = Math.max(0, now - then);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "always" });
  if (diff < 60) return rtf.format(-Math.floor(diff), "second");
  if (diff < 3600) return rtf.format(-Math.floor(diff / 60), "minute");
  if (diff < 86400) return rtf.format(-Math.floor(diff / 3600), "hour");
  if (diff < 7 * 86400) return rtf.format(-Math.floor(diff / 86400), "day");
  const d = new Date(then * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
};

/** Text over 32 characters is shortened to its start and its last 8 characters. */
export const truncateMiddle = (text: string): string =>
  text.length > 32 ? `${text.slice(0, 8)}…${text.slice(-8)}` : text;

/** Sats with the locale's grouping, exact for any bigint. */
export const groupSats = (sats: bigint, locale: string): string => {
  const sep = new Intl.NumberFormat(locale).format(1000).replace(/\d/g, "") || ",";
  const neg = sats < 0n;
  const digits = (neg ? -sats : sats).toString();
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return neg ? `-${grouped}` : grouped;
};

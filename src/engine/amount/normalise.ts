/**
 * What the amount entry control keeps of what the owner types (spec 1 §5). Both functions are
 * idempotent: normalising a normalised value changes nothing.
 */

/**
 * Sats input: digits only, leading zeros stripped. Nothing typed stays "" (an empty field); only zeros
 * become "0", so the field never shows "000" and never hides that the owner typed a zero.
 */
export const normaliseSatsInput = (raw: string): string => {
  const digits = raw.replace(/\D/g, "");
  if (digits === "") return "";
  return digits.replace(/^0+/, "") || "0";
};

/**
 * Fiat input: digits and the first decimal point (later points are dropped), the fraction truncated to
 * the currency's `maxFractionalDigits`; digits only when the currency has none. As with sats, leading
 * zeros of the whole part are stripped; a whole part that is empty or all zeros before a point becomes
 * "0" (".5" → "0.5", "." → "0."). A trailing point is kept so the owner can go on typing the fraction.
 */
export const normaliseFiatInput = (raw: string, maxFractionalDigits: number): string => {
  const kept = raw.replace(/[^\d.]/g, "");
  if (maxFractionalDigits <= 0) return normaliseSatsInput(kept);
  const point = kept.indexOf(".");
  if (point === -1) return normaliseSatsInput(kept);
  const whole = normaliseSatsInput(kept.slice(0, point)) || "0";
  const fraction = kept
    .slice(point + 1)
    .replace(/\./g, "")
    .slice(0, maxFractionalDigits);
  return `${whole}.${fraction}`;
};

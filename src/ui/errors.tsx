import { useCallback } from "react";
import { CommandFailed } from "../commands/client";
import { useI18n } from "../i18n/intl";
import { formatSats } from "./format";

/**
 * The words a person sees for a failure: the catalogue message in their language when the error names
 * one, else the error's own English text, else 'An unknown error has occurred.'
 */
export const useErrorText = (): ((e: unknown) => string) => {
  const { t, has, intl } = useI18n();
  return useCallback(
    (e: unknown) =>
      e instanceof CommandFailed
        ? e.key && has(e.key)
          ? t(e.key, e.values && localValues(e.values, (n) => formatSats(intl, n)))
          : e.message
        : t("common.unknown_error"),
    [t, has, intl],
  );
};

/** An error's placeholders as the language writes them: whole numbers (amounts, fees, limits) grouped. */
export const localValues = (
  values: Readonly<Record<string, string>>,
  number: (n: bigint) => string,
): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, /^\d+$/.test(v) ? number(BigInt(v)) : v]));

/** A failure shown in place, announced to screen readers. */
export function ErrorBox({ text }: { text: string | null }) {
  return text ? (
    <p className="error-box" role="alert">
      {text}
    </p>
  ) : null;
}

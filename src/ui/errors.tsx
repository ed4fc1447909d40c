import { useCallback } from "react";
import { CommandFailed } from "../commands/client";
import { useI18n } from "../i18n/intl";

/**
 * The words a person sees for a failure: the catalogue message in their language when the error names
 * one, else the error's own English text, else 'An unknown error has occurred.'
 */
export const useErrorText = (): ((e: unknown) => string) => {
  const { t, has } = useI18n();
  return useCallback(
    (e: unknown) =>
      e instanceof CommandFailed
        ? e.key && has(e.key)
          ? t(e.key, e.values)
          : e.message
        : t("common.unknown_error"),
    [t, has],
  );
};

/** A failure shown in place, announced to screen readers. */
export function ErrorBox({ text }: { text: string | null }) {
  return text ? (
    <p className="error-box" role="alert">
      {text}
    </p>
  ) : null;
}

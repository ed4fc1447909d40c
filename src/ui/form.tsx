import { type InputHTMLAttributes, type ReactNode, useCallback, useState } from "react";
import { useErrorText } from "./errors";

/**
 * What a screen shows while it asks the worker for something: busy while the request runs, and the failure's
 * words in the owner's language once it fails. `run` never rejects: it answers the request's value, or
 * `undefined` after a failure (whose text is then in `error`).
 */
export const useAction = () => {
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async <T,>(request: () => Promise<T>): Promise<T | undefined> => {
      setError(null);
      setBusy(true);
      try {
        return await request();
      } catch (e) {
        setError(errorText(e));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [errorText],
  );
  return { busy, error, setError, run };
};

/** A form laid out as a column whose submit (Enter or its submit button) runs `onSubmit` without a page load. */
export function Form({
  onSubmit,
  className = "column",
  children,
  ...rest
}: {
  readonly onSubmit: () => unknown;
  readonly className?: string;
  readonly children: ReactNode;
  readonly "aria-label"?: string;
  readonly "aria-labelledby"?: string;
  readonly id?: string;
}) {
  return (
    <form
      className={className}
      {...rest}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A labelled text input; free text (codes, keys, addresses) is neither completed nor spell-checked. */
export function TextField({
  id,
  label,
  value,
  onValue,
  ...input
}: {
  readonly id: string;
  readonly label: ReactNode;
  readonly value: string;
  readonly onValue: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        autoComplete="off"
        spellCheck={false}
        {...input}
        value={value}
        onChange={(e) => onValue(e.target.value)}
      />
    </>
  );
}

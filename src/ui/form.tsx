import { type InputHTMLAttributes, type ReactNode, useCallback, useState } from "react";
import { useI18n } from "../i18n/intl";
import { useErrorText } from "./errors";
import { useToast } from "./toast";
import { readClipboard } from "./clipboard";

/** How one request of `useAction` ends besides its value. */
export interface ActionOptions {
  /** The screen leaves once the request succeeds (now or after a toast): busy stays on until it has. */
  readonly stayBusy?: boolean;
  /** The failure's words otherwise (`text` is the catalogue's), or null where the screen shows it elsewhere. */
  readonly explain?: (e: unknown, text: string) => string | null;
}

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
    async <T,>(request: () => Promise<T>, options: ActionOptions = {}): Promise<T | undefined> => {
      setError(null);
      setBusy(true);
      let failed = true;
      try {
        const value = await request();
        failed = false;
        return value;
      } catch (e) {
        const text = errorText(e);
        setError(options.explain ? options.explain(e, text) : text);
        return undefined;
      } finally {
        if (failed || !options.stayBusy) setBusy(false);
      }
    },
    [errorText],
  );
  return { busy, error, setError, run };
};

/** An `explain` for `useAction` that shows the failure as an error toast rather than in place. */
export const useToastFailure = () => {
  const { t } = useI18n();
  const toast = useToast();
  return useCallback(
    (_e: unknown, text: string) => {
      toast({ title: t("common.error"), description: text, isError: true });
      return null;
    },
    [t, toast],
  );
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
  readonly noValidate?: boolean;
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

/**
 * A labelled text input; free text (codes, keys, addresses) is neither completed nor spell-checked. `problem`:
 * the rule the value breaks, shown under it (as `problemClass`) and named as the input's description.
 */
export function TextField({
  id,
  label,
  value,
  onValue,
  problem,
  problemClass = "error-box",
  ...input
}: {
  readonly id: string;
  readonly label: ReactNode;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly problem?: string | null;
  readonly problemClass?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        autoComplete="off"
        spellCheck={false}
        {...(problem ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {})}
        {...input}
        value={value}
        onChange={(e) => onValue(e.target.value)}
      />
      {problem ? (
        <p id={`${id}-error`} className={problemClass} role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/** A lightning peer's address (`pubkey@host:port`), as the owner connects to a node or opens a channel with it. */
export function PeerField({
  id,
  label,
  value,
  onValue,
}: {
  readonly id: string;
  readonly label: ReactNode;
  readonly value: string;
  readonly onValue: (value: string) => void;
}) {
  return <TextField id={id} label={label} value={value} placeholder="pubkey@host:port" onValue={onValue} />;
}

/** A plain button that runs `onClick`; `small` beside a row's item (a peer, a channel). */
export function Button({
  onClick,
  disabled,
  small,
  children,
}: {
  readonly onClick: () => unknown;
  readonly disabled?: boolean;
  readonly small?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={small ? "button button-small" : "button"}
      disabled={disabled}
      onClick={() => void onClick()}
    >
      {children}
    </button>
  );
}

/** A button that reads the clipboard: its text goes to `onText`; an unreadable clipboard's words to `onError`. */
export function PasteButton({
  onText,
  onError,
  children,
}: {
  readonly onText: (text: string) => void;
  readonly onError: (text: string) => void;
  readonly children: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      className="button"
      onClick={async () => {
        const text = await readClipboard();
        if (text === null) onError(t("send.error_clipboard"));
        else onText(text);
      }}
    >
      {children}
    </button>
  );
}

import { X } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { useI18n } from "../i18n/intl";
import { ErrorBox } from "./errors";

/**
 * A modal dialog on the native <dialog>: focus is trapped, Escape closes it, the title names it. One
 * that must be answered (`closable` false) has no close button and ignores Escape.
 */
export function Dialog({
  open,
  title,
  onClose,
  closable = true,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  closable?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const { t } = useI18n();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      // Focus starts on the dialog's first field, else its first action: never on the close button.
      const first =
        d.querySelector<HTMLElement>("input:not([disabled]):not([type='hidden']), select, textarea") ??
        d.querySelector<HTMLElement>(
          ".dialog-body button:not([disabled]), .dialog-body a[href], .dialog-body [tabindex='0']",
        );
      first?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="dialog-title"
      onCancel={(e) => {
        // Escape: the owner closes it; the parent decides, so the element never closes behind its back.
        e.preventDefault();
        if (closable) onClose();
      }}
    >
      {open ? (
        <>
          <header className="dialog-header">
            <h2 id="dialog-title">{title}</h2>
            {closable ? (
              <button type="button" className="icon-button" aria-label={t("common.close")} onClick={onClose}>
                <X aria-hidden="true" size={22} />
              </button>
            ) : null}
          </header>
          <div className="dialog-body">{children}</div>
        </>
      ) : null}
    </dialog>
  );
}

/**
 * A yes/no confirmation (Cancel / Continue by default): its message, or `children` for more than words, and
 * the failure of the last answer above the buttons.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => unknown;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onCancel}>
      {props.message ? <p>{props.message}</p> : null}
      {props.children}
      <ErrorBox text={props.error ?? null} />
      <div className="row form-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {props.cancelLabel ?? t("common.cancel")}
        </button>
        <button
          type="button"
          className={props.danger ? "button button-danger" : "button button-primary"}
          disabled={props.busy}
          onClick={() => void props.onConfirm()}
        >
          {props.confirmLabel ?? t("common.continue")}
        </button>
      </div>
    </Dialog>
  );
}

/** A dialog that tells one thing (what came of an action) with one button on: `onAction`, else closing it. */
export function NoticeDialog(props: {
  open: boolean;
  title: string;
  message: ReactNode;
  actionLabel: string;
  onClose: () => void;
  onAction?: () => void;
  children?: ReactNode;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <p>{props.message}</p>
      {props.children}
      <button type="button" className="button button-primary" onClick={props.onAction ?? props.onClose}>
        {props.actionLabel}
      </button>
    </Dialog>
  );
}

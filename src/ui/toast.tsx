import { X } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useI18n } from "../i18n/intl";

/** Toast constants of spec 1 §9. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 3;
export const TOAST_SWIPE_THRESHOLD = 50;

export interface ToastInput {
  readonly title: string;
  readonly description?: string;
  readonly isError?: boolean;
}
interface Toast extends ToastInput {
  readonly id: number;
}

const ToastContext = createContext<(t: ToastInput) => void>(() => undefined);
export const useToast = () => useContext(ToastContext);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const show = useCallback((t: ToastInput) => {
    const id = next.current++;
    setToasts((ts) => [...ts, { ...t, id }].slice(-TOAST_LIMIT));
  }, []);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const region = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && e.code === "KeyT") region.current?.querySelector<HTMLElement>("li")?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const { t } = useI18n();
  return (
    <ToastContext.Provider value={show}>
      {children}
      <section aria-label={t("common.notifications")} className="toast-region">
        <ol ref={region}>
          {toasts.map((toast) => (
            <ToastItem key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
          ))}
        </ol>
      </section>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const { t } = useI18n();
  const [paused, setPaused] = useState(false);
  const remaining = useRef(TOAST_DURATION_MS);
  const startX = useRef<number | null>(null);
  const [dx, setDx] = useState(0);

  // Counts down only while shown, not hovered, not focused, and the page is visible.
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(onDismiss, remaining.current);
    const onHidden = () => {
      if (document.hidden) setPaused(true);
    };
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, [paused, onDismiss]);

  useEffect(() => {
    const onVisible = () => {
      if (!document.hidden) setPaused(false);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, []);

  return (
    <li
      className={toast.isError ? "toast toast-error" : "toast"}
      role={toast.isError ? "alert" : "status"}
      tabIndex={0}
      style={dx ? { transform: `translateX(${dx}px)` } : undefined}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onKeyDown={(e) => {
        if (e.key === "Escape") onDismiss();
      }}
      onPointerDown={(e) => {
        startX.current = e.clientX;
      }}
      onPointerMove={(e) => {
        if (startX.current !== null) setDx(Math.max(0, e.clientX - startX.current));
      }}
      onPointerUp={() => {
        if (dx > TOAST_SWIPE_THRESHOLD) onDismiss();
        startX.current = null;
        setDx(0);
      }}
    >
      <strong>{toast.title}</strong>
      {toast.description ? <p>{toast.description}</p> : null}
      <button type="button" className="toast-close" aria-label={t("common.dismiss")} onClick={onDismiss}>
        <X aria-hidden="true" size={18} />
      </button>
    </li>
  );
}

import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

export type ToastKind = 'error' | 'success' | 'info';
/** What a toast may do beyond showing its message for a while. */
export interface ToastOptions {
  /** It stays until dismissed (a message the user must not miss), not its kind's lifetime. */
  sticky?: boolean;
  /** A button beside the message; choosing it also dismisses the toast. */
  action?: { label: string; run(): void };
}
interface Toast extends ToastOptions {
  id: number;
  kind: ToastKind;
  message: string;
}
interface Toaster {
  show(message: string, kind?: ToastKind, options?: ToastOptions): void;
  error(message: string): void;
  success(message: string): void;
}

const ToastContext = createContext<Toaster>({ show: () => {}, error: () => {}, success: () => {} });

/** How long a toast stays unless sticky; errors stay longer (any can also be closed). */
const LIFETIME_MS: Record<ToastKind, number> = { error: 8000, success: 3500, info: 4000 };

/** How many toasts show at once; sticky ones are not counted out (a message the user must not miss stays). */
const MAX_TOASTS = 5;

/** Keeps the newest toasts when there are more than `MAX_TOASTS`, dropping the oldest non-sticky ones only. */
export function trimToasts<T extends { id: number; sticky?: boolean }>(toasts: readonly T[], max = MAX_TOASTS): T[] {
  let excess = toasts.length - max;
  return toasts.filter((t) => t.sticky || excess-- <= 0);
}

/** Toasts in the bottom-right corner; every failure message of the app goes through `useToast().error`. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (message: string, kind: ToastKind = 'info', options: ToastOptions = {}) => {
      const id = next.current++;
      setToasts((ts) => trimToasts([...ts.filter((t) => t.message !== message), { id, kind, message, ...options }]));
      if (!options.sticky) window.setTimeout(() => dismiss(id), LIFETIME_MS[kind]);
    },
    [dismiss],
  );
  const toaster = useMemo<Toaster>(() => ({ show, error: (m) => show(m, 'error'), success: (m) => show(m, 'success') }), [show]);
  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} data-testid="toast">
            <span className="toast-dot" />
            <span className="toast-message">{t.message}</span>
            {t.action && (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  dismiss(t.id);
                  t.action?.run();
                }}
              >
                {t.action.label}
              </button>
            )}
            <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);

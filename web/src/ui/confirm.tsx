import { createContext, useCallback, useContext, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from './icons';

/** What a confirmation asks. */
export interface ConfirmRequest {
  title: string;
  /** What happens, in a sentence or two. */
  message?: ReactNode;
  /** The confirming button's text ("Delete", "Revoke", "Disconnect"). */
  confirmLabel: string;
  /** A destructive action gets the red button and the warning mark (the default). */
  destructive?: boolean;
  /** The mark beside the title (an icon name of `ui/icons`; a bin by default). */
  icon?: string;
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>;

const ConfirmContext = createContext<Confirm>(() => Promise.resolve(false));

/** The elements Tab moves between inside a dialog. */
const FOCUSABLE = 'button:not(:disabled), [href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `root` (the focus trap of a modal dialog). */
export function trapTab(e: KeyboardEvent, root: HTMLElement | null): void {
  if (e.key !== 'Tab' || !root) return;
  const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest; onAnswer(yes: boolean): void }) {
  const root = useRef<HTMLDivElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const destructive = request.destructive !== false;
  useEffect(() => {
    // Focus goes to the confirming button (Enter confirms) and back to where it was when the dialog closes.
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    confirmButton.current?.focus();
    return () => before?.focus();
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onAnswer(false);
    } else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement)) {
      e.preventDefault();
      onAnswer(true);
    } else trapTab(e, root.current);
  };
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onAnswer(false)}>
      <div
        ref={root}
        className={`dialog confirm-dialog${destructive ? ' destructive' : ''}`}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby={request.message ? 'confirm-message' : undefined}
        onKeyDown={onKeyDown}
      >
        <div className="confirm-head">
          <span className="confirm-mark" aria-hidden="true">
            <Icon name={request.icon ?? 'trash'} size={16} />
          </span>
          <div className="confirm-text">
            <h2 id="confirm-title">{request.title}</h2>
            {request.message && (
              <p id="confirm-message" className="muted">
                {request.message}
              </p>
            )}
          </div>
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => onAnswer(false)}>
            Cancel
          </button>
          <button ref={confirmButton} type="button" className={`btn ${destructive ? 'btn-destructive' : 'btn-primary'}`} onClick={() => onAnswer(true)}>
            {request.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The app's confirmation dialog (in place of `window.confirm`): `await confirm({...})` answers whether the user confirmed. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<{ request: ConfirmRequest; resolve(yes: boolean): void } | null>(null);
  const confirm = useCallback<Confirm>(
    (request) =>
      new Promise<boolean>((resolve) => {
        setOpen((current) => {
          // A second request while one is open answers the first with "no".
          current?.resolve(false);
          return { request, resolve };
        });
      }),
    [],
  );
  const answer = (yes: boolean) => {
    open?.resolve(yes);
    setOpen(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {open && <ConfirmDialog request={open.request} onAnswer={answer} />}
    </ConfirmContext.Provider>
  );
}

/** Asks the user to confirm an action in the app's dialog. */
export const useConfirm = () => useContext(ConfirmContext);

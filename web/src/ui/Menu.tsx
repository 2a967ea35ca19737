import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Icon } from './icons';
import { useToast } from './toast';

/** A "⋯" button opening a small menu of actions; closes on choosing, Escape or a click elsewhere. */
export function Menu({ label, children, className }: { label: string; children: (close: () => void) => ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return (
    <div className={`menu ${className ?? ''}`} ref={root}>
      <button type="button" className="icon-btn" aria-label={label} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <Icon name="dots" />
      </button>
      {open && (
        <div className="menu-pop" role="menu" aria-label={label}>
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}

export function MenuItem({ onSelect, children, danger }: { onSelect(): void; children: ReactNode; danger?: boolean }) {
  return (
    <button type="button" role="menuitem" className={`menu-item${danger ? ' danger' : ''}`} onClick={onSelect}>
      {children}
    </button>
  );
}

/**
 * A text input that commits on Enter or blur and cancels on Escape. With `required` (the message), an
 * empty or blank name is refused with that message in an error toast: Enter keeps the field open, blur
 * goes back to the old name. `onCancel` says whether Escape cancelled (not a blur or an unchanged name).
 */
export function InlineEdit({ value, label, required, onCommit, onCancel }: { value: string; label: string; required?: string; onCommit(text: string): void; onCancel(escaped: boolean): void }) {
  const toast = useToast();
  const [text, setText] = useState(value);
  const done = useRef(false);
  const finish = (commit: boolean, keepOpen = false, escaped = false) => {
    if (done.current) return;
    if (commit && required && text.trim() === '') {
      toast.error(required);
      if (keepOpen) return;
    }
    done.current = true;
    if (commit && text.trim() !== '' && text !== value) onCommit(text.trim());
    else onCancel(escaped);
  };
  return (
    <input
      className="inline-edit"
      aria-label={label}
      value={text}
      autoFocus
      onFocus={(e) => e.target.select()}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => finish(true)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish(true, true);
        if (e.key === 'Escape') finish(false, false, true);
      }}
    />
  );
}

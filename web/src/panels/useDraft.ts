import { useState } from 'react';

/** What a text field being edited needs: its draft, and handlers for typing, focus, leaving it and Enter. */
export interface Draft {
  draft: string;
  /** Whether the draft holds changes not sent yet. */
  dirty: boolean;
  /** The user typed: the draft now holds unsent changes. */
  change(text: string): void;
  onFocus(): void;
  onBlur(): void;
  /** Sends the unsent changes, if any (on Enter). */
  commit(): void;
}

/**
 * The text of a field that sends on leaving it or on Enter, not per keystroke. A new `value` from
 * elsewhere replaces the draft unless the user is typing in the field (focused, with unsent changes).
 * `send` answers whether it took the text; refused text stays, unsent, for the user to fix.
 */
export function useDraft(value: string, send: (text: string) => boolean): Draft {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  const [focused, setFocused] = useState(false);
  const [dirty, setDirty] = useState(false);
  if (value !== shown) {
    setShown(value);
    if (!(focused && dirty)) {
      setDraft(value);
      setDirty(false);
    }
  }
  const commit = () => {
    if (dirty && send(draft)) setDirty(false);
  };
  return {
    draft,
    dirty,
    change: (text) => {
      setDraft(text);
      setDirty(true);
    },
    onFocus: () => setFocused(true),
    onBlur: () => {
      setFocused(false);
      commit();
    },
    commit,
  };
}

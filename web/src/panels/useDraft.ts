import { useState } from 'react';

/** A text field's edit in progress: what it shows, which value it last took in, and whether the user is typing. */
export interface DraftState {
  draft: string;
  /** The value text the field last took in. */
  shown: string;
  focused: boolean;
  /** Whether the draft holds changes not sent yet. */
  dirty: boolean;
}

/** A new value from elsewhere replaces the draft unless the user is typing in the field (focused, with unsent changes). */
export function receiveValue(state: DraftState, value: string): DraftState {
  if (value === state.shown) return state;
  if (state.focused && state.dirty) return { ...state, shown: value };
  return { ...state, shown: value, draft: value, dirty: false };
}

/** What a text field being edited needs: its draft, and handlers for typing, focus, leaving it and Enter. */
export interface Draft {
  draft: string;
  dirty: boolean;
  /** The user typed: the draft now holds unsent changes. */
  change(text: string): void;
  onFocus(): void;
  onBlur(): void;
  /** Sends the unsent changes, if any (on Enter). */
  commit(): void;
}

/**
 * The text of a field that sends on leaving it or on Enter, not per keystroke, and follows `value` as
 * `receiveValue` says. `send` answers whether it took the text; refused text stays, unsent, to be fixed.
 */
export function useDraft(value: string, send: (text: string) => boolean): Draft {
  const [state, setState] = useState<DraftState>({ draft: value, shown: value, focused: false, dirty: false });
  const current = receiveValue(state, value);
  if (current !== state) setState(current);
  const commit = () => {
    if (current.dirty && send(current.draft)) setState((s) => ({ ...s, dirty: false }));
  };
  return {
    draft: current.draft,
    dirty: current.dirty,
    change: (text) => setState((s) => ({ ...s, draft: text, dirty: true })),
    onFocus: () => setState((s) => ({ ...s, focused: true })),
    onBlur: () => {
      setState((s) => ({ ...s, focused: false }));
      commit();
    },
    commit,
  };
}

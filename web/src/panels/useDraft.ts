import { useEffect, useRef, useState } from 'react';
import { openDraft } from './drafts';

/** How long typing must pause before a field sends its text: one edit per pause, not one per key (the editor is shared and every edit is an event). */
export const DRAFT_PAUSE_MS = 800;

/** The pause before a field sends: `DRAFT_PAUSE_MS`, or `window.weftDraftPauseMs` when a test set it (an e2e test proving that leaving a field sends sets it long, so no pause can send first on a loaded machine). */
function draftPauseMs(): number {
  const set = (globalThis as { weftDraftPauseMs?: unknown }).weftDraftPauseMs;
  return typeof set === 'number' && set >= 0 ? set : DRAFT_PAUSE_MS;
}

/** A text field's edit in progress: what it shows, which value it last took in, and whether the user is typing. */
export interface DraftState {
  draft: string;
  /** The value text the field last took in. */
  shown: string;
  focused: boolean;
  /** Whether the draft holds changes not sent yet. */
  dirty: boolean;
  /**
   * The draft was sent after a pause in typing, the user still in the field: the value that comes back
   * is the field's own (perhaps written another way, `1.50` as `1.5`) and must not rewrite the text under the caret.
   */
  echo: boolean;
}

/** A new value from elsewhere replaces the draft unless the user is typing in the field (focused, with unsent changes, or just sent after a pause). */
export function receiveValue(state: DraftState, value: string): DraftState {
  if (value === state.shown) return state;
  if (state.focused && state.dirty) return { ...state, shown: value };
  if (state.focused && state.echo) return { ...state, shown: value, echo: false };
  return { ...state, shown: value, draft: value, dirty: false, echo: false };
}

/** The user typed: the draft holds unsent changes. */
export const typed = (state: DraftState, text: string): DraftState => ({ ...state, draft: text, dirty: true, echo: false });

/**
 * The draft `text` was sent: unsent no longer, unless the user typed on meanwhile. Sent after a pause
 * with the user still in the field, the value that comes back is not to replace the text (`echo`).
 */
export function sent(state: DraftState, text: string, paused: boolean): DraftState {
  if (state.draft !== text) return state;
  return { ...state, dirty: false, echo: paused && state.focused && text !== state.shown };
}

/** The user left the field: it shows the value it last took in when nothing is unsent (a value sent after a pause may have come back written another way). */
export function left(state: DraftState): DraftState {
  if (state.dirty) return { ...state, focused: false, echo: false };
  return { ...state, focused: false, echo: false, draft: state.shown };
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
 * The text of a field that sends after a pause in typing (`DRAFT_PAUSE_MS`), on leaving it, on Enter,
 * and when the page is hidden or left (`drafts.ts`) — not per keystroke — and follows `value` as
 * `receiveValue` says. `send` answers whether it took the text; refused text stays, unsent, to be fixed
 * (and the page says so: the header's "unsaved", a prompt before leaving).
 */
export function useDraft(value: string, send: (text: string) => boolean): Draft {
  const [state, setState] = useState<DraftState>({ draft: value, shown: value, focused: false, dirty: false, echo: false });
  const current = receiveValue(state, value);
  if (current !== state) setState(current);
  /** Sends the unsent draft; answers whether nothing is left unsent. */
  const sendDraft = (paused: boolean): boolean => {
    if (!current.dirty) return true;
    const text = current.draft;
    if (!send(text)) return false;
    setState((s) => sent(s, text, paused));
    return true;
  };
  // The latest render's sender, for the pause timer and the page's flush (which outlive a render).
  const latest = useRef(sendDraft);
  latest.current = sendDraft;
  const registered = useRef<ReturnType<typeof openDraft> | undefined>(undefined);
  useEffect(() => {
    // The page being left renders no more: the set hears at once that the text went (a prompt before leaving asks only about what did not).
    const entry = openDraft(() => {
      if (latest.current(false)) entry.setDirty(false);
    });
    registered.current = entry;
    return () => {
      registered.current = undefined;
      entry.close();
      // The field goes (its block deleted or another chosen) with text unsent: send it rather than lose it.
      latest.current(false);
    };
  }, []);
  useEffect(() => {
    registered.current?.setDirty(current.dirty);
    if (!current.dirty) return;
    const timer = setTimeout(() => latest.current(true), draftPauseMs());
    return () => clearTimeout(timer);
  }, [current.draft, current.dirty]);
  return {
    draft: current.draft,
    dirty: current.dirty,
    change: (text) => setState((s) => typed(s, text)),
    onFocus: () => setState((s) => ({ ...s, focused: true })),
    onBlur: () => {
      setState(left);
      sendDraft(false);
    },
    commit: () => void sendDraft(false),
  };
}

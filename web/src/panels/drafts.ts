import { useSyncExternalStore } from 'react';
import { hasUnsentEdits } from '../collab/unsaved';

/**
 * The text fields holding typed text not sent yet (`useDraft`), so the page can say so (the header's
 * "unsaved" pill), send them all when it is hidden or left, and ask before leaving only if something
 * is still unsent then.
 */
interface OpenDraft {
  dirty: boolean;
  /** Sends the field's unsent text, if any (refused text stays unsent). */
  flush(): void;
}

const drafts = new Set<OpenDraft>();
const listeners = new Set<() => void>();
let unsentCount = 0;

function publish(): void {
  const count = [...drafts].filter((d) => d.dirty).length;
  if (count === unsentCount) return;
  unsentCount = count;
  for (const listener of listeners) listener();
}

/** Adds a field to the set; answers functions to say whether it holds unsent text and to take it out. */
export function openDraft(flush: () => void): { setDirty(dirty: boolean): void; close(): void } {
  const entry: OpenDraft = { dirty: false, flush };
  drafts.add(entry);
  return {
    setDirty(dirty) {
      entry.dirty = dirty;
      publish();
    },
    close() {
      drafts.delete(entry);
      publish();
    },
  };
}

/** How many fields hold typed text not sent yet. */
export const unsentDrafts = (): number => unsentCount;

/** Sends every field's unsent text (the page is being hidden or left). */
export function flushDrafts(): void {
  for (const entry of [...drafts]) if (entry.dirty) entry.flush();
}

/** Whether leaving the page now would lose something: a field's text its check refused, or edits queued behind the one in flight. */
export function leavingLoses(): boolean {
  return unsentCount > 0 || hasUnsentEdits();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The number of fields holding unsent text, for the header's pill. */
export const useUnsentDrafts = (): number => useSyncExternalStore(subscribe, unsentDrafts);

/**
 * Sends typed text when the page is hidden (another tab, the window minimised, a phone's app switch)
 * or left (reload, close, navigation: `beforeunload` and `pagehide` come before the page goes, and
 * the edit's request is sent with `keepalive`, so it outlives the page), and asks before leaving only
 * while something would still be lost. Answers a function that stops listening.
 */
export function guardDrafts(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window, doc: Pick<Document, 'visibilityState'> = document): () => void {
  const onHidden = () => {
    if (doc.visibilityState === 'hidden') flushDrafts();
  };
  const onPageHide = () => flushDrafts();
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    flushDrafts();
    if (!leavingLoses()) return;
    event.preventDefault();
    // Older browsers show the prompt only for a returnValue.
    event.returnValue = '';
  };
  target.addEventListener('visibilitychange', onHidden);
  target.addEventListener('pagehide', onPageHide);
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => {
    target.removeEventListener('visibilitychange', onHidden);
    target.removeEventListener('pagehide', onPageHide);
    target.removeEventListener('beforeunload', onBeforeUnload);
  };
}

/** The header's pill: typed text not sent yet first ("unsaved"), then edits awaiting the server ("saving"), else "saved". */
export function saveLabel(pending: number, unsent: number): { text: string; warn: boolean } {
  if (unsent > 0) return { text: 'unsaved', warn: true };
  if (pending > 0) return { text: `saving ${pending}`, warn: true };
  return { text: 'saved', warn: false };
}

import type { WorkflowSession } from './session';

/** The open sessions, for what must not reload the page under them (a new build, the 'Weft was updated' toast). */
const sessions = new Set<WorkflowSession>();
const waiting = new Set<() => void>();

function settle(): void {
  if (hasUnsavedEdits()) return;
  for (const resolve of waiting) resolve();
  waiting.clear();
}

/** Tracks an open session until the returned function is called (when it is disposed). */
export function trackUnsaved(session: WorkflowSession): () => void {
  sessions.add(session);
  const unsubscribe = session.subscribe(settle);
  return () => {
    unsubscribe();
    sessions.delete(session);
    settle();
  };
}

/** Whether an open session has edits the server has not answered yet. */
export function hasUnsavedEdits(): boolean {
  for (const session of sessions) if (session.unsaved() > 0) return true;
  return false;
}

/** Whether an open session has edits not yet sent (queued behind one in flight): what leaving the page would lose. */
export function hasUnsentEdits(): boolean {
  for (const session of sessions) if (session.unsent() > 0) return true;
  return false;
}

/** Resolves once no open session has edits awaiting the server (saved, or given up on with a message). */
export function whenSaved(): Promise<void> {
  if (!hasUnsavedEdits()) return Promise.resolve();
  return new Promise((resolve) => waiting.add(resolve));
}

import { hasUnsavedEdits } from '../collab/unsaved';

const KEY = 'weft.reloadedForStaleChunk';

/** Sent on the window when a new build is found but the page cannot reload yet: `useWorkflowSession` shows the 'Weft was updated' toast. */
export const STALE_BUILD_EVENT = 'weft:stale-build';

/**
 * A part of the app loaded on demand (auto layout, the deploy dialog, settings, the code editor)
 * whose file the server no longer has — Weft was rebuilt since this page was opened — reloads the
 * page once to get the new build, instead of leaving "Failed to fetch dynamically imported module …"
 * (or a blank panel); the error is then not rethrown (`preventDefault`). A second failure within a
 * minute is not reloaded again: the caller's own error shows, so a file that is really missing cannot
 * make a reload loop. Nor is a page with edits the server has not answered yet: it would lose them, so
 * the caller's error shows with the 'Weft was updated' toast, whose Reload waits for them. Vite's `vite:preloadError`.
 */
export function reloadOnStaleChunk(
  win: Window = window,
  storage: Storage = sessionStorage,
  now: () => number = Date.now,
  unsaved: () => boolean = hasUnsavedEdits,
): void {
  win.addEventListener('vite:preloadError', (event) => {
    if (unsaved()) {
      win.dispatchEvent(new Event(STALE_BUILD_EVENT));
      return;
    }
    const last = Number(storage.getItem(KEY) ?? 0);
    if (now() - last < 60_000) return;
    storage.setItem(KEY, String(now()));
    event.preventDefault();
    win.location.reload();
  });
}

const KEY = 'weft.reloadedForStaleChunk';

/**
 * A part of the app loaded on demand (auto layout, the deploy dialog, settings, the code editor)
 * whose file the server no longer has — Weft was rebuilt since this page was opened — reloads the
 * page once to get the new build, instead of leaving "Failed to fetch dynamically imported module …"
 * (or a blank panel). A second failure within a minute is not reloaded again: the caller's own error
 * shows, so a file that is really missing cannot make a reload loop. Vite's `vite:preloadError`.
 */
export function reloadOnStaleChunk(win: Window = window, storage: Storage = sessionStorage, now: () => number = Date.now): void {
  win.addEventListener('vite:preloadError', () => {
    const last = Number(storage.getItem(KEY) ?? 0);
    if (now() - last < 60_000) return;
    storage.setItem(KEY, String(now()));
    win.location.reload();
  });
}

import { useSyncExternalStore } from 'react';

/** The app's own routes: the address bar is the state, `navigate` changes it without a page load. */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener('popstate', notify);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => window.location.pathname + window.location.search;

/** Goes to `to` (a path with an optional query), adding a history entry unless `replace`. */
export function navigate(to: string, replace = false): void {
  if (to === current()) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
}

/** The path and query the app shows now; re-renders on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, current);
  const at = href.indexOf('?');
  return { path: at < 0 ? href : href.slice(0, at), query: new URLSearchParams(at < 0 ? '' : href.slice(at)) };
}

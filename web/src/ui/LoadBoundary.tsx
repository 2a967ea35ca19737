import { Component, type ErrorInfo, type ReactNode } from 'react';

/** What a part loaded on demand shows when its file did not load. */
export function loadFailedMessage(error: unknown): string {
  return `This part of Weft did not load (${error instanceof Error ? error.message : String(error)}). Reload the page to get the latest version.`;
}

/**
 * The browsers' words for a file loaded on demand that did not load: Chromium's 'Failed to fetch
 * dynamically imported module', Firefox's 'error loading dynamically imported module', Safari's.
 */
const CHUNK_LOAD_MESSAGES = ['dynamically imported module', 'Importing a module script failed'];

/** Whether `error` is a file loaded on demand (`import()`) that did not load, rather than a bug in the part itself. */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'ChunkLoadError') return true;
  return typeof message === 'string' && CHUNK_LOAD_MESSAGES.some((words) => message.includes(words));
}

type LoadBoundaryProps = { children: ReactNode; fallback?: (message: string) => ReactNode; onError?(message: string): void };

/**
 * Around a part loaded on demand (`lazy`): when its file does not load — Weft was rebuilt since the page
 * opened and the page could not reload (edits still unsaved, `ui/staleChunks.ts`), or the network failed —
 * the rest of the app stays up with `fallback` in the part's place (by default the message) instead of
 * React unmounting the whole page, and `onError` is told. Any other error (a bug in the part) is thrown
 * on, as if the boundary were not there: it is not a file that did not load, and Reload would not mend it.
 */
export class LoadBoundary extends Component<LoadBoundaryProps, { error: { thrown: unknown } | null }> {
  state = { error: null as { thrown: unknown } | null };

  static getDerivedStateFromError(thrown: unknown): { error: { thrown: unknown } } {
    return { error: { thrown } };
  }

  componentDidCatch(error: unknown, _info: ErrorInfo): void {
    if (isChunkLoadError(error)) this.props.onError?.(loadFailedMessage(error));
  }

  render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isChunkLoadError(error.thrown)) throw error.thrown;
    const message = loadFailedMessage(error.thrown);
    return this.props.fallback ? this.props.fallback(message) : <p className="error load-failed" role="alert">{message}</p>;
  }
}

import { Component, type ErrorInfo, type ReactNode } from 'react';

/** What a part loaded on demand shows when its file did not load. */
export function loadFailedMessage(error: unknown): string {
  return `This part of Weft did not load (${error instanceof Error ? error.message : String(error)}). Reload the page to get the latest version.`;
}

/**
 * Around a part loaded on demand (`lazy`): when its file does not load — Weft was rebuilt since the page
 * opened and the page could not reload (edits still unsaved, `ui/staleChunks.ts`), or the network failed —
 * the rest of the app stays up with `fallback` in the part's place (by default the message) instead of
 * React unmounting the whole page, and `onError` is told.
 */
export class LoadBoundary extends Component<{ children: ReactNode; fallback?: (message: string) => ReactNode; onError?(message: string): void }, { message: string | null }> {
  state = { message: null as string | null };

  static getDerivedStateFromError(error: unknown): { message: string } {
    return { message: loadFailedMessage(error) };
  }

  componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onError?.(loadFailedMessage(error));
  }

  render(): ReactNode {
    const { message } = this.state;
    if (message === null) return this.props.children;
    return this.props.fallback ? this.props.fallback(message) : <p className="error load-failed" role="alert">{message}</p>;
  }
}

import { decodeSnapshot } from '@weft/workflow';
import { api, ApiError } from '../api';
import type { StoredEvent } from './replica';
import type { Transport } from './session';

/** How long to wait before reopening a live stream that failed. */
const RECONNECT_MS = 1_000;

/** The session's transport over the gateway: the full state, JSON event pages and POST /commands (5xx and network errors throw). */
export function httpTransport(workflowId: string): Transport {
  return {
    async fullState() {
      const got = await api.fullState(workflowId);
      return { version: got.version, state: decodeSnapshot(got.state) };
    },
    async eventsAfter(after) {
      const events: StoredEvent[] = [];
      for (let cursor = after; ; ) {
        const page = await api.events(workflowId, cursor);
        events.push(...page.events);
        const last = page.events.at(-1)?.version;
        if (last === undefined || last >= page.version) return events;
        cursor = last;
      }
    },
    async send(request) {
      try {
        return { kind: 'applied', ...(await api.commands(workflowId, request)) };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        return error.status === 409 ? { kind: 'conflict', message: error.message } : { kind: 'refused', message: error.message, statusText: error.statusText };
      }
    },
  };
}

/**
 * Follows a workflow's Server-Sent Events from `from()` (the session's confirmed version, same-origin
 * cookies); after an error it reopens from the version reached by then. Answers a function that stops.
 */
export function followEvents(workflowId: string, from: () => number, onEvent: (event: StoredEvent) => void, onLive: (live: boolean) => void): () => void {
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    const opened = new EventSource(`/api/workflows/${encodeURIComponent(workflowId)}/events?after=${from()}`);
    source = opened;
    opened.onopen = () => onLive(true);
    opened.onmessage = (message: MessageEvent<string>) => onEvent(JSON.parse(message.data) as StoredEvent);
    // The browser would reconnect with the first URL's `after`; reopen from where the session is instead.
    opened.onerror = () => {
      if (source !== opened) return;
      opened.close();
      onLive(false);
      timer = setTimeout(open, RECONNECT_MS);
    };
  };
  open();
  return () => {
    clearTimeout(timer);
    source?.close();
    source = undefined;
  };
}

import { answerMessage } from '../api';
import { applyMessage, emptyRun, fromExecution, parseSse, type RunView } from './runState';

/** Where the console's runs come from: a stored execution, and the gateway's SSE answers. */
export interface RunSource {
  execution: (executionId: string) => Promise<{ executionId: string; status: string; output?: unknown; error?: string | null; durationMs?: number | null; logs?: unknown }>;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** Reads an SSE response to its end, folding each message into the run as it arrives. */
async function read(res: Response, update: (f: (v: RunView) => RunView) => void, signal: AbortSignal): Promise<void> {
  const reader = res.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || signal.aborted) break;
      buffer += decoder.decode(value, { stream: true });
      const { messages, rest } = parseSse(buffer);
      buffer = rest;
      if (messages.length > 0) update((v) => messages.reduce(applyMessage, v));
    }
  } finally {
    reader.releaseLock();
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The run the console shows, as `show` gets it: a new run of the draft (streamed), a rerun from a
 * block, or a past execution opened from the history (one still going followed live). One run at a
 * time: each one taken up stops the one before, also while it still waits for its first answer (a
 * late answer of an older one never replaces it), and `stop` (the console leaving) stops reading.
 */
export function runFollower(show: (run: RunView | null) => void, source: RunSource) {
  let current: AbortController | null = null;
  /** Stops the run shown and answers the controller of the one that takes its place. */
  const take = (): AbortController => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    return controller;
  };

  /** The stored execution as the console shows it; null once `controller` was stopped during the wait. */
  const load = async (executionId: string, controller: AbortController): Promise<RunView | null> => {
    let loaded: RunView;
    try {
      loaded = fromExecution(await source.execution(executionId));
    } catch (error) {
      loaded = { ...emptyRun(), executionId, status: 'failed', error: message(error) };
    }
    return controller.signal.aborted ? null : loaded;
  };

  /**
   * Shows `shown`, then reads the SSE answer of `path` to its end, folding its events into `from`
   * (the run as the events build it up) and showing each step. A refused stream is `shown` with the
   * error; a stream that ends without the run's last event leaves the execution as stored to say how
   * the run ended.
   */
  const follow = async (path: string, init: RequestInit, shown: RunView, from: RunView, controller: AbortController): Promise<void> => {
    if (controller.signal.aborted) return;
    show(shown);
    let folded = from;
    const update = (f: (v: RunView) => RunView) => {
      if (controller.signal.aborted) return;
      folded = f(folded);
      show(folded);
    };
    try {
      const res = await source.fetch(`/api${path}`, { ...init, headers: { ...init.headers, accept: 'text/event-stream' }, signal: controller.signal });
      if (!res.ok) {
        const answer: unknown = await res.json().catch(() => ({}));
        const error = answerMessage(answer, res.statusText || `HTTP ${res.status}`);
        folded = shown;
        update((v) => ({ ...v, status: 'failed', error }));
        return;
      }
      await read(res, update, controller.signal);
      if (controller.signal.aborted) return;
      if ((folded.status === 'running' || folded.status === 'starting') && folded.executionId) {
        const stored = await load(folded.executionId, controller);
        if (stored) show(stored);
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      update((v) => ({ ...v, status: 'failed', error: message(error) }));
    }
  };

  return {
    /** Shows a stored execution; one still going is followed live. */
    open: async (executionId: string): Promise<void> => {
      const controller = take();
      const shown = await load(executionId, controller);
      if (!shown) return;
      if (shown.status !== 'running') {
        show(shown);
        return;
      }
      // Its events from the start (a fresh fold: the stored log already shown is replaced step by step), then the live ones.
      await follow(`/executions/${encodeURIComponent(executionId)}/stream`, { method: 'GET' }, shown, { ...emptyRun(), executionId, status: 'running' }, controller);
    },
    /** Starts the run the POST to `path` streams. */
    stream: (path: string, body: unknown): Promise<void> =>
      follow(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, emptyRun(), emptyRun(), take()),
    /** Stops reading the run shown; `clear` also takes it off the console. */
    stop: (): void => current?.abort(),
    clear: (): void => {
      current?.abort();
      show(null);
    },
  };
}

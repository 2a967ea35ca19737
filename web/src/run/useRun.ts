import { useCallback, useEffect, useRef, useState } from 'react';
import { answerMessage, api } from '../api';
import { applyMessage, emptyRun, fromExecution, parseSse, type RunView } from './runState';

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

/**
 * The run the console shows: a new run of the draft (streamed), a rerun from a block, or a past
 * execution opened from the history (one still going followed live). Cancelling asks the server;
 * leaving the page stops reading.
 */
export function useRun(workflowId: string) {
  const [run, setRun] = useState<RunView | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  /**
   * Shows `shown`, then reads the SSE answer of `path` to its end, folding its events into `from`
   * (the run as the events build it up) and showing each step. A stream that ends without the run's
   * last event leaves the execution as stored to say how the run ended (`reread`).
   */
  const follow = useCallback(async (path: string, init: RequestInit, shown: RunView, from: RunView, reread: (executionId: string) => Promise<void>) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRun(shown);
    let folded = from;
    const update = (f: (v: RunView) => RunView) => {
      if (controller.signal.aborted) return;
      folded = f(folded);
      setRun(folded);
    };
    try {
      const res = await fetch(`/api${path}`, { ...init, headers: { ...init.headers, accept: 'text/event-stream' }, signal: controller.signal });
      if (!res.ok) {
        const answer: unknown = await res.json().catch(() => ({}));
        const error = answerMessage(answer, res.statusText || `HTTP ${res.status}`);
        update((v) => ({ ...v, status: 'failed', error }));
        return;
      }
      await read(res, update, controller.signal);
      if (controller.signal.aborted) return;
      if ((folded.status === 'running' || folded.status === 'starting') && folded.executionId) await reread(folded.executionId);
    } catch (error) {
      if (controller.signal.aborted) return;
      update((v) => ({ ...v, status: 'failed', error: error instanceof Error ? error.message : String(error) }));
    }
  }, []);

  /** Shows a stored execution; one still going (unless `keepReading`: the stream that was showing it has ended) is followed live. */
  const open = useCallback(
    async (executionId: string, keepReading = false): Promise<void> => {
      if (!keepReading) abort.current?.abort();
      let shown: RunView;
      try {
        const execution = await api.execution(executionId);
        shown = fromExecution({ ...execution, logs: execution.logs });
      } catch (error) {
        setRun({ ...emptyRun(), executionId, status: 'failed', error: error instanceof Error ? error.message : String(error) });
        return;
      }
      if (keepReading || shown.status !== 'running') {
        setRun(shown);
        return;
      }
      // Its events from the start (a fresh fold: the stored log already shown is replaced step by step), then the live ones.
      await follow(`/executions/${encodeURIComponent(executionId)}/stream`, { method: 'GET' }, shown, { ...emptyRun(), executionId, status: 'running' }, (id) => open(id, true));
    },
    [follow],
  );

  const stream = useCallback(
    (path: string, body: unknown) =>
      follow(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, emptyRun(), emptyRun(), (id) => open(id, true)),
    [follow, open],
  );

  const start = useCallback((input: Record<string, unknown>) => stream(`/workflows/${encodeURIComponent(workflowId)}/execute`, input), [stream, workflowId]);
  /** Reruns an execution from one of its blocks; `selectedOutputs` is the Run button's streamed-blocks choice, as a new run sends it. */
  const rerunFrom = useCallback(
    (executionId: string, fromBlockId: string, selectedOutputs?: string[]) =>
      stream(`/executions/${encodeURIComponent(executionId)}/rerun`, { fromBlockId, stream: true, ...(selectedOutputs ? { selectedOutputs } : {}) }),
    [stream],
  );
  const cancel = useCallback(async () => {
    const id = run?.executionId;
    if (!id) return;
    await api.cancelExecution(id);
  }, [run?.executionId]);
  const clear = useCallback(() => {
    abort.current?.abort();
    setRun(null);
  }, []);

  return { run, start, rerunFrom, open, cancel, clear };
}

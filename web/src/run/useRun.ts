import { useCallback, useEffect, useRef, useState } from 'react';
import { answerMessage, api } from '../api';
import { applyMessage, emptyRun, fromExecution, parseSse, type RunView } from './runState';

/** Reads an SSE response to its end, folding each message into the run as it arrives. */
async function follow(res: Response, update: (f: (v: RunView) => RunView) => void, signal: AbortSignal): Promise<void> {
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
 * execution opened from the history. Cancelling asks the server; leaving the page stops reading.
 */
export function useRun(workflowId: string) {
  const [run, setRun] = useState<RunView | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const open = useCallback(async (executionId: string, keepReading = false) => {
    if (!keepReading) abort.current?.abort();
    try {
      const execution = await api.execution(executionId);
      setRun(fromExecution({ ...execution, logs: execution.logs }));
    } catch (error) {
      setRun({ ...emptyRun(), executionId, status: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  }, []);

  const stream = useCallback(async (path: string, body: unknown) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRun(emptyRun());
    const update = (f: (v: RunView) => RunView) => {
      if (!controller.signal.aborted) setRun((v) => f(v ?? emptyRun()));
    };
    try {
      const res = await fetch(`/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!res.ok) {
        const answer: unknown = await res.json().catch(() => ({}));
        const error = answerMessage(answer, res.statusText || `HTTP ${res.status}`);
        update((v) => ({ ...v, status: 'failed', error }));
        return;
      }
      await follow(res, update, controller.signal);
      // A stream that ended without its last event: the execution says how the run ended.
      update((v) => {
        if ((v.status === 'running' || v.status === 'starting') && v.executionId) void open(v.executionId, true);
        return v;
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      update((v) => ({ ...v, status: 'failed', error: error instanceof Error ? error.message : String(error) }));
    }
  }, [open]);

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

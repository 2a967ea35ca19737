import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '../api';
import { runFollower } from './runFollower';
import type { RunView } from './runState';

/**
 * The run the console shows: a new run of the draft (streamed), a rerun from a block, or a past
 * execution opened from the history (one still going followed live). Cancelling asks the server;
 * leaving the page stops reading (runFollower).
 */
export function useRun(workflowId: string) {
  const [run, setRun] = useState<RunView | null>(null);
  const runs = useMemo(() => runFollower(setRun, { execution: api.execution, fetch: (url, init) => fetch(url, init) }), []);
  useEffect(() => () => runs.stop(), [runs]);
  const { open, stream, clear } = runs;

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

  return { run, start, rerunFrom, open, cancel, clear };
}

import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  TerminatedFailure,
  TimeoutFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import { innermostMessage } from '@weft/catalog';
import type { RunEngine } from '../executions.js';
import { UNRECORDABLE_RUN_EVENT, unrecordedEndMessage } from '../executionsStore.js';
import type { runWorkflow } from '../workflows/index.js';
import type { RunInput, RunResult } from '../workflows/types.js';

/** Whether a failure or one of its causes is the run-log activity's refusal of an event that can never be recorded. */
function unrecordable(failure: unknown): boolean {
  for (let f: unknown = failure; f instanceof Error; f = f.cause) if (f instanceof ApplicationFailure && f.type === UNRECORDABLE_RUN_EVENT) return true;
  return false;
}

/** How a workflow that ended without a result reads in the run log. */
export function endedWithout(err: unknown): RunResult {
  if (err instanceof WorkflowFailedError) {
    if (err.cause instanceof CancelledFailure) return { success: false, cancelled: true, output: null, logs: [], error: 'Run cancelled' };
    if (err.cause instanceof TerminatedFailure) return { success: false, output: null, logs: [], error: 'Run terminated' };
    if (err.cause instanceof TimeoutFailure) return { success: false, output: null, logs: [], error: 'Run timed out' };
    // The workflow fails only when its end does (its blocks' failures are values): an event of it that can never be
    // recorded, or an activity storing its logs. Say what happened, not Temporal's wrapper ("Activity task failed").
    const cause = err.cause;
    if (unrecordable(cause)) return { success: false, output: null, logs: [], error: unrecordedEndMessage(innermostMessage(cause)) };
    return { success: false, output: null, logs: [], error: cause instanceof ActivityFailure ? innermostMessage(cause) : (cause?.message ?? err.message) };
  }
  if (err instanceof WorkflowNotFoundError) return { success: false, output: null, logs: [], error: 'The run was not found on Temporal' };
  throw err;
}

/**
 * `runWorkflow` on Temporal, one workflow per execution (its id is the execution id). With a client
 * on the worker's own connection, `eager` asks the server to hand the first workflow task straight
 * back to this process (eager start), saving a poll round trip.
 */
export function createTemporalEngine(opts: { client: Client; taskQueue: string; integrationsTaskQueue: string; eager?: boolean }): RunEngine {
  const { client } = opts;
  return {
    async start(input: RunInput) {
      try {
        await client.workflow.start<typeof runWorkflow>('runWorkflow', {
          taskQueue: opts.taskQueue,
          workflowId: input.executionId,
          args: [{ ...input, integrationsTaskQueue: opts.integrationsTaskQueue }],
          ...(opts.eager ? { requestEagerStart: true } : {}),
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    },
    async result(executionId) {
      try {
        return await client.workflow.getHandle<typeof runWorkflow>(executionId).result();
      } catch (err) {
        return endedWithout(err);
      }
    },
    async cancel(executionId) {
      try {
        await client.workflow.getHandle(executionId).cancel();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}

import { CancelledFailure, TerminatedFailure, TimeoutFailure, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { RunEngine } from '../executions.js';
import type { runWorkflow } from '../workflows/index.js';
import type { RunInput, RunResult } from '../workflows/types.js';

/** How a workflow that ended without a result reads in the run log. */
function endedWithout(err: unknown): RunResult {
  if (err instanceof WorkflowFailedError) {
    if (err.cause instanceof CancelledFailure) return { success: false, cancelled: true, output: null, logs: [], error: 'Run cancelled' };
    if (err.cause instanceof TerminatedFailure) return { success: false, output: null, logs: [], error: 'Run terminated' };
    if (err.cause instanceof TimeoutFailure) return { success: false, output: null, logs: [], error: 'Run timed out' };
    return { success: false, output: null, logs: [], error: err.cause?.message ?? err.message };
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

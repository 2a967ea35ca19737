import { ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import { ModelLoopError, runToolLoop, type ToolLoopInput, type ToolLoopResult } from '@weft/catalog';
import type { IntegrationActivities, ModelActivities } from '@weft/contracts';

/** Start-to-close of one model call (a long streamed answer included). */
export const LOOP_MODEL_CALL_TIMEOUT = '5 minutes';
/** Start-to-close of one tool call (long-polling tools run up to 300 s). */
export const LOOP_TOOL_CALL_TIMEOUT = '10 minutes';
/** Silence after which a tool call counts as lost with its worker (the worker heartbeats while a tool runs). */
export const LOOP_TOOL_HEARTBEAT_TIMEOUT = '15 seconds';

/** Argument of the loop: the runner's agent block sends it (the runner's task queue field is ignored here). */
export interface ModelToolLoopArgs extends ToolLoopInput {
  /** Tries for transient failures of each call (network, 429, 5xx); user errors and 4xx are never retried. */
  maxAttempts: number;
}

/**
 * An agent's tool loop (001 §4) as a child workflow of the run, on the integrations task queue, where
 * the model calls and the tools live:
 * - each model call is a local activity of this worker: no task dispatch and no workflow task of its
 *   own; its result is recorded in history when the workflow task completes, which is at once, as the
 *   next step is a tool call (or the loop's end), so a finished model call is never made again;
 * - each tool call is an activity on this same queue: Temporal hands it back to this worker in the
 *   workflow task's answer when eager activity execution is on (`system.enableActivityEagerExecution`),
 *   otherwise through the queue, and a worker lost mid-call is replaced after the heartbeat timeout.
 * So an iteration costs one activity and one workflow task. A provider error fails the child with the
 * message and `{timing}` as its details.
 */
export async function modelToolLoop(args: ModelToolLoopArgs): Promise<ToolLoopResult> {
  const retry = { maximumAttempts: Math.max(1, args.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 };
  const models = proxyLocalActivities<Pick<ModelActivities, 'callModel'>>({ startToCloseTimeout: LOOP_MODEL_CALL_TIMEOUT, retry });
  const tools = proxyActivities<Pick<IntegrationActivities, 'executeTool'>>({ startToCloseTimeout: LOOP_TOOL_CALL_TIMEOUT, heartbeatTimeout: LOOP_TOOL_HEARTBEAT_TIMEOUT, retry });
  try {
    return await runToolLoop(args, { callModel: (i) => models.callModel(i), executeTool: (i) => tools.executeTool(i), now: () => Date.now() });
  } catch (err) {
    if (err instanceof ModelLoopError) throw ApplicationFailure.create({ message: err.message, type: 'ModelLoopError', nonRetryable: true, details: [{ timing: err.timing }] });
    throw err;
  }
}

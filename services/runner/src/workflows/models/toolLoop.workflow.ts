import { ApplicationFailure } from '@temporalio/workflow';
import { ModelLoopError, runToolLoop, type ToolLoopInput, type ToolLoopResult } from '@weft/catalog';
import { modelActivities, toolActivities, type ActivityPlace } from './activities.js';

/** Argument of the tool loop child workflow. */
export interface ModelToolLoopArgs extends ToolLoopInput, ActivityPlace {
  /** Backoff before a model call's second try, for the integrations worker's loop (it tries each call itself). */
  retryInitialIntervalMs?: number;
}

/**
 * The tool loop as the runner ran it before the loop moved to the integrations worker (where model
 * calls are local activities): kept on the runner's task queue so loops started by older runs still
 * resume. One activity per model call and per tool call on the integrations queue; a provider error
 * fails the child with the message and `{timing}` as its details.
 */
export async function modelToolLoop(args: ModelToolLoopArgs): Promise<ToolLoopResult> {
  const models = modelActivities(args);
  const tools = toolActivities(args);
  try {
    return await runToolLoop(args, { callModel: (i) => models.callModel(i), executeTool: (i) => tools.executeTool(i), now: () => Date.now() });
  } catch (err) {
    if (err instanceof ModelLoopError) throw ApplicationFailure.create({ message: err.message, type: 'ModelLoopError', nonRetryable: true, details: [{ timing: err.timing }] });
    throw err;
  }
}

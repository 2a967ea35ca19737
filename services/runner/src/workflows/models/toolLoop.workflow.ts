import { ApplicationFailure } from '@temporalio/workflow';
import { modelActivities, toolActivities, type ActivityPlace } from './activities.js';
import { ModelLoopError, runToolLoop, type ToolLoopInput, type ToolLoopResult } from './toolLoop.js';

/** Argument of the tool loop child workflow. */
export interface ModelToolLoopArgs extends ToolLoopInput, ActivityPlace {}

/**
 * An agent's tool loop as a child workflow: one activity per model call and per tool call, so a
 * worker lost mid-loop resumes from history without repeating a finished call. A provider error
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

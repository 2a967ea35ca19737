import { ActivityFailure, ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { JobOutcome, ToolJobActivities, ToolJobInput } from './types.js';
import { TOOL_ERROR_TYPE } from './types.js';

const acts = proxyActivities<ToolJobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 5, nonRetryableErrorTypes: [TOOL_ERROR_TYPE] },
});

function failureMessage(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause.message;
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : 'Unknown error occurred';
}

/**
 * A polling job (browser task, crawl, research; spec 001 §4): started once, then checked every
 * `intervalMs` on a durable timer until it ends or `timeoutMs` has passed. Its start is in the
 * workflow's history, so a worker that dies mid-poll is replaced without a second job being started.
 */
export async function pollToolJob(input: ToolJobInput): Promise<JobOutcome> {
  let jobId: string;
  try {
    jobId = await acts.startToolJob(input);
  } catch (err) {
    return { success: false, error: failureMessage(err) };
  }
  const started = Date.now();
  for (;;) {
    await sleep(input.intervalMs);
    let check;
    try {
      check = await acts.checkToolJob(input, jobId);
    } catch (err) {
      return { success: false, error: failureMessage(err) };
    }
    if (check.state === 'done') return { success: true, output: check.output };
    if (check.state === 'failed') return { success: false, error: check.error, ...(check.output !== undefined ? { output: check.output } : {}) };
    if (Date.now() - started >= input.timeoutMs) return { success: false, error: input.timeoutMessage };
  }
}
// The model layer's agent tool loop runs on this worker too, beside the tools and model calls it makes.
export { modelToolLoop } from '../models/toolLoop.workflow.js';

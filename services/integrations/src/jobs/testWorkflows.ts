// Test-only workflows (jobs.int.test.ts): callers of the executeTool activity.
import { proxyActivities } from '@temporalio/workflow';
import { tryInWorkflow } from '@weft/catalog/workflowTries';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';

export { pollToolJob } from './workflows.js';

type TestActivities = { executeToolOnce(input: ExecuteToolInput): Promise<ToolResult> };

/** Temporal's own retries: a retried try is the same activity (same activity id). */
const retried = proxyActivities<TestActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '100 milliseconds', maximumAttempts: 3 },
});

/** Temporal's retries off: each try is a new activity (a new activity id). */
const once = proxyActivities<TestActivities>({ startToCloseTimeout: '5 minutes', retry: { maximumAttempts: 1 } });

/** A call Temporal retries itself (the runner's tool loop of older runs). */
export async function callTool(input: ExecuteToolInput): Promise<ToolResult> {
  return retried.executeToolOnce(input);
}

/**
 * A call tried as the runner's blocks (withRetries) and the agent tool loop try it: from the workflow,
 * with the same helper, each try a new activity.
 */
export async function callToolTried(input: ExecuteToolInput): Promise<ToolResult> {
  return (await tryInWorkflow(3, 100, () => once.executeToolOnce(input))).value;
}

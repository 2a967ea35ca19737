// Test-only workflows (jobs.int.test.ts): a caller of the executeTool activity, as the runner's blocks are.
import { proxyActivities } from '@temporalio/workflow';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';

export { pollToolJob } from './workflows.js';

const acts = proxyActivities<{ executeToolOnce(input: ExecuteToolInput): Promise<ToolResult> }>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '100 milliseconds', maximumAttempts: 3 },
});

export async function callTool(input: ExecuteToolInput): Promise<ToolResult> {
  return acts.executeToolOnce(input);
}

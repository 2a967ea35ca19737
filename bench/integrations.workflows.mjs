// The bench's driver workflow: it only schedules HTTP-tool activities on the integrations task
// queue (no Weft workflow, no runner) and answers each one's tool result. A call whose completion
// was lost on the loaded machine (its attempt timed out) is tried again rather than failing the run.
import { proxyActivities } from '@temporalio/workflow';

export async function toolLoad({ taskQueue, url, count }) {
  const { executeTool } = proxyActivities({ taskQueue, startToCloseTimeout: '1 minute', retry: { maximumAttempts: 3 } });
  const context = { workspaceId: 'bench', workflowId: 'bench' };
  return Promise.all(Array.from({ length: count }, () => executeTool({ toolId: 'http_request', params: { url, method: 'GET' }, context })));
}

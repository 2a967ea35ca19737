import { proxyActivities } from '@temporalio/workflow';
import type { IntegrationActivities } from '@weft/contracts';
import { executionOrder } from './graph.js';
import type { BlockLog, RunInput, RunResult, RunnableBlock } from './types.js';

/** Function execute timeout default (spec 000 §9). */
const FUNCTION_TIMEOUT_MS = 10_000;

/** Task queue of the integrations worker; set by the runner when it starts a run (memo-free: passed in). */
export interface RunWorkflowArgs extends RunInput {
  integrationsTaskQueue: string;
}

/**
 * A durable run of one workflow: walks the graph from the starter and runs each block, tool and
 * function calls as activities on the integrations queue. A crashed worker resumes from history.
 */
export async function runWorkflow(args: RunWorkflowArgs): Promise<RunResult> {
  const integrations = proxyActivities<IntegrationActivities>({
    taskQueue: args.integrationsTaskQueue,
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 5 },
  });
  const outputs = new Map<string, unknown>();
  const logs: BlockLog[] = [];
  let order: string[];
  try {
    order = executionOrder(args.state);
  } catch (err) {
    return { success: false, output: null, logs, error: err instanceof Error ? err.message : String(err) };
  }
  let last: unknown = null;
  for (const id of order) {
    const block = args.state.blocks[id] as RunnableBlock;
    const startedAt = Date.now();
    let result: { success: boolean; output: unknown; error?: string };
    switch (block.type) {
      case 'starter':
        result = { success: true, output: { input: args.input } };
        break;
      case 'function': {
        const code = block.subBlocks.code?.value;
        const res = await integrations.executeFunction({
          code: typeof code === 'string' ? code : '',
          params: { input: args.input, blocks: Object.fromEntries(outputs) },
          envVars: {},
          timeoutMs: FUNCTION_TIMEOUT_MS,
          requestId: args.requestId,
        });
        result = { success: res.success, output: res.output, ...(res.error ? { error: res.error } : {}) };
        break;
      }
      default:
        result = { success: false, output: null, error: `Block type '${block.type}' cannot run yet` };
    }
    const endedAt = Date.now();
    logs.push({
      blockId: id,
      blockName: block.name,
      blockType: block.type,
      startedAt: new Date(startedAt).toISOString(),
      endedAt: new Date(endedAt).toISOString(),
      durationMs: endedAt - startedAt,
      success: result.success,
      output: result.output,
      ...(result.error ? { error: result.error } : {}),
    });
    if (!result.success) return { success: false, output: result.output, logs, error: `${block.name}: ${result.error ?? 'failed'}` };
    outputs.set(id, result.output);
    last = result.output;
  }
  return { success: true, output: last, logs };
}

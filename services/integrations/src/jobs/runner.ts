import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { ExecuteToolInput } from '@weft/contracts';
import type { ToolJobDefinition } from './definitions.js';
import type { JobOutcome, ToolJobInput } from './types.js';

/** Runs polling-job tools as durable workflows (the execution layer's hook for them). */
export interface ToolJobRunner {
  has(toolId: string): boolean;
  /** Starts (or joins) the tool's polling workflow and answers how it ended; with skipPostProcess, starts the job and answers its id without polling. */
  run(input: ExecuteToolInput, params: Record<string, unknown>, signal?: AbortSignal): Promise<JobOutcome>;
}

export interface ToolJobRunnerOptions {
  client: Client;
  taskQueue: string;
  jobs: Record<string, ToolJobDefinition>;
  /** Starts a job directly (skipPostProcess); the job activities' own start. */
  startDirect: (input: ToolJobInput) => Promise<string>;
  /** Polling other than the definitions' (tests). */
  polling?: { intervalMs: number; timeoutMs: number };
}

/**
 * The polling workflow's id, the same for every try of one call so a try (its worker died, its attempt
 * timed out) joins the job an earlier try started instead of starting a second one. Inside an activity
 * it is derived from the calling workflow run (workflow id and run id) and the call: its number
 * (`call`, as the runner's blocks and the agent tool loop try a call again as a new activity), else the
 * activity's id (the same for Temporal's own retries). Outside one (a synchronous route) it is new.
 */
function jobWorkflowId(toolId: string, call: number | undefined): string {
  let info: Context['info'];
  try {
    info = Context.current().info;
  } catch {
    return `tooljob-${randomUUID()}-${toolId}`;
  }
  const caller = info.workflowExecution?.workflowId ?? randomUUID();
  if (call === undefined) return `tooljob-${caller}-${info.activityId}-${toolId}`;
  return `tooljob-${caller}-${info.workflowExecution?.runId ?? randomUUID()}-call${call}-${toolId}`;
}

export function createToolJobRunner(opts: ToolJobRunnerOptions): ToolJobRunner {
  return {
    has: (toolId) => Object.hasOwn(opts.jobs, toolId),
    async run(input, params, signal) {
      const def = opts.jobs[input.toolId];
      if (!def) return { success: false, error: `Tool not found: ${input.toolId}` };
      const polling = opts.polling ?? def.polling;
      const jobInput: ToolJobInput = { toolId: def.toolId, params, context: input.context, envVars: input.envVars ?? {}, intervalMs: polling.intervalMs, timeoutMs: polling.timeoutMs, timeoutMessage: def.timeoutMessage };
      if (input.skipPostProcess) return { success: true, output: { id: await opts.startDirect(jobInput) } };
      const workflowId = jobWorkflowId(def.toolId, input.call);
      let handle;
      try {
        handle = await opts.client.workflow.start('pollToolJob', { workflowId, taskQueue: opts.taskQueue, args: [jobInput], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        handle = opts.client.workflow.getHandle(workflowId);
      }
      if (!signal) return (await handle.result()) as JobOutcome;
      // A cancelled call cancels its polling workflow (no check after the next timer) and stops waiting for it.
      const job = handle;
      const onAbort = () => void job.cancel().catch(() => undefined);
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        return (await handle.result()) as JobOutcome;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

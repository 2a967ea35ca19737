import { sleep } from '@temporalio/workflow';
import type { RunWorkflowArgs } from '../../workflows/runWorkflow.workflow.js';

/** How long a probe run lasts (a durable timer): long enough for a test to kill its worker mid-run. */
const PROBE_RUN_MS = 15_000;

/**
 * Stands in for the runner's `runWorkflow` in the schedule tests: waits PROBE_RUN_MS, then answers
 * what the schedule handed it, so a test sees which deployment a fire ran without the whole engine.
 */
export async function runWorkflow(args: RunWorkflowArgs): Promise<{ workflowId: string; trigger: string | undefined; deploymentVersion: number | undefined; actorId: string | undefined }> {
  await sleep(PROBE_RUN_MS);
  return { workflowId: args.workflowId, trigger: args.trigger, deploymentVersion: args.deploymentVersion, actorId: args.actorId };
}

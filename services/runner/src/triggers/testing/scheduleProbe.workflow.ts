import type { RunWorkflowArgs } from '../../workflows/runWorkflow.workflow.js';

/**
 * Stands in for the runner's `runWorkflow` in the schedule tests: answers what the schedule handed
 * it, so a test sees which deployment a fire ran without the whole engine.
 */
export async function runWorkflow(args: RunWorkflowArgs): Promise<{ workflowId: string; trigger: string | undefined; deploymentVersion: number | undefined; actorId: string | undefined }> {
  return { workflowId: args.workflowId, trigger: args.trigger, deploymentVersion: args.deploymentVersion, actorId: args.actorId };
}

import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Kysely } from 'kysely';
import { toAppError } from '@weft/platform';
import type { RunnerDB } from '../db.js';
import { storeValue } from '../executionsStore.js';
import type { BlobRef, RunnableState, RunnerActivities } from '../workflows/types.js';

/** What the runner's resource activities read from other services (gRPC in production). */
export interface RunResourceSources {
  /** A user's decrypted environment variables. */
  environment(userId: string): Promise<Record<string, string>>;
  /** A workflow the user may read: its workspace, name and whether it has an active deployment. */
  workflow(userId: string, workflowId: string): Promise<{ workspaceId: string; name: string; isDeployed: boolean } | null>;
  /** The active deployed state of a workflow. */
  deployedState(workflowId: string): Promise<RunnableState>;
  /** The editor's draft state of a workflow. */
  draftState(workflowId: string): Promise<RunnableState>;
}

/** The user a run acts for: its execution row's actor (the row is written before or as the run starts). */
async function actorOfRun(db: Kysely<RunnerDB>): Promise<string | null> {
  const executionId = Context.current().info.workflowExecution?.workflowId ?? '';
  const row = await db.selectFrom('executions').select('actor_id').where('id', '=', executionId).executeTakeFirst();
  // Not there yet: a run Temporal started (schedule, child workflow) writes its row with its first
  // event, which may still be on its way; the activity's retry reads again.
  if (!row) throw ApplicationFailure.retryable(`Execution ${executionId} is not recorded yet`, 'ExecutionNotRecorded');
  return row.actor_id;
}

/**
 * The runner's activities beside the run log: large values kept outside Temporal's history
 * (`run_blobs`), the environment variables of the user a run acts for, and the state a workflow
 * block runs (the child's active deployment, else its draft).
 */
export function createRunResourceActivities(deps: { db: Kysely<RunnerDB>; sources: RunResourceSources }): Omit<RunnerActivities, 'recordRunEvent' | 'startRun'> {
  const { db, sources } = deps;
  return {
    storeBlob(executionId: string, value: unknown): Promise<BlobRef> {
      return storeValue(db, executionId, JSON.stringify(value ?? null));
    },

    async loadBlob(ref: BlobRef): Promise<unknown> {
      const row = await db.selectFrom('run_blobs').select('value').where('ref', '=', ref.$blobRef).executeTakeFirst();
      if (!row) throw ApplicationFailure.nonRetryable(`Stored value ${ref.$blobRef} not found`, 'BlobNotFound');
      return row.value;
    },

    async loadEnvironment(_workspaceId: string, actorId?: string): Promise<Record<string, string>> {
      // The run's arguments name its actor (set by the runner or the schedule it made); the row is the
      // fallback for runs started before they did. A scheduled run's row comes with its first event, so
      // reading it first would cost every such run a retry.
      const actor = actorId || (await actorOfRun(db));
      return actor ? sources.environment(actor) : {};
    },

    async loadChildWorkflow(workspaceId: string, workflowId: string): Promise<{ name: string; state: RunnableState }> {
      const actor = await actorOfRun(db);
      const notFound = () => ApplicationFailure.nonRetryable(`Workflow ${workflowId} not found`, 'WorkflowNotFound');
      if (!actor) throw notFound();
      let entry: Awaited<ReturnType<RunResourceSources['workflow']>>;
      try {
        entry = await sources.workflow(actor, workflowId);
      } catch (err) {
        const code = toAppError(err).code;
        if (code === 'not_found' || code === 'forbidden') throw notFound();
        throw err;
      }
      // Only a workflow of the run's own workspace may run as its child.
      if (!entry || (workspaceId !== '' && entry.workspaceId !== workspaceId)) throw notFound();
      const state = entry.isDeployed ? await sources.deployedState(workflowId) : await sources.draftState(workflowId);
      return { name: entry.name, state };
    },
  };
}

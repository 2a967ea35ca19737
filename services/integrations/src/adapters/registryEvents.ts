import { z } from 'zod';
import type { Kysely } from 'kysely';
import { startConsumer, type Bus, type Logger, type RunningConsumer } from '@weft/platform';
import type { IntegrationsDB } from '../db.js';

const workflowDeleted = z.object({ workflow: z.object({ id: z.string().min(1) }) });
const workspaceDeleted = z.object({ workspace: z.object({ id: z.string().min(1) }) });

/** Removes what this service keeps for a deleted workflow: its agents' memories. */
export async function dropWorkflowData(db: Kysely<IntegrationsDB>, workflowId: string): Promise<void> {
  await db.deleteFrom('memories').where('workflow_id', '=', workflowId).execute();
}

/** Removes what this service keeps for a deleted workspace: its knowledge bases (their documents and chunks go with them). */
export async function dropWorkspaceData(db: Kysely<IntegrationsDB>, workspaceId: string): Promise<void> {
  await db.deleteFrom('knowledge_bases').where('workspace_id', '=', workspaceId).execute();
}

/**
 * Follows the registry's deletions: a deleted workflow's memories and a deleted workspace's
 * knowledge bases are removed. Ids are never reused, so a redelivered or replayed event deletes
 * nothing more; no inbox is needed.
 */
export function consumeRegistryDeletions(deps: { bus: Bus; db: Kysely<IntegrationsDB>; logger: Logger }): Promise<RunningConsumer> {
  return startConsumer(deps.bus, {
    source: 'registry',
    durable: 'integrations-registry',
    filterSubject: `${deps.bus.instance}.registry.>`,
    logger: deps.logger,
    async handle(envelope) {
      if (envelope.type === 'workflowDeleted') await dropWorkflowData(deps.db, workflowDeleted.parse(envelope.data).workflow.id);
      else if (envelope.type === 'workspaceDeleted') await dropWorkspaceData(deps.db, workspaceDeleted.parse(envelope.data).workspace.id);
    },
  });
}

import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { AppError, appendOutbox, createEnvelope } from '@weft/platform';
import type { RegistryDB, WorkflowTable } from './db.js';
import { requireWorkspaceAccess, type Permission } from './access.js';
import { DEFAULT_DESCRIPTION, randomWorkflowColor, randomWorkflowName } from './domain/defaults.js';

export interface WorkflowView {
  id: string;
  workspaceId: string;
  folderId: string | null;
  name: string;
  description: string;
  color: string;
  marketplaceData: Record<string, unknown> | null;
  isDeployed: boolean;
  deployedAt: string | null;
  apiKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreateWorkflowInput {
  userId: string;
  workspaceId: string;
  name?: string | undefined;
  description?: string | undefined;
  color?: string | undefined;
  folderId?: string | undefined;
}

/** Subject of a registry event about one workflow. */
export function workflowSubject(instance: string, workflowId: string): string {
  return `${instance}.registry.workflow.${workflowId}`;
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** Stores a new entry and, in the same transaction, its workflowCreated event. */
export async function createWorkflow(db: Kysely<RegistryDB>, instance: string, input: CreateWorkflowInput, random: () => number = Math.random): Promise<WorkflowView> {
  // Spec 000 §5: creation needs a workspace.
  if (!input.workspaceId) throw new AppError('validation', 'No active workspace found');
  if (input.color !== undefined && !HEX_COLOR.test(input.color)) throw new AppError('validation', 'color must be a hex colour such as #3972F6');
  if (input.name !== undefined && input.name.trim().length === 0) throw new AppError('validation', 'name must not be empty');
  await requireWorkspaceAccess(db, input.userId, input.workspaceId, 'write');
  const id = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('workflows')
      .values({
        id,
        workspace_id: input.workspaceId,
        folder_id: input.folderId ?? null,
        name: input.name?.trim() ?? randomWorkflowName(random),
        description: input.description ?? DEFAULT_DESCRIPTION,
        color: input.color ?? randomWorkflowColor(random),
        marketplace_data: null,
        deployed_at: null,
        api_key: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const view = toView(row);
    await appendOutbox(trx, [createEnvelope(workflowSubject(instance, id), 'workflowCreated', { workflow: view, createdBy: input.userId })]);
    return view;
  });
}

/** One entry, after checking the caller's access to its workspace. */
export async function getWorkflow(db: Kysely<RegistryDB>, userId: string, workflowId: string, access: Permission): Promise<{ workflow: WorkflowView; permission: Permission }> {
  const row = await db.selectFrom('workflows').selectAll().where('id', '=', workflowId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `Workflow ${workflowId} not found`);
  const permission = await requireWorkspaceAccess(db, userId, row.workspace_id, access);
  return { workflow: toView(row), permission };
}

/** The workspace's entries, oldest first (the first becomes active in the browser, spec 000 §4). */
export async function listWorkflows(db: Kysely<RegistryDB>, userId: string, workspaceId: string): Promise<WorkflowView[]> {
  if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
  await requireWorkspaceAccess(db, userId, workspaceId, 'read');
  const rows = await db.selectFrom('workflows').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toView);
}

function toView(row: Selectable<WorkflowTable>): WorkflowView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    folderId: row.folder_id,
    name: row.name,
    description: row.description,
    color: row.color,
    marketplaceData: row.marketplace_data,
    isDeployed: row.is_deployed,
    deployedAt: row.deployed_at ? row.deployed_at.toISOString() : null,
    apiKey: row.api_key,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

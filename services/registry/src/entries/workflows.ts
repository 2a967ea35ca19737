import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { AppError } from '@weft/platform';
import type { RegistryDB } from '../db.js';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';
import { requireWorkspaceAccess, type Permission } from '../access.js';
import { DEFAULT_DESCRIPTION, MARKETPLACE_COLOR, randomWorkflowColor, randomWorkflowName } from '../domain/defaults.js';
import { toWorkflowView, workflowEventData, type WorkflowView } from './view.js';

/** Spec 000 §8: the plan limit message, word for word. */
export const WORKFLOW_LIMIT_MESSAGE = 'Workflow creation limit reached. Please upgrade your plan to create more workflows.';

export interface WorkflowMetadata {
  name?: string | undefined;
  description?: string | undefined;
  color?: string | undefined;
  folderId?: string | null | undefined;
  marketplaceData?: Record<string, unknown> | null | undefined;
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** Checks metadata fields; answers the trimmed name. */
export function checkMetadata(input: WorkflowMetadata): void {
  if (input.color !== undefined && !HEX_COLOR.test(input.color)) throw new AppError('validation', 'color must be a hex colour such as #3972F6');
  if (input.name !== undefined && input.name.trim().length === 0) throw new AppError('validation', 'name must not be empty');
  if (input.name !== undefined && input.name.length > 200) throw new AppError('validation', 'name must be at most 200 characters');
  if (input.description !== undefined && input.description.length > 2000) throw new AppError('validation', 'description must be at most 2000 characters');
}

/** Refuses a folder that is not in `workspaceId`. */
export async function checkFolder(db: Kysely<RegistryDB>, workspaceId: string, folderId: string | null | undefined): Promise<void> {
  if (!folderId) return;
  const folder = await db.selectFrom('folders').select('id').where('id', '=', folderId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (!folder) throw new AppError('validation', `Folder ${folderId} not found in this workspace`);
}

/**
 * Inserts an entry after the plan-limit check, in the caller's transaction; emits workflowCreated.
 * `copiedFrom`: the workflow a duplicate copies (kept for the editor's check of the copy).
 */
export async function insertWorkflow(r: Registry, trx: Transaction<RegistryDB>, workspaceId: string, userId: string, input: WorkflowMetadata, copiedFrom?: string): Promise<WorkflowView> {
  // One creation at a time per workspace, so two concurrent calls cannot both pass the limit.
  await sql`select pg_advisory_xact_lock(hashtext(${`workflows:${workspaceId}`}))`.execute(trx);
  const { count } = await trx.selectFrom('workflows').select((eb) => eb.fn.countAll<string>().as('count')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
  if (Number(count) >= r.workflowLimit) throw new AppError('limit', WORKFLOW_LIMIT_MESSAGE, { upgradeRequired: true });
  const id = randomUUID();
  const marketplace = input.marketplaceData ?? null;
  const row = await trx
    .insertInto('workflows')
    .values({
      id,
      workspace_id: workspaceId,
      folder_id: input.folderId ?? null,
      name: input.name?.trim() ?? randomWorkflowName(r.random),
      description: input.description ?? DEFAULT_DESCRIPTION,
      color: input.color ?? (marketplace ? MARKETPLACE_COLOR : randomWorkflowColor(r.random)),
      marketplace_data: marketplace ? JSON.stringify(marketplace) : null,
      deployed_at: null,
      api_key: null,
      copied_from: copiedFrom ?? null,
      created_at: r.now(),
      updated_at: r.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const view = toWorkflowView(row, r.cipher);
  await emit(trx, r.instance, 'workflow', id, 'workflowCreated', { workflow: workflowEventData(view), createdBy: userId });
  return view;
}

/** Stores a new entry and, in the same transaction, its workflowCreated event. */
export async function createWorkflow(r: Registry, userId: string, workspaceId: string, input: WorkflowMetadata): Promise<WorkflowView> {
  // Spec 000 §5: creation needs a workspace.
  if (!workspaceId) throw new AppError('validation', 'No active workspace found');
  checkMetadata(input);
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'write');
  await checkFolder(r.db, workspaceId, input.folderId);
  const view = await r.db.transaction().execute((trx) => insertWorkflow(r, trx, workspaceId, userId, input));
  r.kick();
  return view;
}

/** One entry, after checking the caller's access to its workspace. */
export async function getWorkflow(r: Pick<Registry, 'db' | 'cipher'>, userId: string, workflowId: string, access: Permission): Promise<{ workflow: WorkflowView; permission: Permission }> {
  const row = await r.db.selectFrom('workflows').selectAll().where('id', '=', workflowId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `Workflow ${workflowId} not found`);
  const permission = await requireWorkspaceAccess(r.db, userId, row.workspace_id, access);
  return { workflow: toWorkflowView(row, r.cipher), permission };
}

/** The workspace's entries, oldest first (the first becomes active in the browser, spec 000 §4). */
export async function listWorkflows(r: Pick<Registry, 'db' | 'cipher'>, userId: string, workspaceId: string): Promise<WorkflowView[]> {
  if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'read');
  const rows = await r.db.selectFrom('workflows').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => toWorkflowView(row, r.cipher));
}

/** Changes only the given metadata fields; emits workflowUpdated with the changed fields. */
export async function updateWorkflow(r: Registry, userId: string, workflowId: string, input: WorkflowMetadata): Promise<WorkflowView> {
  checkMetadata(input);
  const { workflow } = await getWorkflow(r, userId, workflowId, 'write');
  await checkFolder(r.db, workflow.workspaceId, input.folderId);
  const changes = {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.color !== undefined ? { color: input.color } : {}),
    ...(input.folderId !== undefined ? { folder_id: input.folderId } : {}),
    ...(input.marketplaceData !== undefined ? { marketplace_data: input.marketplaceData ? JSON.stringify(input.marketplaceData) : null } : {}),
  };
  const view = await r.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('workflows')
      .set({ ...changes, updated_at: r.now() })
      .where('id', '=', workflowId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const updated = toWorkflowView(row, r.cipher);
    await emit(trx, r.instance, 'workflow', workflowId, 'workflowUpdated', { workflow: workflowEventData(updated), changed: Object.keys(input).filter((k) => input[k as keyof WorkflowMetadata] !== undefined) });
    return updated;
  });
  r.kick();
  return view;
}

/**
 * Deletes an entry with its deployments; workflowDeleted lets the runner cancel schedules. The editor
 * is told before the answer (`dropWorkflows`, the event follows), so once the delete has answered,
 * commands and reads of the workflow answer 404 through any gateway, whatever grant it remembers.
 */
export async function deleteWorkflow(r: Registry, userId: string, workflowId: string): Promise<void> {
  const { workflow } = await getWorkflow(r, userId, workflowId, 'write');
  const deleted = await r.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('workflows').where('id', '=', workflowId).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) return false; // a concurrent delete got there first
    await emit(trx, r.instance, 'workflow', workflowId, 'workflowDeleted', { workflow: workflowEventData(workflow), deletedBy: userId });
    return true;
  });
  r.kick();
  if (!deleted) throw new AppError('not_found', `Workflow ${workflowId} not found`);
  await r.editor.dropWorkflows?.([workflowId]);
}

/**
 * Which of `workflowIds` exist now, and the source of each that is a duplicate's copy (the editor's
 * catch-up and its check of a copy ask; no access check, ids only).
 */
export async function checkWorkflows(db: Kysely<RegistryDB>, workflowIds: string[]): Promise<{ existingIds: string[]; copiedFrom: Record<string, string> }> {
  const ids = [...new Set(workflowIds.filter((id) => id.length > 0))];
  if (ids.length === 0) return { existingIds: [], copiedFrom: {} };
  if (ids.length > 10_000) throw new AppError('validation', 'workflowIds must hold at most 10000 ids');
  const rows = await db.selectFrom('workflows').select(['id', 'copied_from']).where('id', 'in', ids).execute();
  const copiedFrom: Record<string, string> = {};
  for (const row of rows) if (row.copied_from !== null) copiedFrom[row.id] = row.copied_from;
  return { existingIds: rows.map((row) => row.id), copiedFrom };
}

/** Which of `workflowIds` exist now (checkWorkflows without the copies). */
export async function existingWorkflows(db: Kysely<RegistryDB>, workflowIds: string[]): Promise<string[]> {
  return (await checkWorkflows(db, workflowIds)).existingIds;
}

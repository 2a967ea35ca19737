import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '@weft/platform';
import type { RegistryDB } from '../db.js';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';
import { requireWorkspaceAccess } from '../access.js';

export interface WorkspaceView {
  id: string;
  name: string;
  ownerId: string;
  permission: string;
  createdAt: string;
  updatedAt: string;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new AppError('validation', 'Workspace name is required');
  if (trimmed.length > 200) throw new AppError('validation', 'Workspace name must be at most 200 characters');
  return trimmed;
}

/**
 * The caller's workspaces, oldest first, and whether a workspace was ever created for them
 * (false only when sign-up's creation failed: then `ensureInitialWorkspace` is due).
 */
export async function listWorkspaces(db: Kysely<RegistryDB>, userId: string): Promise<{ workspaces: WorkspaceView[]; initialWorkspaceCreated: boolean }> {
  // One snapshot for both reads: the marker and the first workspace commit together, so a list can
  // never see the marker without the workspace (read apart, a list running beside the creation
  // answered no workspace and "created" at once, and the gateway showed an empty list).
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const rows = await workspacesOf(trx, userId).execute();
      const marker = await trx.selectFrom('initial_workspaces').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      return { workspaces: rows.map(toView), initialWorkspaceCreated: marker !== undefined };
    });
}

/** A new workspace with the caller as its admin; the first one a user creates also counts as their initial workspace. */
export async function createWorkspace(r: Registry, userId: string, name: string): Promise<WorkspaceView> {
  const checked = checkName(name);
  const id = randomUUID();
  await r.db.transaction().execute(async (trx) => {
    await trx.insertInto('initial_workspaces').values({ user_id: userId, workspace_id: id }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    await insertWorkspace(r, trx, userId, id, checked);
  });
  r.kick();
  return getOne(r.db, userId, id);
}

/**
 * Creates the caller's first workspace unless a workspace was ever created for them, so sign-up's
 * hook and a later list that finds it missing cannot both create one, and a user who deleted every
 * workspace does not get one back. Concurrent calls wait on the user's marker row: one creates.
 */
export async function ensureInitialWorkspace(r: Registry, userId: string, name: string): Promise<WorkspaceView | null> {
  const checked = checkName(name);
  const id = randomUUID();
  const created = await r.db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('initial_workspaces')
      .values({ user_id: userId, workspace_id: id })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!marked) return false;
    await insertWorkspace(r, trx, userId, id, checked);
    return true;
  });
  if (!created) return null;
  r.kick();
  return getOne(r.db, userId, id);
}

async function insertWorkspace(r: Registry, trx: Transaction<RegistryDB>, userId: string, id: string, name: string): Promise<void> {
  await trx.insertInto('workspaces').values({ id, name, owner_id: userId }).execute();
  await trx.insertInto('workspace_members').values({ workspace_id: id, user_id: userId, permission: 'admin' }).execute();
  await emit(trx, r.instance, 'workspace', id, 'workspaceCreated', { workspace: { id, name, ownerId: userId } });
}

/** Renames a workspace (admins only). */
export async function renameWorkspace(r: Registry, userId: string, workspaceId: string, name: string): Promise<WorkspaceView> {
  const checked = checkName(name);
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'admin');
  await r.db.transaction().execute(async (trx) => {
    await trx.updateTable('workspaces').set({ name: checked, updated_at: r.now() }).where('id', '=', workspaceId).execute();
    await emit(trx, r.instance, 'workspace', workspaceId, 'workspaceRenamed', { workspace: { id: workspaceId, name: checked } });
  });
  r.kick();
  return getOne(r.db, userId, workspaceId);
}

/**
 * Deletes a workspace and everything in it (admins only); each workflow gets its workflowDeleted,
 * and the editor drops their streams before the answer (see deleteWorkflow).
 */
export async function deleteWorkspace(r: Registry, userId: string, workspaceId: string): Promise<void> {
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'admin');
  const deleted = await r.db.transaction().execute(async (trx) => {
    // Locks the workspace row first, so a workflow created concurrently is either in this list or refused.
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().executeTakeFirst();
    const workflows = await trx.selectFrom('workflows').select(['id', 'workspace_id']).where('workspace_id', '=', workspaceId).execute();
    for (const w of workflows) await emit(trx, r.instance, 'workflow', w.id, 'workflowDeleted', { workflow: { id: w.id, workspaceId: w.workspace_id } });
    await trx.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
    await emit(trx, r.instance, 'workspace', workspaceId, 'workspaceDeleted', { workspace: { id: workspaceId } });
    return workflows.map((w) => w.id);
  });
  r.kick();
  await r.editor.dropWorkflows?.(deleted);
}

async function getOne(db: Kysely<RegistryDB>, userId: string, workspaceId: string): Promise<WorkspaceView> {
  const row = await workspacesOf(db, userId).where('workspaces.id', '=', workspaceId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `Workspace ${workspaceId} not found`);
  return toView(row);
}

function workspacesOf(db: Kysely<RegistryDB>, userId: string) {
  return db
    .selectFrom('workspaces')
    .innerJoin('workspace_members', 'workspace_members.workspace_id', 'workspaces.id')
    .select(['workspaces.id', 'workspaces.name', 'workspaces.owner_id', 'workspaces.created_at', 'workspaces.updated_at', 'workspace_members.permission'])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspaces.created_at')
    .orderBy('workspaces.id');
}

function toView(r: { id: string; name: string; owner_id: string; permission: string; created_at: Date; updated_at: Date }): WorkspaceView {
  return { id: r.id, name: r.name, ownerId: r.owner_id, permission: r.permission, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString() };
}

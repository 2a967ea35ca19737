import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { AppError } from '@weft/platform';
import type { FolderTable, RegistryDB } from '../db.js';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';
import { requireWorkspaceAccess } from '../access.js';

/** The colour of a folder when none is chosen. */
export const DEFAULT_FOLDER_COLOR = '#6B7280';
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export interface FolderView {
  id: string;
  workspaceId: string;
  parentId: string | null;
  name: string;
  color: string;
  isExpanded: boolean;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

export interface FolderChanges {
  name?: string | undefined;
  parentId?: string | null | undefined;
  color?: string | undefined;
  isExpanded?: boolean | undefined;
}

function checkChanges(input: FolderChanges): void {
  if (input.name !== undefined && input.name.trim().length === 0) throw new AppError('validation', 'Folder name is required');
  if (input.name !== undefined && input.name.length > 200) throw new AppError('validation', 'Folder name must be at most 200 characters');
  if (input.color !== undefined && !HEX_COLOR.test(input.color)) throw new AppError('validation', 'color must be a hex colour such as #3972F6');
}

/** The workspace's folders, parents before children by creation time. */
export async function listFolders(db: Kysely<RegistryDB>, userId: string, workspaceId: string): Promise<FolderView[]> {
  if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
  await requireWorkspaceAccess(db, userId, workspaceId, 'read');
  const rows = await db.selectFrom('folders').selectAll().where('workspace_id', '=', workspaceId).orderBy('sort_order').orderBy('created_at').orderBy('id').execute();
  return rows.map(toView);
}

/** A new folder, at the root or inside `parentId` of the same workspace. */
export async function createFolder(r: Registry, userId: string, workspaceId: string, input: FolderChanges & { name: string }): Promise<FolderView> {
  if (!workspaceId) throw new AppError('validation', 'workspaceId is required');
  checkChanges(input);
  if (input.name === undefined) throw new AppError('validation', 'Folder name is required');
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'write');
  if (input.parentId) await folderIn(r.db, input.parentId, workspaceId);
  const row = await r.db.transaction().execute(async (trx) => {
    const { next } = await trx
      .selectFrom('folders')
      .select((eb) => eb.fn.coalesce(eb.fn.max('sort_order'), eb.val(-1)).as('next'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const saved = await trx
      .insertInto('folders')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        parent_id: input.parentId ?? null,
        name: input.name.trim(),
        color: input.color ?? DEFAULT_FOLDER_COLOR,
        sort_order: Number(next) + 1,
        created_at: r.now(),
        updated_at: r.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await emit(trx, r.instance, 'folder', saved.id, 'folderCreated', { folder: toView(saved) });
    return saved;
  });
  r.kick();
  return toView(row);
}

/** Renames, recolours, expands or moves a folder; a folder cannot move into itself or its descendants. */
export async function updateFolder(r: Registry, userId: string, folderId: string, input: FolderChanges): Promise<FolderView> {
  checkChanges(input);
  const folder = await findFolder(r.db, folderId);
  await requireWorkspaceAccess(r.db, userId, folder.workspace_id, 'write');
  if (input.parentId) {
    await folderIn(r.db, input.parentId, folder.workspace_id);
    if (await isSelfOrDescendant(r.db, folderId, input.parentId)) throw new AppError('validation', 'A folder cannot be moved into itself or one of its subfolders');
  }
  const row = await r.db.transaction().execute(async (trx) => {
    const saved = await trx
      .updateTable('folders')
      .set({
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.parentId !== undefined ? { parent_id: input.parentId } : {}),
        ...(input.color !== undefined ? { color: input.color } : {}),
        ...(input.isExpanded !== undefined ? { is_expanded: input.isExpanded } : {}),
        updated_at: r.now(),
      })
      .where('id', '=', folderId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await emit(trx, r.instance, 'folder', folderId, 'folderUpdated', { folder: toView(saved) });
    return saved;
  });
  r.kick();
  return toView(row);
}

/**
 * Deletes a folder and its subfolders. Their workflows are kept and move to the deleted folder's
 * parent (the root for a top-level folder): deleting a folder never deletes work.
 */
export async function deleteFolder(r: Registry, userId: string, folderId: string): Promise<void> {
  const folder = await findFolder(r.db, folderId);
  await requireWorkspaceAccess(r.db, userId, folder.workspace_id, 'write');
  await r.db.transaction().execute(async (trx) => {
    const ids = await subtree(trx, folderId);
    const moved = await trx.updateTable('workflows').set({ folder_id: folder.parent_id, updated_at: r.now() }).where('folder_id', 'in', ids).returning('id').execute();
    for (const w of moved) await emit(trx, r.instance, 'workflow', w.id, 'workflowUpdated', { workflow: { id: w.id, folderId: folder.parent_id }, changed: ['folderId'] });
    await trx.deleteFrom('folders').where('id', '=', folderId).execute();
    await emit(trx, r.instance, 'folder', folderId, 'folderDeleted', { folder: { id: folderId, workspaceId: folder.workspace_id }, removedFolderIds: ids });
  });
  r.kick();
}

async function findFolder(db: Kysely<RegistryDB>, folderId: string): Promise<Selectable<FolderTable>> {
  const folder = await db.selectFrom('folders').selectAll().where('id', '=', folderId).executeTakeFirst();
  if (!folder) throw new AppError('not_found', `Folder ${folderId} not found`);
  return folder;
}

async function folderIn(db: Kysely<RegistryDB>, folderId: string, workspaceId: string): Promise<void> {
  const found = await db.selectFrom('folders').select('id').where('id', '=', folderId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (!found) throw new AppError('validation', `Folder ${folderId} not found in this workspace`);
}

/** The folder and every folder below it. */
async function subtree(db: Kysely<RegistryDB>, folderId: string): Promise<string[]> {
  const ids = [folderId];
  for (let i = 0; i < ids.length; i++) {
    const children = await db.selectFrom('folders').select('id').where('parent_id', '=', ids[i] ?? '').execute();
    ids.push(...children.map((c) => c.id));
  }
  return ids;
}

async function isSelfOrDescendant(db: Kysely<RegistryDB>, folderId: string, candidate: string): Promise<boolean> {
  return (await subtree(db, folderId)).includes(candidate);
}

function toView(row: Selectable<FolderTable>): FolderView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    parentId: row.parent_id,
    name: row.name,
    color: row.color,
    isExpanded: row.is_expanded,
    sortOrder: row.sort_order,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

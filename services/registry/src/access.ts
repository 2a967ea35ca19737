import type { Kysely } from 'kysely';
import { AppError } from '@weft/platform';
import type { RegistryDB } from './db.js';

export type Permission = 'admin' | 'write' | 'read';
const RANK: Record<Permission, number> = { read: 1, write: 2, admin: 3 };

/** True for 'admin', 'write' and 'read'. */
export function isPermission(value: string): value is Permission {
  return value in RANK;
}

/** The caller's permission in a workspace; refuses non-members and callers below `needed`. */
export async function requireWorkspaceAccess(db: Kysely<RegistryDB>, userId: string, workspaceId: string, needed: Permission): Promise<Permission> {
  const workspace = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
  if (!workspace) throw new AppError('not_found', `Workspace ${workspaceId} not found`);
  const member = await db
    .selectFrom('workspace_members')
    .select('permission')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member) throw new AppError('forbidden', 'Access denied to workspace');
  if (RANK[member.permission] < RANK[needed]) throw new AppError('forbidden', `This action needs ${needed} permission in the workspace`);
  return member.permission;
}

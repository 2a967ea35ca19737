import type { Kysely } from 'kysely';
import { AppError } from '@weft/platform';
import type { RegistryDB } from '../db.js';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';
import { isPermission, requireWorkspaceAccess, type Permission } from '../access.js';

export interface MemberView {
  userId: string;
  permission: Permission;
  createdAt: string;
}

/** The caller's permission and every member, for GET /api/workspaces/{id}/permissions. */
export async function getPermissions(r: Registry, userId: string, workspaceId: string): Promise<{ permission: Permission; members: MemberView[] }> {
  const permission = await requireWorkspaceAccess(r.db, userId, workspaceId, 'read');
  const rows = await r.db.selectFrom('workspace_members').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('user_id').execute();
  return { permission, members: rows.map((m) => ({ userId: m.user_id, permission: m.permission, createdAt: m.created_at.toISOString() })) };
}

/**
 * Adds a member or changes a member's permission (admins only); the last admin cannot step down.
 * With `mustExist` only a member's permission changes: a user who is no member (never was, or was
 * removed by a call that committed first) is not_found and nothing is written or emitted.
 * With `mustBeNew` (an invitation) only a new member is added: a user who is already a member (or
 * was added by a call that committed first) is a conflict and their permission stays as it is.
 */
export async function setMember(r: Registry, userId: string, workspaceId: string, memberId: string, permission: string, opts: { mustExist?: boolean; mustBeNew?: boolean } = {}): Promise<MemberView> {
  if (!isPermission(permission)) throw new AppError('validation', "permission must be 'admin', 'write' or 'read'");
  if (!memberId) throw new AppError('validation', 'userId is required');
  if (opts.mustExist && opts.mustBeNew) throw new AppError('validation', 'mustExist and mustBeNew cannot both be set');
  await requireWorkspaceAccess(r.db, userId, workspaceId, 'admin');
  const row = await r.db.transaction().execute(async (trx) => {
    await lockMembership(trx, workspaceId);
    // Again under the lock: an admin demoted by a change that committed meanwhile makes no more changes.
    await requireWorkspaceAccess(trx, userId, workspaceId, 'admin');
    const before = await trx.selectFrom('workspace_members').select('permission').where('workspace_id', '=', workspaceId).where('user_id', '=', memberId).forUpdate().executeTakeFirst();
    if (!before && opts.mustExist) throw new AppError('not_found', `userId ${memberId.slice(0, 100)} is not a member of this workspace`);
    if (before && opts.mustBeNew) throw new AppError('conflict', `userId ${memberId.slice(0, 100)} is already a member of this workspace`, { field: 'userId', userId: memberId });
    if (before?.permission === 'admin' && permission !== 'admin') await keepAnAdmin(trx, workspaceId, memberId);
    const saved = await trx
      .insertInto('workspace_members')
      .values({ workspace_id: workspaceId, user_id: memberId, permission })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ permission }))
      .returningAll()
      .executeTakeFirstOrThrow();
    await emit(trx, r.instance, 'workspace', workspaceId, before ? 'memberUpdated' : 'memberAdded', { workspaceId, userId: memberId, permission });
    return saved;
  });
  r.kick();
  return { userId: row.user_id, permission: row.permission, createdAt: row.created_at.toISOString() };
}

/** Removes a member (admins, or a member leaving); the last admin cannot leave. */
export async function removeMember(r: Registry, userId: string, workspaceId: string, memberId: string): Promise<void> {
  await requireWorkspaceAccess(r.db, userId, workspaceId, memberId === userId ? 'read' : 'admin');
  await r.db.transaction().execute(async (trx) => {
    await lockMembership(trx, workspaceId);
    await requireWorkspaceAccess(trx, userId, workspaceId, memberId === userId ? 'read' : 'admin');
    const before = await trx.selectFrom('workspace_members').select('permission').where('workspace_id', '=', workspaceId).where('user_id', '=', memberId).forUpdate().executeTakeFirst();
    if (!before) throw new AppError('not_found', `Member ${memberId} not found`);
    if (before.permission === 'admin') await keepAnAdmin(trx, workspaceId, memberId);
    await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('user_id', '=', memberId).execute();
    await emit(trx, r.instance, 'workspace', workspaceId, 'memberRemoved', { workspaceId, userId: memberId });
  });
  r.kick();
}

/**
 * Membership changes of one workspace take turns (its row locked until the transaction ends), so the
 * last-admin check reads what the change before committed: two admins stepping down at once would
 * otherwise each see the other still an admin and leave the workspace with none.
 */
async function lockMembership(trx: Kysely<RegistryDB>, workspaceId: string): Promise<void> {
  // FOR NO KEY UPDATE: serialises membership changes without blocking the key-share locks of inserts referencing the workspace.
  await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forNoKeyUpdate().executeTakeFirst();
}

async function keepAnAdmin(db: Kysely<RegistryDB>, workspaceId: string, leaving: string): Promise<void> {
  const others = await db
    .selectFrom('workspace_members')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('permission', '=', 'admin')
    .where('user_id', '!=', leaving)
    .executeTakeFirst();
  if (!others) throw new AppError('conflict', 'A workspace needs at least one admin');
}

import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { RegistryDB } from './db.js';

export interface WorkspaceView {
  id: string;
  name: string;
  ownerId: string;
  permission: string;
  createdAt: string;
  updatedAt: string;
}

/** The caller's workspaces; a caller with none gets a first one, as sign-up would give. */
export async function listWorkspaces(db: Kysely<RegistryDB>, userId: string): Promise<WorkspaceView[]> {
  let rows = await query(db, userId);
  if (rows.length === 0) {
    await db.transaction().execute(async (trx) => {
      // Serialise first-workspace creation per user so two first calls do not make two.
      await sql`select pg_advisory_xact_lock(hashtext(${`workspace:${userId}`}))`.execute(trx);
      const again = await query(trx, userId);
      if (again.length > 0) return;
      const id = randomUUID();
      await trx.insertInto('workspaces').values({ id, name: 'My Workspace', owner_id: userId }).execute();
      await trx.insertInto('workspace_members').values({ workspace_id: id, user_id: userId, permission: 'admin' }).execute();
    });
    rows = await query(db, userId);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ownerId: r.owner_id,
    permission: r.permission,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

function query(db: Kysely<RegistryDB>, userId: string) {
  return db
    .selectFrom('workspaces')
    .innerJoin('workspace_members', 'workspace_members.workspace_id', 'workspaces.id')
    .select(['workspaces.id', 'workspaces.name', 'workspaces.owner_id', 'workspaces.created_at', 'workspaces.updated_at', 'workspace_members.permission'])
    .where('workspace_members.user_id', '=', userId)
    .orderBy('workspaces.created_at')
    .execute();
}

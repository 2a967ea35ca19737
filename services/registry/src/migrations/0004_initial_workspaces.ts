import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One row per user for whom a workspace was ever created, so the first workspace is created once:
 * sign-up's, or a later self-healing one, but never again after the user deleted theirs.
 * Users who owned a workspace before this migration are marked from their oldest one.
 */
export const initialWorkspaces: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('initial_workspaces')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`
      insert into initial_workspaces (user_id, workspace_id, created_at)
      select distinct on (owner_id) owner_id, id, created_at from workspaces order by owner_id, created_at, id
    `.execute(db);
  },
};

import { sql, type Kysely, type Migration } from 'kysely';

/** Workspaces, their members and the workflow registry entries. */
export const workspacesAndWorkflows: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workspaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('workspace_members')
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('permission', 'text', (c) => c.notNull().check(sql`permission in ('admin', 'write', 'read')`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
      .execute();
    await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();
    await db.schema
      .createTable('workflows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('folder_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('marketplace_data', 'jsonb')
      .addColumn('is_deployed', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('deployed_at', 'timestamptz')
      .addColumn('api_key', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('workflows_workspace').on('workflows').columns(['workspace_id', 'created_at']).execute();
  },
};

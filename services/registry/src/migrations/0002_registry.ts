import { sql, type Kysely, type Migration } from 'kysely';

const now = sql`now()`;

/** Folders, deployments, environment variables, custom tools and OAuth credentials. */
export const registryTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('folders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('parent_id', 'text', (c) => c.references('folders.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('is_expanded', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('folders_workspace').on('folders').column('workspace_id').execute();
    await db.schema
      .alterTable('workflows')
      .addColumn('needs_redeployment', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('has_active_webhook', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('baseline_version', 'integer')
      .execute();
    await sql`alter table workflows add constraint workflows_folder foreign key (folder_id) references folders(id) on delete set null`.execute(db);
    await db.schema
      .createTable('deployment_versions')
      .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('state', 'jsonb', (c) => c.notNull())
      .addColumn('editor_version', 'integer', (c) => c.notNull())
      .addColumn('is_active', 'boolean', (c) => c.notNull())
      .addColumn('deployed_at', 'timestamptz', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('deployment_versions_pk', ['workflow_id', 'version'])
      .execute();
    await sql`create unique index deployment_versions_active on deployment_versions (workflow_id) where is_active`.execute(db);
    await db.schema
      .createTable('environment_variables')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('environment_variables_pk', ['user_id', 'name'])
      .execute();
    await db.schema
      .createTable('custom_tools')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('schema', 'jsonb', (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('custom_tools_pk', ['user_id', 'id'])
      .execute();
    await db.schema
      .createTable('oauth_credentials')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('access_token', 'text', (c) => c.notNull())
      .addColumn('refresh_token', 'text')
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('oauth_credentials_user').on('oauth_credentials').column('user_id').execute();
    await db.schema
      .createTable('oauth_states')
      .addColumn('state', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
  },
};

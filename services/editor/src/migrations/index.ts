import { sql, type Kysely, type Migration } from 'kysely';

/** The editor's migrations, applied in name order. */
export const migrations: Record<string, Migration> = {
  '0001_event_store': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('streams')
        .addColumn('workflow_id', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('workflow_id', 'text', (c) => c.notNull().references('streams.workflow_id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('occurred_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('events_pk', ['workflow_id', 'version'])
        .execute();
      await db.schema
        .createTable('snapshots')
        .addColumn('workflow_id', 'text', (c) => c.primaryKey().references('streams.workflow_id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('state', 'jsonb', (c) => c.notNull())
        .addColumn('taken_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('workflow_states')
        .addColumn('workflow_id', 'text', (c) => c.primaryKey().references('streams.workflow_id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('state', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('processed_commands')
        .addColumn('workflow_id', 'text', (c) => c.notNull().references('streams.workflow_id').onDelete('cascade'))
        .addColumn('command_id', 'text', (c) => c.notNull())
        .addColumn('result', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('processed_commands_pk', ['workflow_id', 'command_id'])
        .execute();
    },
  },
  '0002_lean_read_model': {
    // The read model keeps one row per block and the rest of the state in columns, so an edit
    // rewrites only what it touched instead of the whole state (issue 3, performance).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('workflow_blocks')
        .addColumn('workflow_id', 'text', (c) => c.notNull().references('streams.workflow_id').onDelete('cascade'))
        .addColumn('block_id', 'text', (c) => c.notNull())
        .addColumn('block', 'jsonb', (c) => c.notNull())
        .addPrimaryKeyConstraint('workflow_blocks_pk', ['workflow_id', 'block_id'])
        .execute();
      for (const column of ['edges', 'loops', 'parallels', 'variables']) {
        await db.schema.alterTable('workflow_states').addColumn(column, 'jsonb').execute();
      }
      await sql`insert into workflow_blocks (workflow_id, block_id, block)
        select s.workflow_id, b.key, b.value from workflow_states s, jsonb_each(coalesce(s.state->'blocks', '{}'::jsonb)) b`.execute(db);
      await sql`update workflow_states set
        edges = coalesce(state->'edges', '[]'::jsonb), loops = coalesce(state->'loops', '{}'::jsonb),
        parallels = coalesce(state->'parallels', '{}'::jsonb), variables = coalesce(state->'variables', '{}'::jsonb),
        state = state - 'blocks' - 'edges' - 'loops' - 'parallels' - 'variables'`.execute(db);
      for (const column of ['edges', 'loops', 'parallels', 'variables']) {
        await db.schema.alterTable('workflow_states').alterColumn(column, (c) => c.setNotNull()).execute();
      }
    },
  },
  '0003_deleted_workflows': {
    // Workflows the registry deleted (issue 9): a stream is never started again for one of them,
    // whether a late workflowCreated event or a catch-up asks, so a delete answers 404 at once.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('deleted_workflows')
        .addColumn('workflow_id', 'text', (c) => c.primaryKey())
        .addColumn('deleted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
};

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
};

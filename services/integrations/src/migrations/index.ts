import { sql, type Kysely, type Migration } from 'kysely';

/** The integrations service's own tables: agent memories and knowledge bases. */
export const migrations: Record<string, Migration> = {
  '0001_memories': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('memories')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('memories_workflow_key', ['workflow_id', 'key'])
        .execute();
    },
  },
};

import { sql, type Kysely, type Migration } from 'kysely';

/** Values over the history limit that runs keep outside Temporal's history, passed by reference. */
export const blobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('run_blobs')
      .addColumn('ref', 'text', (c) => c.primaryKey())
      .addColumn('execution_id', 'text', (c) => c.notNull())
      .addColumn('value', 'jsonb', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('run_blobs_execution').on('run_blobs').column('execution_id').execute();
  },
};

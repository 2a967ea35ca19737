import type { Kysely, Migration } from 'kysely';

/** Whether a rerun took the block's output from the run it reran instead of running it. */
export const reusedLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('block_logs').addColumn('reused', 'boolean').execute();
  },
};

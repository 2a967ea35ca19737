import type { Kysely, Migration } from 'kysely';

/** Each try of a retried block's call (start, duration, error) beside the attempt count. */
export const attemptLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('block_logs').addColumn('attempt_log', 'jsonb').execute();
  },
};

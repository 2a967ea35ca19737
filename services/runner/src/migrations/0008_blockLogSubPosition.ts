import type { Kysely, Migration } from 'kysely';

/**
 * The order of block logs that share a position: a reused loop's or parallel's body logs, copied from
 * the run a rerun reran, stand right after their container's log, in the order they ran there (1, 2, …).
 */
export const blockLogSubPosition: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('block_logs').addColumn('position_sub', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};

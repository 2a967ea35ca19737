import { sql, type Kysely, type Migration } from 'kysely';

/** Block logs may be `cancelled`: a block cut short while it ran is no longer shown as failed. */
export const cancelledBlockLogs: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table block_logs drop constraint if exists block_logs_status_check`.execute(db);
    await sql`alter table block_logs add constraint block_logs_status_check check (status in ('running', 'succeeded', 'failed', 'skipped', 'cancelled'))`.execute(db);
  },
};

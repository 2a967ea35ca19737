import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The Temporal Schedules the runner made for each workflow (one per schedule trigger): a redeploy
 * that drops a trigger, an undeploy or a deletion finds here the schedules to delete, without
 * listing Temporal's (eventually consistent) visibility.
 */
export const schedules: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workflow_schedules')
      .addColumn('schedule_id', 'text', (c) => c.primaryKey())
      .addColumn('workflow_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('workflow_schedules_workflow').on('workflow_schedules').column('workflow_id').execute();
  },
};

import { sql, type Kysely, type Migration } from 'kysely';

/** Webhook paths of deployed workflows (unique) and the webhook deliveries already run (by delivery id). */
export const triggerTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('path', 'text', (c) => c.primaryKey())
      .addColumn('workflow_id', 'text', (c) => c.notNull().unique().references('workflows.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
      .addColumn('delivery_id', 'text', (c) => c.notNull())
      .addColumn('execution_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('webhook_deliveries_pk', ['workflow_id', 'delivery_id'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
  },
};

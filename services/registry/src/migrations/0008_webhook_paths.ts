import { sql, type Kysely, type Migration } from 'kysely';

/** A workflow listens on several webhook paths (its starter and each webhook block): workflow_id is no longer unique. */
export const webhookPaths: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table webhooks drop constraint if exists webhooks_workflow_id_key`.execute(db);
    await db.schema.createIndex('webhooks_workflow').ifNotExists().on('webhooks').column('workflow_id').execute();
  },
};

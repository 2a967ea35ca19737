import type { Kysely, Migration } from 'kysely';

/** Workflows by the hash of their deployment API key: a key that reads runs names no workflow, so it is looked up by hash. */
export const apiKeyHashIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('workflows_api_key_hash').ifNotExists().on('workflows').column('api_key_hash').execute();
  },
};

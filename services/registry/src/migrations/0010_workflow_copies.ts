import type { Kysely, Migration } from 'kysely';

/**
 * The workflow a duplicate was made from (issue 14): the editor lets a copy keep its source's
 * starters only when the registry confirms the copy names its recorded source. Null for the rest.
 */
export const workflowCopies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('workflows').addColumn('copied_from', 'text').execute();
  },
};

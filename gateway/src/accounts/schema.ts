import { sql, type Generated, type Kysely, type Migration } from 'kysely';

/** The gateway's own tables in schema `auth`, beside better-auth's (user, session, account, verification). */
export interface AuthDB {
  user: { id: string; name: string; email: string };
  api_keys: {
    id: string;
    user_id: string;
    name: string;
    key_hash: string;
    prefix: string;
    created_at: Date;
    last_used_at: Date | null;
  };
  user_settings: { user_id: string; settings: unknown; updated_at: Generated<Date> };
}

/** Personal API keys (only a SHA-256 of each key is kept), and each user's settings. */
export const accountMigrations: Record<string, Migration> = {
  '0001_api_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('last_used_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
    },
  },
  // Each user's preferences that follow them across browsers (GET/PATCH /api/settings).
  '0002_user_settings': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user_settings')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('settings', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
};

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '@weft/platform';
import type { AuthDB } from './schema.js';

/** Personal API keys start with this, so a leaked one is recognisable (workflow keys start wf_). */
export const API_KEY_PREFIX = 'weft_';

function hash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Personal API keys of the accounts: create (the key is shown once), list, revoke, resolve. */
export function createApiKeys(db: Kysely<AuthDB>) {
  return {
    async create(userId: string, name: string): Promise<ApiKeyView & { key: string }> {
      const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await db
        .insertInto('api_keys')
        .values({ id: randomUUID(), user_id: userId, name: name.trim() || 'API key', key_hash: hash(key), prefix: key.slice(0, 12), created_at: new Date(), last_used_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { ...toView(row), key };
    },
    async list(userId: string): Promise<ApiKeyView[]> {
      const rows = await db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
      return rows.map(toView);
    },
    async revoke(userId: string, id: string): Promise<void> {
      const res = await db.deleteFrom('api_keys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw new AppError('not_found', `API key ${id} not found`);
    },
    /** The owner of a key, or undefined; stamps its last use. */
    async resolve(key: string): Promise<string | undefined> {
      if (!key.startsWith(API_KEY_PREFIX)) return undefined;
      const row = await db.updateTable('api_keys').set({ last_used_at: new Date() }).where('key_hash', '=', hash(key)).returning('user_id').executeTakeFirst();
      return row?.user_id;
    },
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;

function toView(row: { id: string; name: string; prefix: string; created_at: Date; last_used_at: Date | null }): ApiKeyView {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.created_at.toISOString(), lastUsedAt: row.last_used_at?.toISOString() ?? null };
}

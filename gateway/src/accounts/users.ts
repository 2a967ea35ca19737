import { sql, type Kysely } from 'kysely';
import type { AuthDB } from './schema.js';

export interface UserSummary {
  id: string;
  name: string;
  email: string;
}

/** Looks accounts up for member invitations and member lists. */
export function createUserDirectory(db: Kysely<AuthDB>) {
  return {
    async byEmail(email: string): Promise<UserSummary | undefined> {
      return db.selectFrom('user').select(['id', 'name', 'email']).where(sql<string>`lower(email)`, '=', email.trim().toLowerCase()).executeTakeFirst();
    },
    async byIds(ids: string[]): Promise<Map<string, UserSummary>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('user').select(['id', 'name', 'email']).where('id', 'in', ids).execute();
      return new Map(rows.map((u) => [u.id, u]));
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;

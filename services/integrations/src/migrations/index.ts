import type { Migration } from 'kysely';

/** The integrations service's own tables come with the tool issues (token refresh state, memories). */
export const migrations: Record<string, Migration> = {};

import type { Migration } from 'kysely';

/** The copilot's own tables (chats, checkpoints) come with the copilot issue. */
export const migrations: Record<string, Migration> = {};

import { sql, type Kysely, type Migration } from 'kysely';

/** The copilot's own tables: chats and their messages, checkpoints before each edit, proposed edits. */
export const migrations: Record<string, Migration> = {
  '0001_chats': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('chats')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('chats_workflow').on('chats').columns(['workflow_id', 'updated_at desc']).execute();
      await db.schema
        .createTable('messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('chat_id', 'text', (c) => c.notNull().references('chats.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('turn_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'assistant', 'tool')`))
        .addColumn('content', 'text', (c) => c.notNull())
        // Assistant: the tool calls asked for; tool: {toolCallId, name, state}.
        .addColumn('tool_calls', 'jsonb')
        .addColumn('tool', 'jsonb')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('messages_chat_position', ['chat_id', 'position'])
        .execute();
      await db.schema
        .createTable('checkpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('chat_id', 'text', (c) => c.notNull().references('chats.id').onDelete('cascade'))
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('turn_id', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        // The workflow's {blocks, edges} before the edit.
        .addColumn('state', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('checkpoints_chat').on('checkpoints').columns(['chat_id', 'created_at']).execute();
      await db.schema
        .createTable('proposals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('chat_id', 'text', (c) => c.notNull().references('chats.id').onDelete('cascade'))
        .addColumn('workflow_id', 'text', (c) => c.notNull())
        .addColumn('turn_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'accepted', 'rejected')`))
        .addColumn('yaml_content', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('diff', 'jsonb', (c) => c.notNull())
        .addColumn('checkpoint_id', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0002_message_status': {
    async up(db: Kysely<unknown>) {
      // The answer of a turn the user stopped is kept as far as it got, marked `stopped`.
      await db.schema
        .alterTable('messages')
        .addColumn('status', 'text', (c) => c.check(sql`status in ('stopped')`))
        .execute();
    },
  },
  '0003_message_error_status': {
    async up(db: Kysely<unknown>) {
      // A failed turn's stored `Error: …` answer is marked `error`, so a reopened chat shows it as the error it was.
      await db.schema.alterTable('messages').dropConstraint('messages_status_check').execute();
      await db.schema.alterTable('messages').addCheckConstraint('messages_status_check', sql`status in ('stopped', 'error')`).execute();
    },
  },
  '0004_checkpoint_version': {
    async up(db: Kysely<unknown>) {
      // The editor's version the checkpoint's state was read at: a revert names it, so the editor
      // takes back what the workflow held then even once it has left the undo history. Null on older rows.
      await db.schema.alterTable('checkpoints').addColumn('version', 'bigint').execute();
    },
  },
};

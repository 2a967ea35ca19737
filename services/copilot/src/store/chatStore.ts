import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { AppError } from '@weft/platform';
import type { CopilotDB } from '../db.js';
import type { ChatMessage, GraphState } from '../types.js';

/** Longest chat title kept (the first user message, cut). */
const TITLE_MAX = 80;

export interface ChatRow {
  id: string;
  workflowId: string;
  workspaceId: string;
  userId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

export interface CheckpointRow {
  id: string;
  chatId: string;
  workflowId: string;
  turnId: string;
  description: string | null;
  createdAt: string;
}

export interface ProposalRow {
  id: string;
  chatId: string;
  workflowId: string;
  turnId: string;
  status: 'pending' | 'accepted' | 'rejected';
  yamlContent: string;
  description: string | null;
  diff: unknown;
  checkpointId: string | null;
  createdAt: string;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

function chatRow(r: { id: string; workflow_id: string; workspace_id: string; user_id: string; title: string; created_at: Date | string; updated_at: Date | string }): ChatRow {
  return { id: r.id, workflowId: r.workflow_id, workspaceId: r.workspace_id, userId: r.user_id, title: r.title, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) };
}

/** Chats, messages, checkpoints and proposals in the copilot schema. */
export function createChatStore(db: Kysely<CopilotDB>) {
  async function getChat(chatId: string): Promise<ChatRow> {
    const row = await db.selectFrom('chats').selectAll().where('id', '=', chatId).executeTakeFirst();
    if (!row) throw new AppError('not_found', `Chat ${chatId} not found`);
    return chatRow(row);
  }

  return {
    getChat,

    /** The chat to continue (it must belong to the workflow and the user), or a new one titled by the message. */
    async openChat(input: { chatId?: string | undefined; workflowId: string; workspaceId: string; userId: string; firstMessage: string }): Promise<ChatRow> {
      if (input.chatId) {
        const chat = await getChat(input.chatId);
        if (chat.workflowId !== input.workflowId) throw new AppError('validation', 'chatId belongs to another workflow');
        if (chat.userId !== input.userId) throw new AppError('not_found', `Chat ${input.chatId} not found`);
        return chat;
      }
      const title = input.firstMessage.trim().slice(0, TITLE_MAX) || 'New chat';
      const row = await db
        .insertInto('chats')
        .values({ id: randomUUID(), workflow_id: input.workflowId, workspace_id: input.workspaceId, user_id: input.userId, title })
        .returningAll()
        .executeTakeFirstOrThrow();
      return chatRow(row);
    },

    async listChats(workflowId: string, userId: string): Promise<ChatRow[]> {
      const rows = await db.selectFrom('chats').selectAll().where('workflow_id', '=', workflowId).where('user_id', '=', userId).orderBy('updated_at', 'desc').execute();
      return rows.map(chatRow);
    },

    /** The conversation so far, oldest first, as the model sees it. */
    async messages(chatId: string): Promise<Array<ChatMessage & { id: string; turnId: string; createdAt: string }>> {
      const rows = await db.selectFrom('messages').selectAll().where('chat_id', '=', chatId).orderBy('position').execute();
      return rows.map((r) => ({
        id: r.id,
        turnId: r.turn_id,
        role: r.role,
        content: r.content,
        createdAt: iso(r.created_at),
        ...(r.tool_calls ? { toolCalls: r.tool_calls as ChatMessage['toolCalls'] } : {}),
        ...(r.tool ? { tool: r.tool as ChatMessage['tool'] } : {}),
        ...(r.status ? { status: r.status } : {}),
      }));
    },

    /** Appends messages of a turn after the chat's last one; a turn's messages are written once (retried activities). */
    async appendMessages(chatId: string, turnId: string, messages: ChatMessage[], key: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await sql`select id from chats where id = ${chatId} for update`.execute(trx);
        const done = await trx.selectFrom('messages').select('id').where('id', '=', `${key}:0`).executeTakeFirst();
        if (done || messages.length === 0) return;
        const last = await trx.selectFrom('messages').select((eb) => eb.fn.max('position').as('max')).where('chat_id', '=', chatId).executeTakeFirst();
        const start = (last?.max ?? -1) + 1;
        await trx
          .insertInto('messages')
          .values(
            messages.map((m, i) => ({
              id: `${key}:${i}`,
              chat_id: chatId,
              position: start + i,
              turn_id: turnId,
              role: m.role,
              content: m.content,
              tool_calls: m.toolCalls ? JSON.stringify(m.toolCalls) : null,
              tool: m.tool ? JSON.stringify(m.tool) : null,
              status: m.status ?? null,
            })),
          )
          .execute();
        await trx.updateTable('chats').set({ updated_at: new Date() }).where('id', '=', chatId).execute();
      });
    },

    /** Whether the turn is one of the chat's (its user message is stored before the turn starts). */
    async hasTurn(chatId: string, turnId: string): Promise<boolean> {
      const row = await db.selectFrom('messages').select('id').where('chat_id', '=', chatId).where('turn_id', '=', turnId).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Keeps the state before an edit (read at the editor's `version`). A checkpoint already stored is
     * kept (a retried activity reads the state after its own edit) unless `replace` says the edit it
     * was kept for did not land (refused for someone else's edit in between, and tried again).
     */
    async saveCheckpoint(input: { id: string; chatId: string; workflowId: string; turnId: string; description?: string | undefined; state: GraphState; version: number; replace?: boolean }): Promise<void> {
      const state = JSON.stringify(input.state);
      await db
        .insertInto('checkpoints')
        .values({ id: input.id, chat_id: input.chatId, workflow_id: input.workflowId, turn_id: input.turnId, description: input.description ?? null, state, version: input.version })
        .onConflict((oc) => (input.replace === true ? oc.column('id').doUpdateSet({ state, version: input.version }) : oc.column('id').doNothing()))
        .execute();
    },

    /** Drops a checkpoint whose edit did not land (nothing to revert to). */
    async dropCheckpoint(id: string): Promise<void> {
      await db.deleteFrom('checkpoints').where('id', '=', id).execute();
    },

    /** A checkpoint with its state and the editor's version it was read at (null when stored before versions were kept). */
    async checkpoint(id: string): Promise<CheckpointRow & { state: GraphState; version: number | null }> {
      const r = await db.selectFrom('checkpoints').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) throw new AppError('not_found', `Checkpoint ${id} not found`);
      const version = r.version === null ? null : Number(r.version);
      return { id: r.id, chatId: r.chat_id, workflowId: r.workflow_id, turnId: r.turn_id, description: r.description, createdAt: iso(r.created_at), state: r.state as GraphState, version };
    },

    async checkpoints(chatId: string): Promise<CheckpointRow[]> {
      const rows = await db.selectFrom('checkpoints').select(['id', 'chat_id', 'workflow_id', 'turn_id', 'description', 'created_at']).where('chat_id', '=', chatId).orderBy('created_at').execute();
      return rows.map((r) => ({ id: r.id, chatId: r.chat_id, workflowId: r.workflow_id, turnId: r.turn_id, description: r.description, createdAt: iso(r.created_at) }));
    },

    async saveProposal(input: { id: string; chatId: string; workflowId: string; turnId: string; yamlContent: string; description?: string | undefined; diff: unknown }): Promise<void> {
      await db
        .insertInto('proposals')
        .values({
          id: input.id,
          chat_id: input.chatId,
          workflow_id: input.workflowId,
          turn_id: input.turnId,
          status: 'pending',
          yaml_content: input.yamlContent,
          description: input.description ?? null,
          diff: JSON.stringify(input.diff),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },

    async proposal(id: string): Promise<ProposalRow> {
      const r = await db.selectFrom('proposals').selectAll().where('id', '=', id).executeTakeFirst();
      if (!r) throw new AppError('not_found', `Proposal ${id} not found`);
      return proposalRow(r);
    },

    async proposals(chatId: string): Promise<ProposalRow[]> {
      const rows = await db.selectFrom('proposals').selectAll().where('chat_id', '=', chatId).orderBy('created_at').execute();
      return rows.map(proposalRow);
    },

    /** Settles a pending proposal; false when it was settled already. */
    async settleProposal(id: string, status: 'accepted' | 'rejected', checkpointId?: string): Promise<boolean> {
      const out = await db
        .updateTable('proposals')
        .set({ status, checkpoint_id: checkpointId ?? null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(out.numUpdatedRows) === 1;
    },
  };
}

function proposalRow(r: CopilotDB['proposals'] extends infer T ? { [K in keyof T]: unknown } : never): ProposalRow {
  return {
    id: String(r.id),
    chatId: String(r.chat_id),
    workflowId: String(r.workflow_id),
    turnId: String(r.turn_id),
    status: r.status as ProposalRow['status'],
    yamlContent: String(r.yaml_content),
    description: (r.description as string | null) ?? null,
    diff: r.diff,
    checkpointId: (r.checkpoint_id as string | null) ?? null,
    createdAt: iso(r.created_at as Date),
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;

import type { ColumnType } from 'kysely';

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** Tables of the copilot schema. */
export interface CopilotDB {
  chats: { id: string; workflow_id: string; workspace_id: string; user_id: string; title: string; created_at: Stamp; updated_at: Stamp };
  messages: {
    id: string;
    chat_id: string;
    position: number;
    turn_id: string;
    role: 'user' | 'assistant' | 'tool';
    content: string;
    tool_calls: Json<unknown> | null;
    tool: Json<unknown> | null;
    /** `stopped` on the answer of a turn the user stopped, `error` on a failed turn's error; null otherwise. */
    status: ColumnType<'stopped' | 'error' | null, 'stopped' | 'error' | null | undefined, 'stopped' | 'error' | null>;
    created_at: Stamp;
  };
  checkpoints: {
    id: string;
    chat_id: string;
    workflow_id: string;
    turn_id: string;
    description: string | null;
    state: Json<unknown>;
    /** The editor's version `state` was read at; null on checkpoints stored before it was kept. */
    version: ColumnType<string | null, number | null | undefined, number | null>;
    created_at: Stamp;
  };
  proposals: {
    id: string;
    chat_id: string;
    workflow_id: string;
    turn_id: string;
    status: 'pending' | 'accepted' | 'rejected';
    yaml_content: string;
    description: string | null;
    diff: Json<unknown>;
    checkpoint_id: string | null;
    created_at: Stamp;
  };
}

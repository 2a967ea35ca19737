/**
 * The copilot's live events besides the model's tokens (which come on `runChunksSubject` of the turn id):
 * tool calls finishing and the turn's end, published on core NATS while a chat turn runs.
 */
import type { ToolCallState } from './modelActivities.js';

/** Core NATS subject of one copilot turn's own events (payload: JSON `CopilotTurnEvent`). */
export function copilotTurnSubject(instance: string, turnId: string): string {
  return `${instance}.copilot.turns.${turnId}`;
}

/** The copilot's Temporal task queue (its turn workflows and its tools as activities). */
export function copilotTaskQueue(instance: string): string {
  return `${instance}-copilot`;
}

/** A tool call's state change with what it answered, or a diff proposed to the user. */
export type CopilotTurnEvent =
  | { type: 'tool_call'; id: string; name: string; state: ToolCallState; result?: unknown; error?: string }
  | { type: 'checkpoint'; checkpointId: string; version: number }
  | { type: 'proposal'; proposalId: string; diff: unknown };

/** A turn's outcome as the chat stream's last event carries it (`done`, or `cancelled` when the user stopped it). */
export interface CopilotTurnOutcome {
  chatId: string;
  content: string;
  toolCalls: Array<{ id: string; name: string; state: 'completed' | 'error'; error?: string }>;
  checkpointIds: string[];
  proposalIds: string[];
  error?: string;
}

/**
 * The chat stream's events (`POST /api/copilot/chat`, Server-Sent Events `data: {type, …}`): the turn's
 * start, the model's text, tool call states, edits, then exactly one of `done`, `cancelled` (the user
 * stopped the turn: `content` is the answer as far as it got) or `error`.
 */
export type CopilotStreamEvent =
  | { type: 'start'; chatId: string; turnId: string; provider: string; model: string }
  | { type: 'content'; data: string }
  | { type: 'tool_call'; toolCallId: string; toolName: string; state: ToolCallState; result?: unknown; error?: string }
  | { type: 'checkpoint'; checkpointId: string; version: number }
  | { type: 'proposal'; proposalId: string; diff: unknown }
  | ({ type: 'done' } & CopilotTurnOutcome)
  | ({ type: 'cancelled'; turnId: string } & CopilotTurnOutcome)
  | { type: 'error'; error: string };

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

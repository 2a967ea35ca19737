import type { CopilotTurnOutcome, ModelProviderId, ModelToolCall } from '@weft/contracts';

/** A workflow's graph as a checkpoint keeps it. */
export interface GraphState {
  blocks: Record<string, unknown>;
  edges: unknown[];
}

/** One stored chat message. */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ModelToolCall[];
  tool?: { toolCallId: string; name: string; state: 'completed' | 'error' };
  /** `stopped`: the answer of a turn the user stopped, as far as it got; `error`: a failed turn's `Error: <message>`. */
  status?: 'stopped' | 'error';
}

/** What a chat turn workflow is started with. */
export interface TurnArgs {
  turnId: string;
  chatId: string;
  workflowId: string;
  workspaceId: string;
  actorId: string;
  message: string;
  provider?: ModelProviderId;
  model?: string;
  /** Propose edits as a diff instead of applying them. */
  propose: boolean;
}

/** Everything the loop needs from outside, settled once per turn. */
export interface TurnSetup {
  model: string;
  provider: ModelProviderId;
  apiKey?: string;
  systemPrompt: string;
}

/** What a copilot tool answered (spec 000 §7: success, data, error). */
export interface ToolOutcome {
  success: boolean;
  data?: unknown;
  error?: string;
  /** How to call the tool right, for the model, kept apart from `error` (whose words are the spec's). */
  hint?: string;
  checkpointId?: string;
  proposalId?: string;
}

/** How a turn ended (the chat stream's last event carries it); `stopped` when the user stopped it, `content` then the answer as far as it got. */
export type TurnResult = CopilotTurnOutcome & { stopped?: true };

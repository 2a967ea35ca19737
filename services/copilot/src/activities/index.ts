import type { CopilotTurnEvent, ModelMessage, ModelProviderId, ModelToolCall, ModelToolDefinition } from '@weft/contracts';
import { copilotTurnSubject } from '@weft/contracts';
import type { ChatStore } from '../store/chatStore.js';
import type { Ports } from '../ports.js';
import { buildSystemPrompt } from '../prompt.js';
import { COPILOT_TOOLS } from '../tools.js';
import { runCopilotTool, type ToolCallScope } from '../toolRunner.js';
import type { ChatMessage, ToolOutcome, TurnArgs, TurnSetup } from '../types.js';
import { resolveModel, type OperatorDefaults } from '../modelChoice.js';

/** What the copilot's activities need. */
export interface CopilotActivityDeps {
  ports: Ports;
  store: ChatStore;
  instance: string;
  /** Publishes one turn event on core NATS (absent in tests that do not listen). */
  publish?: (subject: string, event: CopilotTurnEvent) => void;
  operator: OperatorDefaults;
}

/** The model's view of stored messages (tool results keep their call's id and name). */
function toModelMessage(m: ChatMessage): ModelMessage {
  if (m.role === 'tool' && m.tool) return { role: 'tool', toolCallId: m.tool.toolCallId, name: m.tool.name, content: m.content };
  if (m.role === 'assistant') return { role: 'assistant', content: m.content, ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}) };
  return { role: 'user', content: m.content };
}

/** The copilot's activities on its own task queue: settle a turn, run a tool, store the turn. */
export function createCopilotActivities(deps: CopilotActivityDeps) {
  const publish = (turnId: string, event: CopilotTurnEvent) => deps.publish?.(copilotTurnSubject(deps.instance, turnId), event);
  return {
    async prepareTurn(args: TurnArgs): Promise<{ setup: TurnSetup; history: ModelMessage[]; tools: ModelToolDefinition[] }> {
      const env = await deps.ports.registry.environment(args.actorId);
      const choice = resolveModel({ provider: args.provider, model: args.model }, env, deps.operator);
      const setup: TurnSetup = { ...choice, systemPrompt: buildSystemPrompt() };
      // A turn stopped before the model wrote anything leaves an empty answer: nothing for the model to read.
      const stored = (await deps.store.messages(args.chatId)).filter((m) => !(m.status === 'stopped' && m.content === '' && !m.toolCalls?.length));
      const history = stored.map(toModelMessage);
      return { setup, history, tools: COPILOT_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) };
    },

    async runTool(scope: ToolCallScope, call: ModelToolCall): Promise<ToolOutcome> {
      const outcome = await runCopilotTool(deps, scope, call);
      if (outcome.checkpointId) {
        const version = (outcome.data as { version?: number } | undefined)?.version ?? 0;
        publish(scope.turnId, { type: 'checkpoint', checkpointId: outcome.checkpointId, version });
      }
      if (outcome.proposalId) publish(scope.turnId, { type: 'proposal', proposalId: outcome.proposalId, diff: (outcome.data as { diff?: unknown }).diff });
      publish(scope.turnId, {
        type: 'tool_call',
        id: call.id,
        name: call.name,
        state: outcome.success ? 'completed' : 'error',
        ...(outcome.success ? { result: outcome.data } : { error: outcome.error }),
      });
      return outcome;
    },

    async finishTurn(input: { chatId: string; turnId: string; messages: ChatMessage[]; error?: string }): Promise<void> {
      const messages = input.error ? [...input.messages, { role: 'assistant' as const, content: `Error: ${input.error}`, status: 'error' as const }] : input.messages;
      await deps.store.appendMessages(input.chatId, input.turnId, messages, `${input.turnId}:a`);
    },
  };
}

export type CopilotActivities = ReturnType<typeof createCopilotActivities>;
export type { ModelProviderId };

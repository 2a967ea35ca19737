import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { ModelActivities, ModelMessage, ModelToolDefinition } from '@weft/contracts';
import type { CopilotActivities } from '../activities/index.js';
import type { ChatMessage, TurnArgs, TurnResult } from '../types.js';

/** Model rounds in one turn; after the last, the turn ends with what the model said so far. */
export const COPILOT_MAX_ITERATIONS = 10;

/** Where the turn's activities run: the copilot's tools on its own queue, model calls on the integrations queue. */
export interface TurnQueues {
  copilot: string;
  integrations: string;
}

function failureMessage(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return String(cause);
}

/** One chat turn: the model answers, calls the copilot's tools, reads their results, until it answers without tools. */
export async function copilotTurn(args: TurnArgs, queues: TurnQueues): Promise<TurnResult> {
  const copilot = proxyActivities<CopilotActivities>({
    taskQueue: queues.copilot,
    startToCloseTimeout: '2 minutes',
    retry: { maximumAttempts: 3 },
  });
  const models = proxyActivities<Pick<ModelActivities, 'callModel'>>({
    taskQueue: queues.integrations,
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: '30 seconds',
    retry: { maximumAttempts: 3 },
  });
  const { setup, history, tools } = await copilot.prepareTurn(args);
  const messages: ModelMessage[] = [...history];
  const added: ChatMessage[] = [];
  const result: TurnResult = { chatId: args.chatId, content: '', toolCalls: [], checkpointIds: [], proposalIds: [] };
  const toolDefs: ModelToolDefinition[] = tools;
  let seq = 0;
  try {
    for (let round = 0; round < COPILOT_MAX_ITERATIONS; round++) {
      const out = await models.callModel({
        model: setup.model,
        provider: setup.provider,
        systemPrompt: setup.systemPrompt,
        messages,
        tools: toolDefs,
        toolChoice: 'auto',
        ...(setup.apiKey ? { apiKey: setup.apiKey } : {}),
        stream: { executionId: args.turnId, blockId: 'copilot', seqStart: seq },
        context: { workspaceId: args.workspaceId, workflowId: args.workflowId, requestId: args.turnId, actorId: args.actorId },
      });
      seq += out.chunks;
      if (out.content) result.content = result.content ? `${result.content}\n\n${out.content}` : out.content;
      messages.push({ role: 'assistant', content: out.content, ...(out.toolCalls.length ? { toolCalls: out.toolCalls } : {}) });
      added.push({ role: 'assistant', content: out.content, ...(out.toolCalls.length ? { toolCalls: out.toolCalls } : {}) });
      if (out.toolCalls.length === 0) break;
      for (const call of out.toolCalls) {
        const outcome = await copilot.runTool({ turnId: args.turnId, chatId: args.chatId, workflowId: args.workflowId, actorId: args.actorId, propose: args.propose }, call);
        const state = outcome.success ? 'completed' : 'error';
        const content = JSON.stringify(outcome.success ? { success: true, data: outcome.data } : { success: false, error: outcome.error });
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
        added.push({ role: 'tool', content, tool: { toolCallId: call.id, name: call.name, state } });
        result.toolCalls.push({ id: call.id, name: call.name, state, ...(outcome.error ? { error: outcome.error } : {}) });
        if (outcome.checkpointId) result.checkpointIds.push(outcome.checkpointId);
        if (outcome.proposalId) result.proposalIds.push(outcome.proposalId);
      }
    }
  } catch (err) {
    result.error = failureMessage(err);
  }
  await copilot.finishTurn({ chatId: args.chatId, turnId: args.turnId, messages: added, ...(result.error ? { error: result.error } : {}) });
  return result;
}

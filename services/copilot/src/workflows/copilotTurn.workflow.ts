import { ActivityCancellationType, ActivityFailure, ApplicationFailure, CancellationScope, CancelledFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ModelActivities, ModelCancelledDetails, ModelMessage, ModelToolDefinition } from '@weft/contracts';
import type { CopilotActivities } from '../activities/index.js';
import type { ChatMessage, TurnArgs, TurnResult } from '../types.js';
import { toolResultContent } from '../toolContent.js';

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

/** What a tool call the user's stop left unrun answers the model (every call asked for needs a result in the history). */
export const TOOL_NOT_RUN = 'The user stopped the turn before this tool ran';

/** The text a model call had streamed when the turn's cancellation stopped it (the model layer's `ModelCancelledDetails`). */
function streamedBeforeStop(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof CancelledFailure)) return '';
  const details = cause.details[0] as Partial<ModelCancelledDetails> | undefined;
  return typeof details?.text === 'string' ? details.text : '';
}

/**
 * One chat turn: the model answers, calls the copilot's tools, reads their results, until it answers
 * without tools. Cancelling the workflow stops the turn: the model call in flight is aborted (and waited
 * for, to keep what it streamed), a tool call already running finishes (an edit lands whole or not at
 * all), the rest are not run, and the turn is stored with its partial answer marked `stopped`.
 */
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
    // The call learns of a stop through its heartbeat and answers with the text it streamed.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  // The copilot's own activities are short and are never cut off halfway: a stop takes effect between them.
  const whole = <T>(fn: () => Promise<T>) => CancellationScope.nonCancellable(fn);
  const stopRequested = () => CancellationScope.current().consideredCancelled;
  const { setup, history, tools } = await whole(() => copilot.prepareTurn(args));
  const messages: ModelMessage[] = [...history];
  const added: ChatMessage[] = [];
  const result: TurnResult = { chatId: args.chatId, content: '', toolCalls: [], checkpointIds: [], proposalIds: [] };
  const toolDefs: ModelToolDefinition[] = tools;
  let seq = 0;
  const markStopped = (partial: string) => {
    if (partial) result.content = result.content ? `${result.content}\n\n${partial}` : partial;
    added.push({ role: 'assistant', content: partial, status: 'stopped' });
    result.stopped = true;
  };
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
      // Stopped while it streamed: a provider's stream cut short answers with the text so far. Its tool calls are not run.
      if (stopRequested()) {
        markStopped(out.content);
        break;
      }
      if (out.content) result.content = result.content ? `${result.content}\n\n${out.content}` : out.content;
      messages.push({ role: 'assistant', content: out.content, ...(out.toolCalls.length ? { toolCalls: out.toolCalls } : {}) });
      added.push({ role: 'assistant', content: out.content, ...(out.toolCalls.length ? { toolCalls: out.toolCalls } : {}) });
      if (out.toolCalls.length === 0) break;
      for (const call of out.toolCalls) {
        if (stopRequested()) {
          const content = JSON.stringify({ success: false, error: TOOL_NOT_RUN });
          messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
          added.push({ role: 'tool', content, tool: { toolCallId: call.id, name: call.name, state: 'error' } });
          result.toolCalls.push({ id: call.id, name: call.name, state: 'error', error: TOOL_NOT_RUN });
          continue;
        }
        const outcome = await whole(() =>
          copilot.runTool({ turnId: args.turnId, chatId: args.chatId, workflowId: args.workflowId, actorId: args.actorId, propose: args.propose }, call),
        );
        const state = outcome.success ? 'completed' : 'error';
        const content = toolResultContent(outcome);
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content });
        added.push({ role: 'tool', content, tool: { toolCallId: call.id, name: call.name, state } });
        result.toolCalls.push({ id: call.id, name: call.name, state, ...(outcome.error ? { error: outcome.error } : {}) });
        if (outcome.checkpointId) result.checkpointIds.push(outcome.checkpointId);
        if (outcome.proposalId) result.proposalIds.push(outcome.proposalId);
      }
    }
  } catch (err) {
    if (isCancellation(err)) markStopped(streamedBeforeStop(err));
    else result.error = failureMessage(err);
  }
  // A stop during the last round's tools ends the loop with no model call left to refuse it, whether it
  // skipped the calls after the running one or came during the last. A failed turn stays failed. This
  // only changes what `finishTurn` is given, never which commands run, so open turns still replay.
  if (stopRequested() && !result.stopped && !result.error) markStopped('');
  await whole(() => copilot.finishTurn({ chatId: args.chatId, turnId: args.turnId, messages: added, ...(result.error ? { error: result.error } : {}) }));
  return result;
}

import { ApplicationFailure, executeChild, isCancellation, log, patched, uuid4, workflowInfo } from '@temporalio/workflow';
import { validateBlockParams } from '@weft/catalog';
import type { ModelMessage } from '@weft/contracts';
import { callContext } from './activities.js';
import type { AttemptRecord, BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { AgentToolError, agentTools } from './agentTools.js';
import { blockCost, blockTokens, failed, fromError } from './outcome.js';
import { memoryMessages, num, parseObject, responseFormatOf, text } from './params.js';
import { modelToolLoop, type ModelToolLoopArgs } from './toolLoop.workflow.js';

/**
 * The tool loop child runs on the integrations worker (model calls as its local activities, tools on
 * its queue); runs recorded before take the runner's queue on replay.
 */
export const LOOP_ON_INTEGRATIONS_PATCH = 'agent-tool-loop-on-integrations-queue';

/**
 * Patch: an agent whose parameters its validation refuses (Max Tokens not a positive whole number)
 * fails with that message word for word, as a tool block does (`validateBlockParams`). Runs recorded
 * before called the model anyway (the value dropped or sent as given); asked only when the check fails.
 */
export const AGENT_PARAMS_CHECKED_PATCH = 'agent-params-checked';

/** Agent temperature default (§2) and the model used when none is chosen (catalogue default). */
export const AGENT_DEFAULT_TEMPERATURE = 0.7;
export const DEFAULT_MODEL = 'gpt-4o';

/** The loop's input from the agent's form: prompts, memories, tools, response format. */
export function agentLoopArgs(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): ModelToolLoopArgs | string {
  const model = text(params.model) || DEFAULT_MODEL;
  let tools;
  try {
    tools = agentTools(params.tools);
  } catch (err) {
    if (err instanceof AgentToolError) return err.message;
    throw err;
  }
  const format = responseFormatOf(params.responseFormat);
  if (!format.ok) return format.error;
  const userPrompt = text(params.userPrompt);
  const messages: ModelMessage[] = [...memoryMessages(params.memories), ...(userPrompt ? [{ role: 'user' as const, content: userPrompt }] : [])];
  const systemPrompt = text(params.systemPrompt);
  const maxTokens = num(params.maxTokens);
  return {
    request: {
      model,
      ...(systemPrompt ? { systemPrompt } : {}),
      temperature: num(params.temperature) ?? AGENT_DEFAULT_TEMPERATURE,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(format.value ? { responseFormat: format.value } : {}),
      ...(text(params.apiKey) ? { apiKey: text(params.apiKey) } : {}),
      ...(text(params.azureEndpoint) ? { azureEndpoint: text(params.azureEndpoint) } : {}),
      ...(text(params.azureApiVersion) ? { azureApiVersion: text(params.azureApiVersion) } : {}),
      context: callContext(block, ctx),
    },
    messages,
    tools,
    ...(ctx.stream ? { stream: { executionId: ctx.executionId, blockId: block.id } } : {}),
    toolContext: {
      workspaceId: ctx.workspaceId,
      workflowId: ctx.workflowId,
      executionId: ctx.executionId,
      blockId: block.id,
      requestId: ctx.requestId,
      ...(ctx.actorId ? { actorId: ctx.actorId } : {}),
    },
    envVars: ctx.envVars,
    integrationsTaskQueue: ctx.integrationsTaskQueue,
    maxAttempts: ctx.maxAttempts,
    ...(ctx.retryInitialMs !== undefined ? { retryInitialIntervalMs: ctx.retryInitialMs } : {}),
  };
}

/**
 * The tries of the agent's calls, as the integrations worker's loop reports them (model calls in loops
 * since its `tool-loop-model-tries` patch, tool calls since `tool-loop-tool-tries`) in its result or its
 * failure's details: the most tries one call took, and each try of the calls tried more than once (with
 * the model call's number, or the tool's name and the tool call's number).
 */
export function loopTries(from: unknown): Pick<BlockOutcome, 'attempts' | 'attemptLog'> {
  if (typeof from !== 'object' || from === null) return {};
  const { attempts, attemptLog } = from as { attempts?: unknown; attemptLog?: unknown };
  if (typeof attempts !== 'number') return {};
  return { attempts, ...(Array.isArray(attemptLog) && attemptLog.length > 0 ? { attemptLog: attemptLog as AttemptRecord[] } : {}) };
}

/** The loop's failure details (its `{timing}`, and its tries), wherever the failure sits in the cause chain. */
function failureTries(err: unknown): Pick<BlockOutcome, 'attempts' | 'attemptLog'> {
  let current: unknown = err;
  while (current instanceof Error) {
    if (current instanceof ApplicationFailure) return loopTries(current.details?.[0]);
    current = current.cause;
  }
  return {};
}

/**
 * Agent: the tool loop as a child workflow (`modelToolLoop` of the integrations worker). Output `content, model, tokens, toolCalls, cost`; with a
 * response format, the parsed answer's fields instead of `content` (a non-JSON answer keeps `content`).
 */
export async function runAgent(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  // Checked resolved, as validate and deploy check it written (a reference is only known now).
  const checked = validateBlockParams(block.type, params);
  if (!checked.success && patched(AGENT_PARAMS_CHECKED_PATCH)) return failed(checked.error);
  const args = agentLoopArgs(block, params, ctx);
  if (typeof args === 'string') return failed(args);
  let result;
  try {
    result = await executeChild(modelToolLoop, {
      workflowId: `${workflowInfo().workflowId}-agent-${block.id}-${uuid4().slice(0, 8)}`,
      // Runs recorded before the loop moved keep it on the runner's own queue (and its one-activity-per-call loop).
      taskQueue: patched(LOOP_ON_INTEGRATIONS_PATCH) ? ctx.integrationsTaskQueue : workflowInfo().taskQueue,
      args: [args],
    });
  } catch (err) {
    if (isCancellation(err)) throw err;
    return { ...fromError(err), ...failureTries(err) };
  }
  const tokens = blockTokens(result.tokens);
  const cost = blockCost(result.cost);
  // An answer cut off at the max tokens limit stays the answer; its warning shows in the block's logged output.
  const meta = { model: result.model, tokens, toolCalls: result.toolCalls, cost, ...(result.warning ? { warning: result.warning } : {}) };
  let output: Record<string, unknown> = { content: result.content, ...meta };
  if (args.request.responseFormat) {
    const parsed = parseObject(result.content);
    if (parsed) output = { ...parsed, ...meta };
    else log.warn('Agent response is not the JSON its response format asks for; content kept as text', { blockId: block.id });
  }
  return { success: true, output, tokens, cost, ...loopTries(result) };
}

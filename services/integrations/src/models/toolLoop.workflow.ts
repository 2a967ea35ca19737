import { ApplicationFailure, patched, proxyActivities, proxyLocalActivities, proxySinks, uuid4 } from '@temporalio/workflow';
import { AttemptsExhausted, ModelLoopError, RETRY_INITIAL_MS, runToolLoop, type CallTry, type LoopToolCall, type ToolLoopInput, type ToolLoopResult } from '@weft/catalog';
import { tryInWorkflow } from '@weft/catalog/workflowTries';
import type { CallModelInput, CallModelOutput, ExecuteToolInput, IntegrationActivities, ModelActivities, RunStreamChunk, ToolResult } from '@weft/contracts';
import type { ModelStreamSinks } from './streamSinks.js';

/** Start-to-close of one model call (a long streamed answer included). */
export const LOOP_MODEL_CALL_TIMEOUT = '5 minutes';
/** Start-to-close of one tool call (long-polling tools run up to 300 s). */
export const LOOP_TOOL_CALL_TIMEOUT = '10 minutes';
/** Silence after which a tool call counts as lost with its worker (the worker heartbeats while a tool runs). */
export const LOOP_TOOL_HEARTBEAT_TIMEOUT = '15 seconds';

/** Argument of the loop: the runner's agent block sends it (the runner's task queue field is ignored here). */
export interface ModelToolLoopArgs extends ToolLoopInput {
  /** Tries for transient failures of each call (network, 429, 5xx); user errors and 4xx are never retried. */
  maxAttempts: number;
  /** Backoff before a model call's second try (doubled for each later one); 1 s by default. */
  retryInitialIntervalMs?: number;
}

/**
 * Loops recorded since this patch try each model call from the workflow (one local activity per try,
 * backoff on a workflow timer) so the agent's log shows the tries; loops recorded before keep the
 * local activity's own retries on replay.
 */
export const LOOP_MODEL_TRIES_PATCH = 'tool-loop-model-tries';

/**
 * Loops recorded since this patch try each tool call from the workflow too (one activity per try,
 * Temporal's own retries off, backoff on a workflow timer): the block's tries, transient failures only,
 * each try in the agent's log; loops recorded before keep the activity's own retries on replay.
 */
export const LOOP_TOOL_TRIES_PATCH = 'tool-loop-tool-tries';

/** Which call a try belongs to: a model call by its number, or a tool call by the tool's name and its place in `toolCalls` (each 1 the first). */
export type LoopCallRef = { call: number } | { tool: string; toolCall: number };

/** A try of one of the loop's calls that was tried more than once, with the call it belongs to. */
export type LoopCallTry = CallTry & LoopCallRef;

/** What the loop answers: the loop's result and, when a call was tried again, its tries. */
export type ModelToolLoopResult = ToolLoopResult & { attempts?: number; attemptLog?: LoopCallTry[] };

/**
 * The loop's calls tried by the workflow: `tried(ref, call)` runs `call` for each try; `log()` answers
 * the most tries one call took and the tries of each call tried more than once.
 */
function loopTries(maxAttempts: number, initialMs: number) {
  const retried: LoopCallTry[] = [];
  let most = 0;
  const keep = (ref: LoopCallRef, attempts: number, tries: CallTry[]) => {
    most = Math.max(most, attempts);
    if (tries.length > 1) retried.push(...tries.map((t) => ({ ...t, ...ref })));
  };
  return {
    async tried<T>(ref: LoopCallRef, call: (attempt: number) => Promise<T>): Promise<T> {
      try {
        const done = await tryInWorkflow(maxAttempts, initialMs, call);
        keep(ref, done.attempts, done.tries);
        return done.value;
      } catch (err) {
        if (err instanceof AttemptsExhausted) keep(ref, err.attempts, err.tries);
        throw err;
      }
    },
    log(): { attempts?: number; attemptLog?: LoopCallTry[] } {
      if (most === 0) return {};
      return { attempts: most, ...(retried.length > 0 ? { attemptLog: retried } : {}) };
    },
  };
}

/**
 * An agent's tool loop (001 §4) as a child workflow of the run, on the integrations task queue, where
 * the model calls and the tools live:
 * - each model call is a local activity of this worker: no task dispatch and no workflow task of its
 *   own; its result is recorded in history when the workflow task completes, which is at once, as the
 *   next step is a tool call (or the loop's end), so a model call whose result is in history is never
 *   made again (one in flight, or just answered, when its worker dies is made again by the next worker);
 * - each tool call is an activity on this same queue: Temporal hands it back to this worker in the
 *   workflow task's answer when eager activity execution is on (`system.enableActivityEagerExecution`),
 *   otherwise through the queue, and a worker lost mid-call times out after the heartbeat timeout and
 *   is tried again.
 * So an iteration costs one activity and one workflow task. Each call is tried up to `maxAttempts`
 * times for transient failures (network, timeout, 429, 5xx, a lost worker) from the workflow; a tool's
 * answered failure is a value and goes back to the model untouched (000 §8). A streamed model call's
 * tries share a `callId` and carry their number, so a try goes on from what the earlier one streamed.
 * A provider error fails the child with the message and `{timing}` (and the tries) as its details.
 */
export async function modelToolLoop(args: ModelToolLoopArgs): Promise<ModelToolLoopResult> {
  const retry = { maximumAttempts: Math.max(1, args.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 };
  const modelTries = patched(LOOP_MODEL_TRIES_PATCH);
  const toolTries = patched(LOOP_TOOL_TRIES_PATCH);
  const models = proxyLocalActivities<Pick<ModelActivities, 'callModel'>>({ startToCloseTimeout: LOOP_MODEL_CALL_TIMEOUT, retry: modelTries ? { maximumAttempts: 1 } : retry });
  const tools = proxyActivities<Pick<IntegrationActivities, 'executeTool'>>({
    startToCloseTimeout: LOOP_TOOL_CALL_TIMEOUT,
    heartbeatTimeout: LOOP_TOOL_HEARTBEAT_TIMEOUT,
    retry: toolTries ? { maximumAttempts: 1 } : retry,
  });
  const tries = loopTries(args.maxAttempts, args.retryInitialIntervalMs ?? RETRY_INITIAL_MS);
  let modelCalls = 0;
  const callModel = (input: CallModelInput): Promise<CallModelOutput> => {
    if (!modelTries) return models.callModel(input);
    const call = ++modelCalls;
    const callId = input.stream ? uuid4() : undefined;
    return tries.tried({ call }, (attempt) => models.callModel(input.stream ? { ...input, stream: { ...input.stream, callId, attempt } } : input));
  };
  // Each try names its call (its number in the loop), so the tries of a polling tool share one job.
  const executeTool = (input: ExecuteToolInput, call: LoopToolCall): Promise<ToolResult> =>
    toolTries ? tries.tried({ tool: call.name, toolCall: call.number }, () => tools.executeTool({ ...input, call: call.number })) : tools.executeTool(input);
  // Each tool call's state goes out as it starts and ends (a sink: no command, nothing sent again on replay).
  const { modelStream } = proxySinks<ModelStreamSinks>();
  const stream = args.stream;
  const toolState = (seq: number, toolCall: NonNullable<RunStreamChunk['toolCall']>) => {
    if (stream) modelStream.chunk({ executionId: stream.executionId, blockId: stream.blockId, seq, chunk: '', toolCall });
  };
  try {
    const result = await runToolLoop(args, { callModel, executeTool, now: () => Date.now(), toolState });
    return { ...result, ...tries.log() };
  } catch (err) {
    if (err instanceof ModelLoopError) throw ApplicationFailure.create({ message: err.message, type: 'ModelLoopError', nonRetryable: true, details: [{ timing: err.timing, ...tries.log() }] });
    throw err;
  }
}

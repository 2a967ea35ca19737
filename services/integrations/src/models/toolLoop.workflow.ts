import { ApplicationFailure, patched, proxyActivities, proxyLocalActivities, uuid4 } from '@temporalio/workflow';
import { AttemptsExhausted, ModelLoopError, RETRY_INITIAL_MS, runToolLoop, type CallTry, type ToolLoopInput, type ToolLoopResult } from '@weft/catalog';
import { tryInWorkflow } from '@weft/catalog/workflowTries';
import type { CallModelInput, CallModelOutput, IntegrationActivities, ModelActivities } from '@weft/contracts';

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

/** The tries of the loop's model calls that were tried more than once, each with its call's number (1 the first). */
export type LoopCallTry = CallTry & { call: number };

/** What the loop answers: the loop's result and, when a model call was tried again, its tries. */
export type ModelToolLoopResult = ToolLoopResult & { attempts?: number; attemptLog?: LoopCallTry[] };

/**
 * The loop's model calls tried by the workflow: `call` runs each try; `log()` answers the most tries
 * one call took and the tries of each call tried more than once. A streamed call's tries share a
 * `callId` and carry their number, so a try goes on from what the earlier one streamed.
 */
function triedCalls(maxAttempts: number, initialMs: number, call: (input: CallModelInput) => Promise<CallModelOutput>) {
  const retried: LoopCallTry[] = [];
  let calls = 0;
  let most = 0;
  const keep = (n: number, attempts: number, tries: CallTry[]) => {
    most = Math.max(most, attempts);
    if (tries.length > 1) retried.push(...tries.map((t) => ({ ...t, call: n })));
  };
  return {
    async callModel(input: CallModelInput): Promise<CallModelOutput> {
      const n = ++calls;
      const callId = input.stream ? uuid4() : undefined;
      try {
        const done = await tryInWorkflow(maxAttempts, initialMs, (attempt) => call(input.stream ? { ...input, stream: { ...input.stream, callId, attempt } } : input));
        keep(n, done.attempts, done.tries);
        return done.value;
      } catch (err) {
        if (err instanceof AttemptsExhausted) keep(n, err.attempts, err.tries);
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
 *   next step is a tool call (or the loop's end), so a finished model call is never made again;
 * - each tool call is an activity on this same queue: Temporal hands it back to this worker in the
 *   workflow task's answer when eager activity execution is on (`system.enableActivityEagerExecution`),
 *   otherwise through the queue, and a worker lost mid-call is replaced after the heartbeat timeout.
 * So an iteration costs one activity and one workflow task. A provider error fails the child with the
 * message and `{timing}` as its details.
 */
export async function modelToolLoop(args: ModelToolLoopArgs): Promise<ModelToolLoopResult> {
  const retry = { maximumAttempts: Math.max(1, args.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 };
  const tries = patched(LOOP_MODEL_TRIES_PATCH);
  const models = proxyLocalActivities<Pick<ModelActivities, 'callModel'>>({ startToCloseTimeout: LOOP_MODEL_CALL_TIMEOUT, retry: tries ? { maximumAttempts: 1 } : retry });
  const tools = proxyActivities<Pick<IntegrationActivities, 'executeTool'>>({ startToCloseTimeout: LOOP_TOOL_CALL_TIMEOUT, heartbeatTimeout: LOOP_TOOL_HEARTBEAT_TIMEOUT, retry });
  const tried = tries ? triedCalls(args.maxAttempts, args.retryInitialIntervalMs ?? RETRY_INITIAL_MS, (i) => models.callModel(i)) : undefined;
  try {
    const result = await runToolLoop(args, { callModel: (i) => (tried ? tried.callModel(i) : models.callModel(i)), executeTool: (i) => tools.executeTool(i), now: () => Date.now() });
    return { ...result, ...tried?.log() };
  } catch (err) {
    if (err instanceof ModelLoopError) throw ApplicationFailure.create({ message: err.message, type: 'ModelLoopError', nonRetryable: true, details: [{ timing: err.timing, ...tried?.log() }] });
    throw err;
  }
}

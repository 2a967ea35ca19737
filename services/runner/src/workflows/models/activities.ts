import { patched, proxyActivities, uuid4 } from '@temporalio/workflow';
import type { IntegrationActivities, ModelActivities, ModelStreamTarget } from '@weft/contracts';
import { attemptFields, RETRY_INITIAL_MS, withRetries } from '../retry.js';
import type { AttemptRecord, BlockRunContext, RunnableBlock } from '../types.js';

/** Start-to-close of one model call (a long streamed answer included). */
export const MODEL_CALL_TIMEOUT = '5 minutes';
/** Silence after which a model call counts as lost with its worker. */
export const MODEL_HEARTBEAT_TIMEOUT = '30 seconds';
/**
 * Silence after which a function or tool call counts as lost with its worker: the integrations
 * worker heartbeats every 500 ms while one runs and forwards one beat a second (its answer carries
 * a cancellation).
 */
export const INTEGRATION_HEARTBEAT_TIMEOUT = '15 seconds';
/** Start-to-close of one tool call (long-polling tools run up to 300 s). */
export const TOOL_CALL_TIMEOUT = '10 minutes';

/** Where and how the model layer's activities run. */
export interface ActivityPlace {
  integrationsTaskQueue: string;
  /** Tries for transient failures (network, 429, 5xx); user errors and 4xx are never retried. */
  maxAttempts: number;
}

/** Model activities on the integrations queue, retried by Temporal (a finished call is never repeated). */
export function modelActivities(place: ActivityPlace): ModelActivities {
  return proxyActivities<ModelActivities>({
    taskQueue: place.integrationsTaskQueue,
    startToCloseTimeout: MODEL_CALL_TIMEOUT,
    // The model activities heartbeat every 5 s: a call on a lost worker is tried again after 30 s, not 5 minutes.
    heartbeatTimeout: MODEL_HEARTBEAT_TIMEOUT,
    retry: { maximumAttempts: Math.max(1, place.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 },
  });
}

/**
 * Runs recorded since this patch try a model block's call from the workflow (`withRetries`, as tool
 * blocks do): one activity per try, Temporal's own retries off, so the log shows each attempt. Runs
 * recorded before keep Temporal's retries (one activity, its count unknown to the workflow).
 */
export const MODEL_CALL_TRIES_PATCH = 'model-call-tries';

/** One model call's value and, when the workflow made its tries, their count and (when retried) each try. */
export interface ModelCallTried<T> {
  value: T;
  attempts?: { attempts: number; attemptLog?: AttemptRecord[] };
}

/** A streamed call's target for one try: the try's number and the id shared by the call's tries (its stream continues across them). */
export function streamTry(target: ModelStreamTarget, callId: string, attempt: number): ModelStreamTarget {
  return { ...target, callId, attempt };
}

/**
 * The one model call of a block, tried up to `ctx.maxAttempts` times for transient failures (network,
 * timeout, 429, 5xx) with exponential backoff and jitter; an answered error (4xx, a user error) is
 * not tried again. `call` gets the activities and the try's stream fields (pass them to a streamed
 * call). Failures throw as `withRetries` throws them (`AttemptsExhausted`, the activity's failure as
 * its cause).
 */
export async function modelCall<T>(ctx: BlockRunContext, call: (models: ModelActivities, tryOf: (target: ModelStreamTarget) => ModelStreamTarget) => Promise<T>): Promise<ModelCallTried<T>> {
  if (!patched(MODEL_CALL_TRIES_PATCH)) return { value: await call(modelActivities(ctx), (target) => target) };
  const models = modelActivities({ ...ctx, maxAttempts: 1 });
  let callId: string | undefined;
  let attempt = 0;
  const called = await withRetries(ctx.maxAttempts, ctx.retryInitialMs ?? RETRY_INITIAL_MS, () => {
    attempt += 1;
    const n = attempt;
    return call(models, (target) => streamTry(target, (callId ??= uuid4()), n));
  });
  return { value: called.value, attempts: attemptFields(called.attempts, called.tries) };
}

/** The tool runtime's executeTool, for the agent's tool calls. */
export function toolActivities(place: ActivityPlace): Pick<IntegrationActivities, 'executeTool'> {
  return proxyActivities<IntegrationActivities>({
    taskQueue: place.integrationsTaskQueue,
    startToCloseTimeout: TOOL_CALL_TIMEOUT,
    heartbeatTimeout: INTEGRATION_HEARTBEAT_TIMEOUT,
    retry: { maximumAttempts: Math.max(1, place.maxAttempts), initialInterval: '1 second', backoffCoefficient: 2 },
  });
}

/** Who a model call of `block` acts for, as the model layer logs and bills it. */
export function callContext(block: RunnableBlock, ctx: BlockRunContext) {
  return { workspaceId: ctx.workspaceId, workflowId: ctx.workflowId, executionId: ctx.executionId, blockId: block.id, requestId: ctx.requestId };
}

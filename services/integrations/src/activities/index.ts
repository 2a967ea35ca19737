import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { IntegrationActivities, StoreLargeOutput, StoredValueRef, ToolFailureDetails } from '@weft/contracts';
import { overBytes } from '@weft/catalog';
import { withRequestContext, type Logger } from '@weft/platform';
import type { SandboxPool } from '../function/sandbox.js';
import { executeFunctionTimed } from '../function/executeFunction.js';
import { activitySignal, heartbeating } from '../models/activities.js';
import type { ToolExecutor } from '../tools/runtime/executeTool.js';
import { TransientToolError } from '../tools/runtime/errors.js';

/** What the integrations activities are built from (the model layer adds its own beside these). */
export interface ActivityDeps {
  sandbox: SandboxPool;
  tools: ToolExecutor;
}

/**
 * How often a running function or tool activity tells Temporal it is alive. The runner gives these
 * activities a 15 s heartbeat timeout, so a call on a lost worker is tried again on another worker
 * within seconds instead of at its start-to-close timeout. A heartbeat's answer is also how a
 * cancelled run reaches its running activities: with the worker's HEARTBEAT_THROTTLE_MAX a beat goes
 * out at least every second, so a cancelled call stops within about a second.
 */
export const INTEGRATION_HEARTBEAT_MS = 500;
/**
 * The integrations worker's `maxHeartbeatThrottleInterval`: Temporal sends one heartbeat per 80 % of
 * the heartbeat timeout (12 s for 15 s) unless this is shorter, and cancellation arrives only in a
 * heartbeat's answer.
 */
export const HEARTBEAT_THROTTLE_MAX = '1 second';

/** A call whose activity was cancelled ends as cancelled, whatever the stopped work answered. */
function unlessCancelled<T>(signal: AbortSignal | undefined, value: T): T {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new CancelledFailure('Activity cancelled');
  return value;
}

/**
 * Where large outputs are kept aside: the runner's stored values of a run (its StoreValue call). With a
 * `key` the value goes to that slot of the run, replacing what an earlier try stored there.
 */
export interface OutputStore {
  storeValue(executionId: string, json: string, key?: string): Promise<StoredValueRef>;
  logger: Logger;
}

/** Which of an activity's values is kept aside: its output, or the answer of its (retried) failure. */
type KeptAsideKind = 'output' | 'failure';

/**
 * The slot of a value kept aside (a failure's answer; an output's is its try's): the same for every try of one call — its workflow run (workflow id
 * and run id; a child workflow has its own workflow id) and the run's number of the call (`call`, as
 * the run tries a call again as a new activity; else the activity's id, the same for Temporal's own
 * retries) — so a retried 5xx or a call tried again after a lost completion overwrites one value
 * instead of storing one per try. Hex, as a stored value's ref is `<executionId>/<key>`. None outside
 * an activity.
 */
function keptAsideKey(ask: StoreLargeOutput, kind: KeptAsideKind): string | undefined {
  let info: Context['info'];
  try {
    info = Context.current().info;
  } catch {
    return undefined; // called outside an activity (unit tests)
  }
  if (!info.workflowExecution) return undefined; // a standalone activity: no workflow run to tie the slot to
  const { workflowId, runId } = info.workflowExecution;
  // An output has a slot per try (its activity): a try abandoned after a heartbeat timeout that
  // finishes late must not replace the output a newer try answered and the run recorded. A failure's
  // answer is what repeats from try to try: one slot per call.
  const call = kind === 'failure' && ask.call !== undefined ? `call:${ask.call}` : `activity:${info.activityId}`;
  return createHash('sha256').update(JSON.stringify([workflowId, runId, call, kind])).digest('hex').slice(0, 32);
}

/**
 * `output` as the run asked for it: whole when short enough (or not asked), else kept aside and
 * answered as its reference, in the activity's `kind` slot (keptAsideKey). A store that fails leaves
 * the output whole: the run stores it itself.
 */
async function keptAside(store: OutputStore | undefined, ask: StoreLargeOutput | undefined, output: unknown, kind: KeptAsideKind): Promise<unknown> {
  if (!store || !ask || output === undefined) return output;
  const json = JSON.stringify(output);
  // UTF-8 bytes, as the run measures what it keeps inline (overLength is its threshold).
  if (!overBytes(json, ask.overLength)) return output;
  try {
    return await store.storeValue(ask.executionId, json, keptAsideKey(ask, kind));
  } catch (err) {
    store.logger.warn({ err, executionId: ask.executionId, length: json.length }, 'could not keep a large output aside; it goes back whole');
    return output;
  }
}

/**
 * What a transient failure's answer (an HTTP response's data, status and headers) goes back as in
 * the failure's details: bounded as an output is, its `data` kept aside when the whole is longer
 * than the run asked for.
 */
async function answerWithin(store: OutputStore | undefined, ask: StoreLargeOutput | undefined, output: unknown): Promise<unknown> {
  if (!store || !ask || output === null || typeof output !== 'object' || !('data' in output)) return output;
  if (!overBytes(JSON.stringify(output), ask.overLength)) return output;
  return { ...output, data: await keptAside(store, { ...ask, overLength: 0 }, output.data, 'failure') };
}

/** A transient tool failure as Temporal retries it; one that got an answer carries it in its details. */
async function retryableFailure(err: TransientToolError, store: OutputStore | undefined, ask: StoreLargeOutput | undefined): Promise<ApplicationFailure> {
  if (err.output === undefined) return ApplicationFailure.retryable(err.message, 'TransientToolError');
  const details: ToolFailureDetails = { output: await answerWithin(store, ask, err.output) };
  return ApplicationFailure.create({ message: err.message, type: 'TransientToolError', nonRetryable: false, details: [details] });
}

/** The integrations task queue's activities; with `store`, large outputs a run asks to keep aside are stored here. */
export function createActivities(deps: ActivityDeps, store?: OutputStore): IntegrationActivities {
  return {
    executeFunction(input) {
      return withRequestContext({ requestId: input.requestId ?? 'temporal' }, async () => {
        const signal = activitySignal();
        const out = unlessCancelled(
          signal,
          await heartbeating(() => executeFunctionTimed(deps.sandbox, { code: input.code, params: input.params, envVars: input.envVars, timeout: input.timeoutMs, signal }), INTEGRATION_HEARTBEAT_MS),
        );
        return out.success ? { ...out, output: (await keptAside(store, input.storeLargeOutput, out.output, 'output')) as typeof out.output | StoredValueRef } : out;
      });
    },
    executeTool(input) {
      return withRequestContext({ requestId: input.context.requestId ?? 'temporal' }, async () => {
        const signal = activitySignal();
        const { storeLargeOutput, ...asked } = input;
        // The runner's blocks name their call by its number in the run (the slot of its large output).
        const call = asked.call === undefined && storeLargeOutput?.call !== undefined ? { ...asked, call: storeLargeOutput.call } : asked;
        try {
          const res = unlessCancelled(signal, await heartbeating(() => deps.tools.execute(call, 'throw', signal), INTEGRATION_HEARTBEAT_MS));
          return res.success ? { ...res, output: await keptAside(store, storeLargeOutput, res.output, 'output') } : res;
        } catch (err) {
          // Transient failures (network, timeouts, 429, 5xx, an unreachable registry) are thrown retryable: the caller tries again.
          unlessCancelled(signal, undefined);
          if (err instanceof TransientToolError) throw await retryableFailure(err, store, storeLargeOutput);
          throw err;
        }
      });
    },
  };
}

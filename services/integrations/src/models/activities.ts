import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ModelActivities, ModelCancelledDetails, ModelErrorDetails, ModelProviderId, ModelStreamTarget } from '@weft/contracts';
import { withRequestContext } from '@weft/platform';
import { callModel, TimedModelError, timedCall, type ModelDeps, type StreamProgress, type StreamResume } from './callModel.js';
import { createEmbeddings } from './embeddings.js';
import { ModelProviderError, ModelRequestError } from './errors.js';
import { generateImage } from './images.js';
import { listOllamaModels } from './providers/ollama.provider.js';

/** The running activity's cancellation signal: aborted when its workflow cancels it (learnt through a heartbeat). */
export function activitySignal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined; // called outside an activity (unit tests)
  }
}
const signal = activitySignal;

/** A call its workflow stopped, with the text it had streamed (`ModelCancelledDetails`). */
function cancelledCall(text: string): CancelledFailure {
  return new CancelledFailure('The model call was cancelled', [{ text } satisfies ModelCancelledDetails]);
}

/** Whether the running activity's workflow asked it to stop (not a worker shutting down, a pause or a reset). */
function cancelRequested(): boolean {
  try {
    return Context.current().cancellationDetails?.cancelRequested === true;
  } catch {
    return false; // called outside an activity (unit tests)
  }
}

/**
 * A model failure as Temporal sees it: user errors (missing key, bad parameters) and 4xx answers are
 * non-retryable; network failures, timeouts, 429 and 5xx retry. Details carry provider, status, timing.
 */
export function toFailure(err: unknown, provider: ModelProviderId): ApplicationFailure {
  const timed = err instanceof TimedModelError ? err : undefined;
  const cause = timed?.original ?? (err instanceof Error ? err : new Error(String(err)));
  const now = new Date().toISOString();
  const details: ModelErrorDetails = {
    provider: timed?.provider ?? provider,
    ...(cause instanceof ModelProviderError && cause.status !== undefined ? { status: cause.status } : {}),
    timing: timed?.timing ?? { startTime: now, endTime: now, duration: 0 },
  };
  const nonRetryable = cause instanceof ModelRequestError || (cause instanceof ModelProviderError && !cause.retryable);
  return ApplicationFailure.create({ message: cause.message, type: cause.name, nonRetryable, details: [details] });
}

/**
 * How often a running model activity tells Temporal it is alive (the runner's heartbeat timeout is
 * 30 s). Every second: a beat's answer is how a cancelled run stops the call (its request aborted),
 * and the worker sends at most one a second (HEARTBEAT_THROTTLE_MAX) whatever the model writes.
 */
export const MODEL_HEARTBEAT_MS = 1_000;

/**
 * Runs `work` while heartbeating every `everyMs` (with `details()` when given), so a call on a lost
 * worker is retried elsewhere within the heartbeat timeout.
 */
export async function heartbeating<T>(work: () => Promise<T>, everyMs = MODEL_HEARTBEAT_MS, details?: () => unknown): Promise<T> {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    return work(); // called outside an activity (unit tests)
  }
  // A local activity cannot heartbeat: the workflow task it runs in is kept alive by the worker.
  if (ctx.info.isLocal) return work();
  const beat = ctx;
  // No beat at the start: the heartbeat timeout counts from the activity's start, and a short call
  // then costs no heartbeat round trip at all.
  const timer = setInterval(() => beat.heartbeat(details?.()), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** How many calls' stream progress a worker keeps for their retries (the oldest go first). */
const STREAM_LEDGER_SIZE = 1_000;

function isProgress(v: unknown): v is StreamProgress {
  return typeof v === 'object' && v !== null && typeof (v as StreamProgress).text === 'string' && typeof (v as StreamProgress).nextSeq === 'number' && Array.isArray((v as StreamProgress).states);
}

/**
 * Where a streamed call's progress is kept between its tries: in this worker's memory by the call's
 * workflow run and activity id (a local activity's retries run here), or by the target's `callId`
 * when the workflow makes each try an activity of its own, and in the heartbeat details (sent with
 * the failure of a try), which a retry by Temporal on another worker reads.
 */
function streamResume(ledger: Map<string, StreamProgress>, target: ModelStreamTarget): { resume: StreamResume; key: string; local: boolean } | undefined {
  let info;
  try {
    info = Context.current().info;
  } catch {
    return undefined; // called outside an activity (unit tests)
  }
  const run = info.workflowExecution;
  // A call the workflow tries itself is one activity per try: its tries share the workflow's call id.
  const key = `${run?.workflowId ?? ''}/${run?.runId ?? ''}/${target.callId !== undefined ? `call:${target.callId}` : info.activityId}`;
  const attempt = (target.attempt ?? 1) + info.attempt - 1;
  const fromHeartbeat: unknown = info.heartbeatDetails;
  const previous = ledger.get(key) ?? (isProgress(fromHeartbeat) ? fromHeartbeat : undefined);
  const record = (p: StreamProgress) => {
    ledger.delete(key);
    ledger.set(key, p);
    if (ledger.size > STREAM_LEDGER_SIZE) ledger.delete(ledger.keys().next().value as string);
  };
  return { resume: { attempt, ...(previous ? { previous } : {}), record }, key, local: info.isLocal };
}

/** The model layer's activities on the integrations task queue. */
export function createModelActivities(deps: ModelDeps): ModelActivities {
  const ledger = new Map<string, StreamProgress>();
  return {
    async callModel(input) {
      const stream = input.stream ? streamResume(ledger, input.stream) : undefined;
      const progress = () => (stream ? ledger.get(stream.key) : undefined);
      let out;
      try {
        out = await heartbeating(() => withRequestContext({ requestId: input.context?.requestId ?? 'temporal' }, () => callModel(deps, input, signal(), stream?.resume)), MODEL_HEARTBEAT_MS, progress);
      } catch (err) {
        // Stopped by its workflow: reported as cancelled with the text the client holds (a workflow that
        // waits for the cancellation, like a copilot turn, keeps it as the partial answer).
        if (cancelRequested()) {
          const text = progress()?.text ?? '';
          if (stream) ledger.delete(stream.key);
          throw cancelledCall(text);
        }
        const failure = toFailure(err, input.provider ?? 'openai');
        // The last heartbeat goes out with the failure: a retry on another worker reads what was sent.
        if (stream && !stream.local && progress()) Context.current().heartbeat(progress());
        if (stream && failure.nonRetryable) ledger.delete(stream.key);
        throw failure;
      }
      if (stream) ledger.delete(stream.key);
      // The providers' SDKs end a stream cut short by the abort as if it had finished: still a cancelled call.
      if (cancelRequested()) throw cancelledCall(out.content);
      return out;
    },
    async createEmbeddings(input) {
      try {
        return await heartbeating(() => timedCall('openai', [input.apiKey, deps.config.keys.openai], () => createEmbeddings(deps.config, input, signal())));
      } catch (err) {
        throw toFailure(err, 'openai');
      }
    },
    async generateImage(input) {
      try {
        return await heartbeating(() => timedCall('openai', [input.apiKey, deps.config.keys.openai], () => generateImage(deps.config, input, signal())));
      } catch (err) {
        throw toFailure(err, 'openai');
      }
    },
    listLocalModels: () => listOllamaModels(deps.config),
  };
}

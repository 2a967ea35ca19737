import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ModelActivities, ModelErrorDetails, ModelProviderId } from '@weft/contracts';
import { withRequestContext } from '@weft/platform';
import { callModel, TimedModelError, type ModelDeps } from './callModel.js';
import { createEmbeddings } from './embeddings.js';
import { ModelProviderError, ModelRequestError } from './errors.js';
import { generateImage } from './images.js';
import { listOllamaModels } from './providers/ollama.provider.js';

function signal(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined; // called outside an activity (unit tests)
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

/** How often a running model activity tells Temporal it is alive (the runner's heartbeat timeout is 30 s). */
export const MODEL_HEARTBEAT_MS = 5_000;

/** Runs `work` while heartbeating every `everyMs`, so a call on a lost worker is retried elsewhere within the heartbeat timeout. */
export async function heartbeating<T>(work: () => Promise<T>, everyMs = MODEL_HEARTBEAT_MS): Promise<T> {
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
  const timer = setInterval(() => beat.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** The model layer's activities on the integrations task queue. */
export function createModelActivities(deps: ModelDeps): ModelActivities {
  return {
    async callModel(input) {
      try {
        return await heartbeating(() => withRequestContext({ requestId: input.context?.requestId ?? 'temporal' }, () => callModel(deps, input, signal())));
      } catch (err) {
        throw toFailure(err, input.provider ?? 'openai');
      }
    },
    async createEmbeddings(input) {
      try {
        return await heartbeating(() => createEmbeddings(deps.config, input, signal()));
      } catch (err) {
        throw toFailure(err, 'openai');
      }
    },
    async generateImage(input) {
      try {
        return await heartbeating(() => generateImage(deps.config, input, signal()));
      } catch (err) {
        throw toFailure(err, 'openai');
      }
    },
    listLocalModels: () => listOllamaModels(deps.config),
  };
}

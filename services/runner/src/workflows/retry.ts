import { isCancellation, sleep } from '@temporalio/workflow';
import { innermostMessage, isTransientFailure, tryCall, type TryEnv } from '@weft/catalog';
import type { AttemptRecord } from './types.js';

export { AttemptsExhausted, attemptFields, RETRY_INITIAL_MS } from '@weft/catalog';

/** The innermost failure message (an activity failure wraps the activity's own error). */
export const failureMessage = innermostMessage;

/** Transient: timeouts, worker loss and retryable errors; answered errors (non-retryable failures) are not. */
export const isTransient = isTransientFailure;

/** Tries inside a workflow: durable timers, and `Date.now`/`Math.random` are deterministic there. */
export const WORKFLOW_TRIES: TryEnv = {
  sleep: (ms) => sleep(ms),
  now: () => Date.now(),
  random: () => Math.random(),
  transient: isTransientFailure,
  passThrough: isCancellation,
  message: innermostMessage,
};

/**
 * Runs an activity call with up to `maxAttempts` tries for transient failures, waiting with
 * exponential backoff and jitter between them (workflow timers: durable, and `Math.random` is
 * deterministic inside a workflow). Temporal's own activity retries are off so each attempt is
 * counted, timed (workflow time) and its error kept for the run log; recording them issues no
 * command, so histories of earlier runs replay unchanged. A failure after the tries throws
 * `AttemptsExhausted` (the last try's failure as its cause).
 */
export function withRetries<T>(maxAttempts: number, initialMs: number, call: () => Promise<T>): Promise<{ value: T; attempts: number; tries: AttemptRecord[] }> {
  return tryCall(maxAttempts, initialMs, WORKFLOW_TRIES, call);
}

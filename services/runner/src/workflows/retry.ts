import { innermostMessage, isTransientFailure } from '@weft/catalog';
import { tryInWorkflow } from '@weft/catalog/workflowTries';
import type { AttemptRecord } from './types.js';

export { AttemptsExhausted, attemptFields, RETRY_INITIAL_MS } from '@weft/catalog';

/** The innermost failure message (an activity failure wraps the activity's own error). */
export const failureMessage = innermostMessage;

/** Transient: timeouts, worker loss and retryable errors; answered errors (non-retryable failures) are not. */
export const isTransient = isTransientFailure;

/**
 * Runs an activity call with up to `maxAttempts` tries for transient failures, waiting with
 * exponential backoff and jitter between them (workflow timers: durable, and `Math.random` is
 * deterministic inside a workflow). Temporal's own activity retries are off so each attempt is
 * counted, timed (workflow time) and its error kept for the run log; recording them issues no
 * command, so histories of earlier runs replay unchanged. A failure after the tries throws
 * `AttemptsExhausted` (the last try's failure as its cause).
 */
export function withRetries<T>(maxAttempts: number, initialMs: number, call: () => Promise<T>): Promise<{ value: T; attempts: number; tries: AttemptRecord[] }> {
  return tryInWorkflow(maxAttempts, initialMs, call);
}

import { ApplicationFailure, isCancellation, sleep, TimeoutFailure } from '@temporalio/workflow';
import { innermostMessage } from '@weft/catalog';

/** Backoff of the first retry; doubled each time, with ±50 % jitter, capped at 30 s. */
export const RETRY_INITIAL_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** A call that failed after its tries; `attempts` is how many were made. */
export class AttemptsExhausted extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'AttemptsExhausted';
  }
}

/** The innermost failure message (an activity failure wraps the activity's own error). */
export const failureMessage = innermostMessage;

/** Transient: timeouts, worker loss and retryable errors; answered errors (non-retryable failures) are not. */
export function isTransient(err: unknown): boolean {
  let current: unknown = err;
  while (current instanceof Error) {
    if (current instanceof ApplicationFailure && current.nonRetryable) return false;
    if (current instanceof TimeoutFailure) return true;
    current = current.cause;
  }
  return true;
}

/**
 * Runs an activity call with up to `maxAttempts` tries for transient failures, waiting with
 * exponential backoff and jitter between them (workflow timers: durable, and `Math.random` is
 * deterministic inside a workflow). Temporal's own activity retries are off so each attempt is
 * counted for the run log.
 */
export async function withRetries<T>(maxAttempts: number, initialMs: number, call: () => Promise<T>): Promise<{ value: T; attempts: number }> {
  const tries = Math.max(1, maxAttempts);
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await call(), attempts: attempt };
    } catch (err) {
      if (isCancellation(err)) throw err;
      if (attempt >= tries || !isTransient(err)) throw new AttemptsExhausted(failureMessage(err), attempt);
      const base = Math.min(RETRY_MAX_MS, initialMs * 2 ** (attempt - 1));
      await sleep(Math.round(base * (0.5 + Math.random())));
    }
  }
}

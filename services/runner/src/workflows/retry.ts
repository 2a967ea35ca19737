import { ApplicationFailure, isCancellation, sleep, TimeoutFailure } from '@temporalio/workflow';
import { innermostMessage } from '@weft/catalog';
import type { AttemptRecord } from './types.js';

/** Backoff of the first retry; doubled each time, with ±50 % jitter, capped at 30 s. */
export const RETRY_INITIAL_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** A call that failed after its tries; `attempts` is how many were made, `tries` each one, `cause` the last try's failure. */
export class AttemptsExhausted extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    readonly tries: AttemptRecord[] = [],
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
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

/** A call's attempts as the block log keeps them: the count, and each try when there was more than one. */
export function attemptFields(attempts: number, tries: AttemptRecord[]): { attempts: number; attemptLog?: AttemptRecord[] } {
  return tries.length > 1 ? { attempts, attemptLog: tries } : { attempts };
}

/**
 * Runs an activity call with up to `maxAttempts` tries for transient failures, waiting with
 * exponential backoff and jitter between them (workflow timers: durable, and `Math.random` is
 * deterministic inside a workflow). Temporal's own activity retries are off so each attempt is
 * counted, timed (workflow time) and its error kept for the run log; recording them issues no
 * command, so histories of earlier runs replay unchanged.
 */
export async function withRetries<T>(maxAttempts: number, initialMs: number, call: () => Promise<T>): Promise<{ value: T; attempts: number; tries: AttemptRecord[] }> {
  const limit = Math.max(1, maxAttempts);
  const tries: AttemptRecord[] = [];
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    const record = (error?: string) => tries.push({ attempt, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, ...(error !== undefined ? { error } : {}) });
    try {
      const value = await call();
      record();
      return { value, attempts: attempt, tries };
    } catch (err) {
      if (isCancellation(err)) throw err;
      record(failureMessage(err));
      if (attempt >= limit || !isTransient(err)) throw new AttemptsExhausted(failureMessage(err), attempt, tries, err);
      const base = Math.min(RETRY_MAX_MS, initialMs * 2 ** (attempt - 1));
      await sleep(Math.round(base * (0.5 + Math.random())));
    }
  }
}

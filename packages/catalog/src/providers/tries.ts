/**
 * A call tried again for transient failures, as workflows run it (the runner's tool and model blocks,
 * the integrations worker's agent tool loop): pure, with the workflow's timer, clock and random
 * source passed in, so the same code runs in any workflow and in unit tests.
 */

/** Backoff of the first retry; doubled each time, with ±50 % jitter, capped at 30 s. */
export const RETRY_INITIAL_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

/** One try of a call: when it started, how long it took, why it failed (absent for the try that answered). */
export interface CallTry {
  attempt: number;
  startedAt: string;
  durationMs: number;
  error?: string;
}

/** What tries a call needs from its workflow. */
export interface TryEnv {
  /** A durable timer. */
  sleep(ms: number): Promise<void>;
  now(): number;
  /** In [0, 1): the jitter. */
  random(): number;
  /** Whether the failure is worth another try (network, timeout, 429, 5xx); an answered error is not. */
  transient(err: unknown): boolean;
  /** Failures rethrown as they are, never tried again nor wrapped (a cancellation). */
  passThrough(err: unknown): boolean;
  /** The failure's message as the log shows it. */
  message(err: unknown): string;
}

/** A call that failed after its tries; `attempts` is how many were made, `tries` each one, `cause` the last try's failure. */
export class AttemptsExhausted extends Error {
  constructor(
    message: string,
    readonly attempts: number,
    readonly tries: CallTry[] = [],
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AttemptsExhausted';
  }
}

/**
 * Runs `call` with up to `maxAttempts` tries for transient failures, waiting with exponential
 * backoff and jitter between them; each try is counted, timed and its error kept.
 */
export async function tryCall<T>(maxAttempts: number, initialMs: number, env: TryEnv, call: (attempt: number) => Promise<T>): Promise<{ value: T; attempts: number; tries: CallTry[] }> {
  const limit = Math.max(1, maxAttempts);
  const tries: CallTry[] = [];
  for (let attempt = 1; ; attempt++) {
    const started = env.now();
    const record = (error?: string) => tries.push({ attempt, startedAt: new Date(started).toISOString(), durationMs: env.now() - started, ...(error !== undefined ? { error } : {}) });
    try {
      const value = await call(attempt);
      record();
      return { value, attempts: attempt, tries };
    } catch (err) {
      if (env.passThrough(err)) throw err;
      record(env.message(err));
      if (attempt >= limit || !env.transient(err)) throw new AttemptsExhausted(env.message(err), attempt, tries, err);
      const base = Math.min(RETRY_MAX_MS, initialMs * 2 ** (attempt - 1));
      await env.sleep(Math.round(base * (0.5 + env.random())));
    }
  }
}

/**
 * Transient: timeouts, worker loss and retryable errors; an answered error (a Temporal failure marked
 * `nonRetryable`, anywhere in the cause chain before a timeout) is not.
 */
export function isTransientFailure(err: unknown): boolean {
  let current: unknown = err;
  while (current instanceof Error) {
    if ((current as { nonRetryable?: unknown }).nonRetryable === true) return false;
    if (current.name === 'TimeoutFailure') return true;
    current = current.cause;
  }
  return true;
}

/** A call's tries as a log keeps them: the count, and each try when there was more than one. */
export function attemptFields(attempts: number, tries: CallTry[]): { attempts: number; attemptLog?: CallTry[] } {
  return tries.length > 1 ? { attempts, attemptLog: tries } : { attempts };
}

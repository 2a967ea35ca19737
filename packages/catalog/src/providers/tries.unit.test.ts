import { describe, expect, it } from 'vitest';
import { AttemptsExhausted, attemptFields, isTransientFailure, tryCall, type TryEnv } from './tries.js';

/** A clock that moves only when the tries sleep (or a try takes time), and the waits asked for. */
function testEnv(random = 0.5): TryEnv & { waits: number[]; advance(ms: number): void } {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const waits: number[] = [];
  return {
    waits,
    advance: (ms) => void (now += ms),
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
    now: () => now,
    random: () => random,
    transient: isTransientFailure,
    passThrough: (err) => err instanceof Error && err.name === 'CancelledFailure',
    message: (err) => (err instanceof Error ? err.message : String(err)),
  };
}

const answered = (message: string) => Object.assign(new Error(message), { nonRetryable: true });

describe('tryCall', () => {
  it('tries a transient failure again with doubling backoff and keeps each try', async () => {
    const env = testEnv();
    let n = 0;
    const done = await tryCall(3, 1_000, env, (attempt) => {
      n += 1;
      env.advance(5);
      if (attempt < 3) return Promise.reject(new Error(`overloaded ${attempt}`));
      return Promise.resolve('ok');
    });
    expect(n).toBe(3);
    expect(done.value).toBe('ok');
    expect(env.waits).toEqual([1_000, 2_000]);
    expect(done.tries.map((t) => [t.attempt, t.durationMs, t.error])).toEqual([
      [1, 5, 'overloaded 1'],
      [2, 5, 'overloaded 2'],
      [3, 5, undefined],
    ]);
    expect(attemptFields(done.attempts, done.tries)).toEqual({ attempts: 3, attemptLog: done.tries });
  });

  it('jitters each wait by ±50 % and caps it at 30 s', async () => {
    const low = testEnv(0);
    await expect(tryCall(2, 1_000, low, () => Promise.reject(new Error('down')))).rejects.toBeInstanceOf(AttemptsExhausted);
    expect(low.waits).toEqual([500]);
    const high = testEnv(0.999);
    await expect(tryCall(2, 40_000, high, () => Promise.reject(new Error('down')))).rejects.toBeInstanceOf(AttemptsExhausted);
    expect(high.waits).toEqual([Math.round(30_000 * 1.499)]);
  });

  it('does not try an answered error again; the failure carries the tries and the cause', async () => {
    const env = testEnv();
    const cause = answered('Bad request');
    const err = await tryCall(3, 1_000, env, () => Promise.reject(cause)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AttemptsExhausted);
    expect(err).toMatchObject({ message: 'Bad request', attempts: 1, cause });
    expect(env.waits).toEqual([]);
    // Wrapped answered errors (an activity failure around a non-retryable one) are not tried again either.
    expect(isTransientFailure(new Error('Activity task failed', { cause }))).toBe(false);
    expect(isTransientFailure(Object.assign(new Error('timed out'), { name: 'TimeoutFailure' }))).toBe(true);
  });

  it('passes a cancellation through at once, and tries at least once', async () => {
    const env = testEnv();
    const cancelled = Object.assign(new Error('cancelled'), { name: 'CancelledFailure' });
    await expect(tryCall(3, 1_000, env, () => Promise.reject(cancelled))).rejects.toBe(cancelled);
    const once = await tryCall(0, 1_000, env, () => Promise.resolve(1));
    expect(once).toMatchObject({ value: 1, attempts: 1 });
    expect(attemptFields(once.attempts, once.tries)).toEqual({ attempts: 1 });
  });
});

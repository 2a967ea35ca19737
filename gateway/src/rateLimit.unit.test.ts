import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter, deploymentKeyBucket, parseRateRule, runRateRulesFromEnv, DEFAULT_RUN_RATE_RULES } from './rateLimit.js';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('SlidingWindowLimiter', () => {
  it('admits `limit` calls in any window and tells a refused caller when the oldest leaves it', () => {
    const c = clock();
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 10_000 }, c.now);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 2 });
    c.advance(4_000);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 1 });
    c.advance(1_000);
    expect(limiter.take('a')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterMs: 5_000 });
    // Another bucket is not touched.
    expect(limiter.take('b').allowed).toBe(true);
    // The window slides: once the first call is 10 s old, one more is admitted, and the next waits for the second.
    c.advance(5_000);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterMs: 4_000 });
  });

  it('does not count refused calls', () => {
    const c = clock();
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 1_000 }, c.now);
    expect(limiter.take('a').allowed).toBe(true);
    for (let i = 0; i < 5; i++) {
      c.advance(100);
      expect(limiter.take('a').allowed).toBe(false);
    }
    c.advance(500);
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('refuses rules that cannot limit', () => {
    expect(() => new SlidingWindowLimiter({ limit: 0, windowMs: 1000 })).toThrow('A rate limit must be a whole number of calls of at least 1, got 0');
    expect(() => new SlidingWindowLimiter({ limit: 1, windowMs: 0 })).toThrow('A rate window must be a whole number of milliseconds of at least 1, got 0');
  });
});

describe('rate rules from the environment', () => {
  it('reads "<runs>/<seconds>s" and names a bad variable', () => {
    expect(parseRateRule('X', '300/60s')).toEqual({ limit: 300, windowMs: 60_000 });
    expect(parseRateRule('X', ' 5 / 0.5s ')).toEqual({ limit: 5, windowMs: 500 });
    expect(() => parseRateRule('WEFT_RATE_LIMIT_ACCOUNT', '300 per minute')).toThrow('WEFT_RATE_LIMIT_ACCOUNT must look like "<runs>/<seconds>s" (e.g. "300/60s"), got "300 per minute"');
    expect(() => parseRateRule('X', '0/60s')).toThrow('X must look like');
    expect(runRateRulesFromEnv({})).toEqual(DEFAULT_RUN_RATE_RULES);
    expect(runRateRulesFromEnv({ WEFT_RATE_LIMIT_DEPLOYMENT_KEY: '2/1s' }).deploymentKey).toEqual({ limit: 2, windowMs: 1_000 });
  });

  it('names a deployment key bucket by its hash, per workflow', () => {
    const bucket = deploymentKeyBucket('wf1', 'secret-key');
    expect(bucket).not.toContain('secret-key');
    expect(bucket).toBe(deploymentKeyBucket('wf1', 'secret-key'));
    expect(bucket).not.toBe(deploymentKeyBucket('wf2', 'secret-key'));
  });
});

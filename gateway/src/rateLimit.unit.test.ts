import { describe, expect, it } from 'vitest';
import { deploymentKeyBucket, parseRateRule, runRateRulesFromEnv, DEFAULT_RUN_RATE_RULES } from './rateLimit.js';

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

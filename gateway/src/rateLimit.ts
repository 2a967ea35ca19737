import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import type { Authenticator } from './auth.js';
import { API_KEY_PREFIX } from './accounts/apiKeys.js';

/** At most `limit` runs in any `windowMs` (a sliding window). */
export interface RateRule {
  limit: number;
  windowMs: number;
}

/** Runs started through the deployment API key of one workflow, and runs started for one account. */
export interface RunRateRules {
  deploymentKey: RateRule;
  account: RateRule;
}

export const DEFAULT_RUN_RATE_RULES: RunRateRules = {
  deploymentKey: { limit: 300, windowMs: 60_000 },
  account: { limit: 600, windowMs: 60_000 },
};

/** Buckets not touched for this many windows are dropped when the map is swept. */
const SWEEP_EVERY_TAKES = 10_000;

export type Take = { allowed: true; remaining: number } | { allowed: false; retryAfterMs: number };

/**
 * A sliding-window log per bucket: the times of the last `limit` admitted calls in a ring. A call is
 * admitted when fewer than `limit` were admitted in the `windowMs` before it; a refused one is told
 * when the oldest of them leaves the window. Refused calls are not counted. Kept in this process.
 */
export class SlidingWindowLimiter {
  private readonly buckets = new Map<string, { times: Float64Array; next: number; size: number }>();
  private takes = 0;

  constructor(
    readonly rule: RateRule,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(rule.limit) || rule.limit < 1) throw new Error(`A rate limit must be a whole number of calls of at least 1, got ${rule.limit}`);
    if (!Number.isInteger(rule.windowMs) || rule.windowMs < 1) throw new Error(`A rate window must be a whole number of milliseconds of at least 1, got ${rule.windowMs}`);
  }

  take(key: string): Take {
    const now = this.now();
    if (++this.takes % SWEEP_EVERY_TAKES === 0) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { times: new Float64Array(this.rule.limit), next: 0, size: 0 };
      this.buckets.set(key, bucket);
    }
    if (bucket.size === this.rule.limit) {
      // The ring is full: its oldest entry is the one `next` would overwrite.
      const oldest = bucket.times[bucket.next] ?? 0;
      const freeAt = oldest + this.rule.windowMs;
      if (freeAt > now) return { allowed: false, retryAfterMs: freeAt - now };
    } else {
      bucket.size++;
    }
    bucket.times[bucket.next] = now;
    bucket.next = (bucket.next + 1) % this.rule.limit;
    return { allowed: true, remaining: this.rule.limit - this.countSince(bucket, now - this.rule.windowMs) };
  }

  private countSince(bucket: { times: Float64Array; size: number; next: number }, since: number): number {
    let n = 0;
    for (let i = 0; i < bucket.size; i++) if ((bucket.times[i] ?? 0) > since) n++;
    return n;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      const newest = bucket.times[(bucket.next + this.rule.limit - 1) % this.rule.limit] ?? 0;
      if (newest <= now - this.rule.windowMs) this.buckets.delete(key);
    }
  }
}

/** The run limiters of one gateway. */
export interface RunLimiters {
  deploymentKey: SlidingWindowLimiter;
  account: SlidingWindowLimiter;
}

export function createRunLimiters(rules: RunRateRules = DEFAULT_RUN_RATE_RULES, now?: () => number): RunLimiters {
  return { deploymentKey: new SlidingWindowLimiter(rules.deploymentKey, now), account: new SlidingWindowLimiter(rules.account, now) };
}

/** "<count>/<seconds>s" (e.g. "300/60s") → a rule; anything else names the variable. */
export function parseRateRule(name: string, given: string): RateRule {
  const m = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*s$/.exec(given.trim());
  const limit = m ? Number(m[1]) : NaN;
  const windowMs = m ? Math.round(Number(m[2]) * 1000) : NaN;
  if (!m || limit < 1 || windowMs < 1) throw new Error(`${name} must look like "<runs>/<seconds>s" (e.g. "300/60s"), got "${given}"`);
  return { limit, windowMs };
}

/** The rules from WEFT_RATE_LIMIT_DEPLOYMENT_KEY and WEFT_RATE_LIMIT_ACCOUNT, else the defaults. */
export function runRateRulesFromEnv(env: Record<string, string | undefined>): RunRateRules {
  const key = env.WEFT_RATE_LIMIT_DEPLOYMENT_KEY;
  const account = env.WEFT_RATE_LIMIT_ACCOUNT;
  return {
    deploymentKey: key ? parseRateRule('WEFT_RATE_LIMIT_DEPLOYMENT_KEY', key) : DEFAULT_RUN_RATE_RULES.deploymentKey,
    account: account ? parseRateRule('WEFT_RATE_LIMIT_ACCOUNT', account) : DEFAULT_RUN_RATE_RULES.account,
  };
}

/**
 * Takes one run from `limiter`'s bucket `key`; when none is left answers 429 with Retry-After (whole
 * seconds, rounded up) and returns false.
 */
export function admitRun(res: Response, limiter: SlidingWindowLimiter, key: string, what: string): boolean {
  const taken = limiter.take(key);
  if (taken.allowed) return true;
  const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
  res.setHeader('Retry-After', String(seconds));
  res.status(429).json({ error: `Rate limit exceeded: at most ${limiter.rule.limit} runs per ${limiter.rule.windowMs / 1000} s ${what}. Try again in ${seconds} s.`, retryAfter: seconds });
  return false;
}

/** A deployment key as a bucket name: its hash, so the key itself is not kept in memory here. */
export function deploymentKeyBucket(workflowId: string, key: string): string {
  return `key:${workflowId}:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Rate limits in front of POST /api/workflows/{id}/execute: a workflow's deployment key
 * (x-api-key that is not a personal key) by its key, any other caller by their account. A caller
 * that cannot be identified passes; the route answers 401.
 */
export function runRateLimits(auth: Authenticator, limiters: RunLimiters): Router {
  const r = Router();
  r.post('/workflows/:id/execute', async (req, res, next) => {
    const key = req.header('x-api-key');
    if (key && !key.startsWith(API_KEY_PREFIX)) {
      if (admitRun(res, limiters.deploymentKey, deploymentKeyBucket(req.params.id, key), 'for this deployment key')) next();
      return;
    }
    const actor = await auth.authenticate(req);
    if (!actor || admitRun(res, limiters.account, `account:${actor.userId}`, 'for this account')) next();
  });
  return r;
}

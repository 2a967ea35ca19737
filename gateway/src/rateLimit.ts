import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import type { Authenticator } from './auth.js';
import { API_KEY_PREFIX } from './accounts/apiKeys.js';
import type { Kysely } from 'kysely';
import type { Logger } from '@weft/platform';
import { createRateLimiter, type RateLimiter, type RateRule } from './rateLimitStore.js';
import type { registry } from '@weft/contracts';
import type { Clients } from './clients.js';

export type { RateRule };

/** Runs started through the deployment API key of one workflow, and runs started for one account. */
export interface RunRateRules {
  deploymentKey: RateRule;
  account: RateRule;
}

export const DEFAULT_RUN_RATE_RULES: RunRateRules = {
  deploymentKey: { limit: 300, windowMs: 60_000 },
  account: { limit: 600, windowMs: 60_000 },
};

/** The run limiters of the gateways (kept in Postgres, so every gateway counts into the same buckets). */
export interface RunLimiters {
  deploymentKey: RateLimiter;
  account: RateLimiter;
}

export function createRunLimiters(db: Kysely<unknown>, rules: RunRateRules = DEFAULT_RUN_RATE_RULES, opts: { now?: () => number; logger?: Logger } = {}): RunLimiters {
  return { deploymentKey: createRateLimiter(db, rules.deploymentKey, opts), account: createRateLimiter(db, rules.account, opts) };
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
 * seconds, rounded up) and answers false.
 */
export async function admitRun(res: Response, limiter: RateLimiter, key: string, what: string): Promise<boolean> {
  const taken = await limiter.take(key);
  if (taken.allowed) return true;
  const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
  res.setHeader('Retry-After', String(seconds));
  res.status(429).json({ error: `Rate limit exceeded: at most ${limiter.rule.limit} runs per ${limiter.rule.windowMs / 1000} s ${what}. Try again in ${seconds} s.`, retryAfter: seconds });
  return false;
}

/** A deployment key as a bucket name: its hash, so the key itself is never stored with the counts. */
export function deploymentKeyBucket(workflowId: string, key: string): string {
  return `key:${workflowId}:${createHash('sha256').update(key).digest('hex')}`;
}

/** The registry call that checks a deployment key (and answers what it grants). */
export type DeploymentKeyResolver = Pick<Clients['registry'], 'resolveDeploymentKey'>;

/** The grant the rate limit resolved for a deployment-key run, kept for the execute route. */
export type DeploymentGrant = registry.ResolveDeploymentKeyResponse;

/**
 * Rate limits in front of POST /api/workflows/{id}/execute: a workflow's deployment key
 * (x-api-key that is not a personal key) by its key and by the account its runs act as (the
 * deployer), any other caller by their account; and in front of POST /api/executions/{id}/rerun, by
 * account. The deployment key is checked before anything is counted: a wrong key is 401 and takes no
 * slot (a guessed key opens no bucket of its own); the grant is left in `res.locals.deploymentGrant`
 * for the route. A caller that cannot be identified passes; the route answers 401.
 */
export function runRateLimits(auth: Authenticator, limiters: RunLimiters, keys: DeploymentKeyResolver): Router {
  const r = Router();
  r.post('/workflows/:id/execute', async (req, res, next) => {
    const key = req.header('x-api-key');
    if (key && !key.startsWith(API_KEY_PREFIX)) {
      const grant = await keys.resolveDeploymentKey({ workflowId: req.params.id, apiKey: key });
      res.locals.deploymentGrant = grant;
      if (!(await admitRun(res, limiters.deploymentKey, deploymentKeyBucket(req.params.id, key), 'for this deployment key'))) return;
      // The account the run acts as, as its webhook runs do: several workflows' keys do not multiply
      // one account's runs.
      if (await admitRun(res, limiters.account, `account:${grant.actorId || grant.deployedBy}`, 'for this account')) next();
      return;
    }
    const actor = await auth.authenticate(req);
    if (!actor || (await admitRun(res, limiters.account, `account:${actor.userId}`, 'for this account'))) next();
  });
  // A rerun starts a run too: it counts against the caller's account.
  r.post('/executions/:id/rerun', async (req, res, next) => {
    const actor = await auth.authenticate(req);
    if (!actor || (await admitRun(res, limiters.account, `account:${actor.userId}`, 'for this account'))) next();
  });
  return r;
}

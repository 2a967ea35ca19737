import { randomBytes } from 'node:crypto';
import { isReference, replaceEnvReferences, type WebhookTrigger } from '@weft/catalog';
import { TtlCache } from '../ttlCache.js';

/** The acting user's environment variables, decrypted (the registry's GetEnvironment). */
export type EnvironmentOf = () => Promise<Record<string, string>>;

type HookSecrets = Pick<WebhookTrigger, 'secret' | 'verifyToken'>;

/** A hook with its `{{KEY}}`s filled, and the keys that could not be (unknown, or empty) — then nothing is filled. */
export interface ResolvedHook<T> {
  hook: T;
  /** Keys referenced by the secret or verify token that the environment lacks or holds empty; never values. */
  missing: string[];
}

/** Whether a hook's secret or verify token holds a `{{KEY}}` to fill from the environment. */
function hasEnvReference(hook: HookSecrets): boolean {
  return [hook.secret, hook.verifyToken].some((value) => value.includes('{{') && isReference(value));
}

/**
 * The hook with its secret and verify token read as every other sub-block value is in a run: each
 * `{{KEY}}` replaced by the acting user's environment value. It fails closed: when any key is unknown
 * or its value empty, `missing` names those keys and the secret and verify token are both an
 * unguessable random text, so the call is refused as with a wrong secret (same answer: the caller
 * never learns why) — never accepted on the reference as typed (text every reader of the workflow
 * sees), never half filled, never no secret. The environment is asked only when a reference is
 * there. The resolved values verify the call and redact it; they are never logged.
 */
export async function withEnvSecrets<T extends HookSecrets>(hook: T, environment: EnvironmentOf): Promise<ResolvedHook<T>> {
  if (!hasEnvReference(hook)) return { hook, missing: [] };
  const env = await environment();
  const missing = new Set<string>();
  const fill = (value: string): string =>
    replaceEnvReferences(value, (key) => {
      const found = Object.hasOwn(env, key) ? env[key] : undefined;
      if (found === undefined || found === '') missing.add(key);
      return found ?? '';
    });
  const secret = fill(hook.secret);
  const verifyToken = fill(hook.verifyToken);
  if (missing.size > 0) {
    const unmatchable = randomBytes(32).toString('hex');
    return { hook: { ...hook, secret: unmatchable, verifyToken: unmatchable }, missing: [...missing] };
  }
  return { hook: { ...hook, secret, verifyToken }, missing: [] };
}

/** A cache of resolved hook secrets: `resolve` answers a fresh result for `key`, else asks and keeps it a while. */
export interface HookSecretCache {
  resolve<T extends HookSecrets>(key: string, hook: T, environment: EnvironmentOf): Promise<ResolvedHook<T>>;
}

/**
 * Keeps each hook's resolved secrets `ttlMs` (default 30 s), so a burst of calls — forged ones too, as
 * this comes before the signature check — asks the registry to decrypt the environment about once per
 * period, not per call. Keyed by the caller's key (workflow, acting user, block) and the secrets as
 * written, so a redeploy with another secret applies at once; an environment change applies to
 * webhook secrets within `ttlMs` (no other invalidation). Calls arriving while a question for the
 * same entry is unanswered wait for its answer (one question for N simultaneous deliveries, not N). A
 * failed question is not kept: it fails the calls that waited for it, and the next call asks again.
 * At most `maxEntries`, the oldest dropped first.
 */
export function createHookSecretCache(opts: { ttlMs?: number; now?: () => number; maxEntries?: number } = {}): HookSecretCache {
  const kept = new TtlCache<string, ResolvedHook<HookSecrets>>(opts.ttlMs ?? 30_000, opts.maxEntries ?? 1_000, opts.now);
  /** Questions still unanswered, by entry: dropped once answered (kept then) or failed (not kept). */
  const asking = new Map<string, Promise<ResolvedHook<HookSecrets> | undefined>>();
  function lookUp(entry: string, written: HookSecrets, environment: EnvironmentOf): Promise<ResolvedHook<HookSecrets> | undefined> {
    const pending = asking.get(entry);
    if (pending) return pending;
    const question = kept.remember(entry, () => withEnvSecrets(written, environment)).finally(() => asking.delete(entry));
    asking.set(entry, question);
    return question;
  }
  return {
    async resolve<T extends HookSecrets>(key: string, hook: T, environment: EnvironmentOf): Promise<ResolvedHook<T>> {
      if (!hasEnvReference(hook)) return { hook, missing: [] };
      const written = { secret: hook.secret, verifyToken: hook.verifyToken };
      const resolved = await lookUp(JSON.stringify([key, written.secret, written.verifyToken]), written, environment);
      // remember answers what withEnvSecrets answered, never undefined.
      if (!resolved) return withEnvSecrets(hook, environment);
      return { hook: { ...hook, secret: resolved.hook.secret, verifyToken: resolved.hook.verifyToken }, missing: resolved.missing };
    },
  };
}

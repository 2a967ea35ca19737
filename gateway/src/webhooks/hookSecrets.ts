import { isReference, replaceEnvReferences, type WebhookTrigger } from '@weft/catalog';

/** The acting user's environment variables, decrypted (the registry's GetEnvironment). */
export type EnvironmentOf = () => Promise<Record<string, string>>;

/** Whether a hook's secret or verify token holds a `{{KEY}}` to fill from the environment. */
function hasEnvReference(hook: Pick<WebhookTrigger, 'secret' | 'verifyToken'>): boolean {
  return [hook.secret, hook.verifyToken].some((value) => value.includes('{{') && isReference(value));
}

/**
 * The hook with its secret and verify token read as every other sub-block value is in a run: each
 * `{{KEY}}` replaced by the acting user's environment value. An unknown key stays as written (the
 * spec's rule), and so does a key whose value is empty: a secret the user wrote is never turned into
 * no secret, which would leave the hook unchecked. The environment is asked only when a reference is
 * there. The resolved values verify the call and redact it; they are never logged.
 */
export async function withEnvSecrets<T extends Pick<WebhookTrigger, 'secret' | 'verifyToken'>>(hook: T, environment: EnvironmentOf): Promise<T> {
  if (!hasEnvReference(hook)) return hook;
  const env = await environment();
  const fill = (value: string): string => replaceEnvReferences(value, (key) => (Object.hasOwn(env, key) && env[key] !== '' ? (env[key] ?? '') : `{{${key}}}`));
  return { ...hook, secret: fill(hook.secret), verifyToken: fill(hook.verifyToken) };
}

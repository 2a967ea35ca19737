import { patched } from '@temporalio/workflow';

/**
 * Patch of a `{{KEY}}` whose key is a well-formed name (`ENVIRONMENT_NAME` of @weft/catalog) that the
 * run's environment does not have: it fails the block before its call, `Environment variable "KEY" was
 * not found in <field>` (was: left as written, so a typo reached a model, an API or the sandbox as the
 * literal text and the block succeeded). It changes which activities run, so a run recorded before
 * replays as it ran. Asked only when such a key is met, so other runs record no marker.
 */
export const UNKNOWN_ENV_PATCH = 'unknown-env-var';

/** Whether this run fails a block reading an environment variable it does not have (workflow code only). */
export function unknownEnvPatched(): boolean {
  return patched(UNKNOWN_ENV_PATCH);
}

import { patched } from '@temporalio/workflow';

/**
 * Patch of how a reference reads a path inside a value (`<start.input.constructor>`,
 * `<fn.result.toString>`, `<loop.currentItem.__proto__>`): own members only, so a member every
 * object inherits that the value does not have as its own is missing, as any other missing field
 * (was: Object.prototype's member, a function, so a forEach over `<start.input.constructor>` failed
 * where an absent field runs no iteration). It changes what blocks get and which run, so a run
 * recorded before replays with the reads it made. Asked only when a path names such a member.
 */
export const OWN_PATHS_PATCH = 'own-value-paths';

/** Whether this run reads value paths by own members only (workflow code only). */
export function ownPathsPatched(): boolean {
  return patched(OWN_PATHS_PATCH);
}

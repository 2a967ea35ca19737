import { patched } from '@temporalio/workflow';

/**
 * Patch of how a run looks up blocks and variables by id or name: own keys only, so an id or name
 * like `constructor` or `toString` that no block or variable has is missing (was: Object.prototype's
 * member, so a dangling edge from `constructor` blocked its target and the run still succeeded, and
 * `<variable.constructor>` read as empty). It changes which blocks run, so a run recorded before
 * replays with the lookups it ran with. Asked only when the state names such an id (`namesInheritedIds`
 * of `graph.ts`) or a reference names such a variable.
 */
export const OWN_IDS_PATCH = 'own-block-ids';

/** Whether this run looks blocks and variables up by own keys only (workflow code only). */
export function ownIdsPatched(): boolean {
  return patched(OWN_IDS_PATCH);
}

import { patched } from '@temporalio/workflow';

/**
 * Patch of the run log's masks over secrets that overlap (`logMasks` with `whole`): every
 * occurrence is found and overlapping ones are masked as one stretch, where before the longest text
 * was replaced first and a tail of another one overlapping it stayed. The masks decide a failed
 * block's `{error}` output and the size of what `shrink` keeps aside, so a run recorded before
 * replays with the masks it ran with.
 */
export const SECRET_OVERLAP_PATCH = 'secret-overlap';

/** Whether this run masks overlapping secrets whole (workflow code only; asked only of runs with patch secret-forms). */
export function secretOverlapPatched(): boolean {
  return patched(SECRET_OVERLAP_PATCH);
}

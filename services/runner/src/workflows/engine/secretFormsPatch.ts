import { patched } from '@temporalio/workflow';

/**
 * Patch of the run log's masks in every encoded form (`logMasks` with allForms: secretForms, keys
 * kept): the masks decide a failed block's real `{error}` output and the size of what `shrink`
 * keeps aside, so a run recorded before (exact texts only, keys masked too) replays with those.
 */
export const SECRET_FORMS_PATCH = 'secret-forms';

/** Whether this run masks logs with every form of a secret (workflow code only). */
export function secretFormsPatched(): boolean {
  return patched(SECRET_FORMS_PATCH);
}

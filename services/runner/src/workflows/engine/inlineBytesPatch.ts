import { patched } from '@temporalio/workflow';

/**
 * Patch of what a run keeps inline in its history (`engine/inlineBudget.ts`): values measured in UTF-8
 * bytes (were UTF-16 units, so 200,000 CJK characters, ~600 KB, stayed inline) and, once the run has
 * kept its budget inline, values over 8 KB kept aside too. Both decide `storeBlob` activities, so a
 * run recorded before replays measuring as it ran. Asked only when the answer changes what is kept.
 */
export const INLINE_BYTES_PATCH = 'inline-bytes';

/** Whether this run keeps values inline by their UTF-8 bytes and within its budget (workflow code only). */
export function inlineBytesPatched(): boolean {
  return patched(INLINE_BYTES_PATCH);
}

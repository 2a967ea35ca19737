import { patched } from '@temporalio/workflow';
import { unknownBlockReference } from '@weft/catalog';
import type { RewrittenCode } from '../references.js';

/**
 * Runs recorded before code that names a block the workflow does not have (`<nosuch.result>`) failed
 * the block ran that code as written (a syntax or reference error in the sandbox): they replay as
 * they ran. Asked only when such a reference is found, so other runs record no marker.
 */
export const UNKNOWN_BLOCK_REFERENCE_PATCH = 'code-unknown-block-reference';

/**
 * Runs recorded between that check and this one failed the block for such a reference inside a
 * string literal too (`'<system.web>'`, text that ran before): they replay as they ran. Asked only
 * when a string holds one and the code outside strings none, so other runs record no marker.
 */
export const STRING_REFERENCE_AS_TEXT_PATCH = 'code-string-reference-as-text';

/**
 * The deploy check's message for the first reference to a block the workflow does not have written
 * where only a reference can be (outside strings); inside a string literal it is text, run as written.
 */
export function unknownReferenceIn(rewritten: readonly RewrittenCode[]): string | undefined {
  const inCode = rewritten.flatMap((r) => r.unknownBlocks)[0];
  if (inCode !== undefined) return patched(UNKNOWN_BLOCK_REFERENCE_PATCH) ? unknownBlockReference(inCode) : undefined;
  const inString = rewritten.flatMap((r) => r.unknownBlocksInStrings)[0];
  if (inString === undefined || patched(STRING_REFERENCE_AS_TEXT_PATCH)) return undefined;
  return patched(UNKNOWN_BLOCK_REFERENCE_PATCH) ? unknownBlockReference(inString) : undefined;
}

import { KEEP_ASIDE_OVER_BYTES, overBytes, utf8Bytes } from '@weft/catalog';
import { inlineBytesPatched } from './inlineBytesPatch.js';

/**
 * Bytes a run keeps inline in its history (block outputs and logged inputs, counted as kept) before
 * it keeps every value over INLINE_AFTER_BUDGET_BYTES aside too: Temporal terminates a run whose
 * history reaches 50 MB (and warns at 10 MB), and 2,500 outputs of 200 KB in a 50 × 50 loop, each
 * under the 256 KB threshold, would put 500 MB into it. An inline value may come into the history
 * more than once (the activity's answer, a container's results, the run's logs, stored whole as one
 * value each), so 1 MB: each such value the run stores of its own stays under Temporal's 2 MB
 * payload limit even without the claim check. Per history: a child workflow (workflow block) has its own.
 */
export const INLINE_BUDGET_BYTES = 1024 * 1024;
/** What a value may weigh to stay inline once the run's budget is spent. */
export const INLINE_AFTER_BUDGET_BYTES = 8 * 1024;

/** What the budget reads of a run: its bytes kept inline so far and its budget (RunWorkflowArgs.inlineBudgetBytes). */
export interface InlineAccount {
  inlineBytes: number;
  args: { inlineBudgetBytes?: number };
}

const spent = (run: InlineAccount) => run.inlineBytes > (run.args.inlineBudgetBytes ?? INLINE_BUDGET_BYTES);

/**
 * Whether a value's JSON text is kept aside. Over 256 KB of UTF-16 units it always was; over 256 KB
 * of UTF-8 bytes, or over 8 KB once the budget is spent, only since patch `inline-bytes` (asked only
 * then: a run recorded before kept those inline).
 */
export function keepsAside(run: InlineAccount, json: string): boolean {
  if (json.length > KEEP_ASIDE_OVER_BYTES) return true;
  return overBytes(json, spent(run) ? INLINE_AFTER_BUDGET_BYTES : KEEP_ASIDE_OVER_BYTES) && inlineBytesPatched();
}

/** Counts a value the run keeps inline against its budget (once spent, the count no longer matters: not measured). */
export function keptInline(run: InlineAccount, json: string): void {
  if (!spent(run)) run.inlineBytes += utf8Bytes(json);
}

/**
 * The threshold a function or tool call asks the integrations worker to keep its output aside over
 * (StoreLargeOutput.overLength, UTF-8 bytes): 8 KB once the run's budget is spent. Only the call's
 * input changes (Temporal does not compare it on replay, and the answer is in the history), but the
 * patch is asked (one marker per run) so that every run whose calls used the budget says so, and a
 * run recorded before asks as it ran.
 */
export function callKeepsAsideOver(run: InlineAccount): number {
  return spent(run) && inlineBytesPatched() ? INLINE_AFTER_BUDGET_BYTES : KEEP_ASIDE_OVER_BYTES;
}

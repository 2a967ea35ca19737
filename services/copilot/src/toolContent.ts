import type { ToolOutcome } from './types.js';

/**
 * What the model reads of a tool's outcome (the tool message's content): `{success, data}`, or `{success, error}`
 * with the spec's message word for word, and a `hint` beside it when the tool says how to call it right.
 */
export function toolResultContent(outcome: ToolOutcome): string {
  if (outcome.success) return JSON.stringify({ success: true, data: outcome.data });
  return JSON.stringify({ success: false, error: outcome.error, ...(outcome.hint ? { hint: outcome.hint } : {}) });
}

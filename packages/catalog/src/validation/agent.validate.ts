import { text } from '../paramValues.js';

/**
 * Agent: Max Tokens, when given, is a positive whole number — "-5" or "lots" is refused by validate and
 * deploy, and fails the block at run time (the runner's agent checks its resolved params with this, behind
 * patch agent-params-checked), rather than running with the provider's default.
 */
export function validateAgent(params: Record<string, unknown>): string | undefined {
  const maxTokens = text(params.maxTokens);
  if (maxTokens === '' || (/^\d+$/.test(maxTokens) && Number(maxTokens) > 0)) return undefined;
  return `Max Tokens must be a positive whole number (got ${maxTokens})`;
}

import { text } from '../paramValues.js';

/**
 * Agent: Max Tokens, when given, is a positive whole number — the model call drops any other value,
 * so "-5" or "lots" would run with the provider's default instead of what the user meant.
 */
export function validateAgent(params: Record<string, unknown>): string | undefined {
  const maxTokens = text(params.maxTokens);
  if (maxTokens === '' || (/^\d+$/.test(maxTokens) && Number(maxTokens) > 0)) return undefined;
  return `Max Tokens must be a positive whole number (got ${maxTokens})`;
}

import { text } from '../paramValues.js';

/**
 * Agent: Max Tokens, when given, is a positive whole number — "-5", "0", "12.5" or "lots" is refused by validate
 * and deploy, and fails the block at run time (the runner's agent checks its resolved params with this, behind
 * patch agent-params-checked), rather than running with the provider's default. A number written otherwise
 * whose value is a positive whole number ("1000.0", "1e3") is taken, as the runner read and sent it before the
 * check; hex, binary and octal texts ("0x10") are not.
 */
export function validateAgent(params: Record<string, unknown>): string | undefined {
  const maxTokens = text(params.maxTokens);
  const value = Number(maxTokens);
  if (maxTokens === '' || (!/^[+-]?0[xob]/i.test(maxTokens) && Number.isInteger(value) && value > 0)) return undefined;
  return `Max Tokens must be a positive whole number (got ${maxTokens})`;
}

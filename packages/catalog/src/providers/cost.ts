import { EMBEDDING_MODEL_PRICES } from './embeddings.js';
import { getModel } from './registry.js';
import type { ModelPricing } from './types.js';

/** Price used for a model the catalogue does not know: 1 / 0.5 / 5 dollars per million (§9). */
export const FALLBACK_PRICING: ModelPricing = { input: 1, cachedInput: 0.5, output: 5, updatedAt: '2025-03-21' };

/** Rough cost charged per streamed token before the real usage is known (§9). */
export const STREAMING_COST_PER_TOKEN = 0.0001;

/** Cost of one model call in dollars, split into input and output, with the pricing used. */
export interface CallCost {
  input: number;
  output: number;
  total: number;
  pricing: ModelPricing;
}

const PER_MILLION = 1_000_000;

/** The price of a chat or embedding model, falling back to `FALLBACK_PRICING` when unknown. */
export function getModelPricing(modelId: string): ModelPricing {
  const known = getModel(modelId);
  if (known) return known.pricing;
  const embedding = EMBEDDING_MODEL_PRICES[modelId.trim().toLowerCase()];
  if (embedding !== undefined) {
    return { input: embedding, cachedInput: embedding, output: 0, updatedAt: FALLBACK_PRICING.updatedAt };
  }
  return FALLBACK_PRICING;
}

/** Rounds to a millionth of a dollar so sums of many calls stay readable. */
function roundMicro(amount: number): number {
  return Math.round(amount * PER_MILLION) / PER_MILLION;
}

/** Cost of a call from its token counts; `cached` prices the prompt at the cached-input rate. */
export function calculateCost(modelId: string, promptTokens = 0, completionTokens = 0, cached = false): CallCost {
  const pricing = getModelPricing(modelId);
  const input = (promptTokens * (cached ? pricing.cachedInput : pricing.input)) / PER_MILLION;
  const output = (completionTokens * pricing.output) / PER_MILLION;
  return { input: roundMicro(input), output: roundMicro(output), total: roundMicro(input + output), pricing };
}

/** Estimated cost of a streamed answer from its token count, at 0.0001 per token. */
export function estimateStreamingCost(tokens: number): number {
  return roundMicro(tokens * STREAMING_COST_PER_TOKEN);
}

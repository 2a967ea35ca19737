import type { ModelCapabilities, ModelDefinition } from './types.js';

/** Builds a model entry from its §9 price row (dollars per million tokens). */
export function model(
  id: string,
  price: readonly [input: number, cachedInput: number, output: number],
  updatedAt: string,
  capabilities: ModelCapabilities = {},
): ModelDefinition {
  const [input, cachedInput, output] = price;
  return { id, pricing: { input, cachedInput, output, updatedAt }, capabilities };
}

/** Temperature range 0 to 2 (OpenAI gpt-4o and 4.1 family, Google). */
export const TEMPERATURE_0_2 = { temperature: { min: 0, max: 2 } } as const satisfies ModelCapabilities;

/** Temperature range 0 to 1 (Anthropic, xAI). */
export const TEMPERATURE_0_1 = { temperature: { min: 0, max: 1 } } as const satisfies ModelCapabilities;

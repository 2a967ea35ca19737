import { TEMPERATURE_0_1, model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-05-22';
const SONNET: readonly [number, number, number] = [3, 1.5, 15];

/** Anthropic Claude models; computer use on the 3.x sonnets (§9). */
export const anthropicProvider: ProviderConfig = {
  id: 'anthropic',
  name: 'Anthropic',
  description: "Anthropic's Claude models",
  version: '1.0.0',
  defaultModel: 'claude-sonnet-4-0',
  modelPatterns: ['^claude'],
  capabilities: { toolUsageControl: true },
  models: [
    model('claude-sonnet-4-0', SONNET, UPDATED, TEMPERATURE_0_1),
    model('claude-opus-4-0', [15, 7.5, 75], UPDATED, TEMPERATURE_0_1),
    model('claude-3-7-sonnet-latest', SONNET, UPDATED, { ...TEMPERATURE_0_1, computerUse: true }),
    model('claude-3-5-sonnet-latest', SONNET, UPDATED, { ...TEMPERATURE_0_1, computerUse: true }),
  ],
};

import { TEMPERATURE_0_2, model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-06-17';

/** OpenAI chat models. */
export const openaiProvider: ProviderConfig = {
  id: 'openai',
  name: 'OpenAI',
  description: "OpenAI's GPT and reasoning models",
  version: '1.0.0',
  defaultModel: 'gpt-4o',
  modelPatterns: ['^gpt', '^o1', '^o3', '^o4'],
  capabilities: { toolUsageControl: true },
  models: [
    model('gpt-4o', [2.5, 1.25, 10], UPDATED, TEMPERATURE_0_2),
    model('o1', [15, 7.5, 60], UPDATED),
    model('o3', [2, 0.5, 8], UPDATED),
    model('o4-mini', [1.1, 0.275, 4.4], UPDATED),
    model('gpt-4.1', [2, 0.5, 8], UPDATED, TEMPERATURE_0_2),
    model('gpt-4.1-nano', [0.1, 0.025, 0.4], UPDATED, TEMPERATURE_0_2),
    model('gpt-4.1-mini', [0.4, 0.1, 1.6], UPDATED, TEMPERATURE_0_2),
  ],
};

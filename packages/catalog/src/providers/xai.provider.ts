import { TEMPERATURE_0_1, model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-07-10';

/**
 * xAI Grok models. §9 gives two defaults ("both readings"): the adapter's grok-3-latest and the
 * catalogue's grok-4-latest. We pick the catalogue reading, grok-4-latest, as the default model.
 */
export const xaiProvider: ProviderConfig = {
  id: 'xai',
  name: 'xAI',
  description: "xAI's Grok models",
  version: '1.0.0',
  defaultModel: 'grok-4-latest',
  modelPatterns: ['^grok'],
  capabilities: { toolUsageControl: true },
  models: [
    model('grok-4-latest', [5, 2.5, 25], UPDATED, TEMPERATURE_0_1),
    model('grok-3-latest', [3, 1.5, 15], UPDATED, TEMPERATURE_0_1),
    model('grok-3-fast-latest', [5, 2.5, 25], UPDATED, TEMPERATURE_0_1),
  ],
};

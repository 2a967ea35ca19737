import { TEMPERATURE_0_2, model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-06-17';

/** Google Gemini models (generateContent API). */
export const googleProvider: ProviderConfig = {
  id: 'google',
  name: 'Google',
  description: "Google's Gemini models",
  version: '1.0.0',
  defaultModel: 'gemini-2.5-pro',
  modelPatterns: ['^gemini'],
  capabilities: { toolUsageControl: true },
  models: [
    model('gemini-2.5-pro', [0.15, 0.075, 0.6], UPDATED, TEMPERATURE_0_2),
    model('gemini-2.5-flash', [0.15, 0.075, 0.6], UPDATED, TEMPERATURE_0_2),
  ],
};

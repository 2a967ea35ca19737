import { model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-03-21';

/** Deepseek chat and reasoning models (public v1 API). */
export const deepseekProvider: ProviderConfig = {
  id: 'deepseek',
  name: 'Deepseek',
  description: "Deepseek's chat and reasoning models",
  version: '1.0.0',
  defaultModel: 'deepseek-chat',
  modelPatterns: ['^deepseek'],
  capabilities: { toolUsageControl: true },
  models: [
    model('deepseek-chat', [0.75, 0.4, 1], UPDATED),
    model('deepseek-v3', [0.75, 0.4, 1], UPDATED),
    model('deepseek-r1', [1, 0.5, 1.5], UPDATED),
  ],
};

import { model } from './model.js';
import type { ProviderConfig } from './types.js';

/** Cerebras-hosted Llama; no tool usage control (§9). */
export const cerebrasProvider: ProviderConfig = {
  id: 'cerebras',
  name: 'Cerebras',
  description: 'Fast inference of open models on Cerebras hardware',
  version: '1.0.0',
  defaultModel: 'cerebras/llama-3.3-70b',
  modelPatterns: ['^cerebras'],
  capabilities: { toolUsageControl: false },
  models: [model('cerebras/llama-3.3-70b', [0.94, 0.47, 0.94], '2025-03-21', { toolUsageControl: false })],
};

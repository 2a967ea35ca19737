import { TEMPERATURE_0_2, model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-06-15';

/** Azure-hosted OpenAI deployments; api version 2024-07-01-preview. */
export const azureOpenaiProvider: ProviderConfig = {
  id: 'azure-openai',
  name: 'Azure OpenAI',
  description: 'OpenAI models deployed on Microsoft Azure',
  version: '2024-07-01-preview',
  defaultModel: 'azure/gpt-4o',
  modelPatterns: ['^azure/'],
  capabilities: { toolUsageControl: true },
  models: [
    model('azure/gpt-4o', [2.5, 1.25, 10], UPDATED, TEMPERATURE_0_2),
    model('azure/o3', [10, 2.5, 40], UPDATED),
    model('azure/o4-mini', [1.1, 0.275, 4.4], UPDATED),
    model('azure/gpt-4.1', [2, 0.5, 8], UPDATED, TEMPERATURE_0_2),
    model('azure/model-router', [2, 0.5, 8], UPDATED),
  ],
};

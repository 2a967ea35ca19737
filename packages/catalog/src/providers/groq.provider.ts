import { model } from './model.js';
import type { ProviderConfig } from './types.js';

const UPDATED = '2025-03-21';
const NO_TOOL_CONTROL = { toolUsageControl: false } as const;

/**
 * Groq-hosted open models; no tool usage control (§9). The spec elides the default's suffix
 * ("groq/meta-llama/{hash}"); we use the llama-4-scout model it prices.
 */
export const groqProvider: ProviderConfig = {
  id: 'groq',
  name: 'Groq',
  description: 'Fast inference of open models on Groq hardware',
  version: '1.0.0',
  defaultModel: 'groq/meta-llama/llama-4-scout-17b-16e-instruct',
  modelPatterns: ['^groq'],
  capabilities: NO_TOOL_CONTROL,
  models: [
    model('groq/meta-llama/llama-4-scout-17b-16e-instruct', [0.4, 0.2, 0.6], UPDATED, NO_TOOL_CONTROL),
    model('groq/deepseek-r1-distill-llama-70b', [0.75, 0.38, 0.99], UPDATED, NO_TOOL_CONTROL),
    model('groq/qwen-qwq-32b', [0.29, 0.29, 0.39], UPDATED, NO_TOOL_CONTROL),
  ],
};

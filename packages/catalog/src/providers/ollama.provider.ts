import type { ProviderConfig } from './types.js';

/** Default address of a local Ollama server. */
export const OLLAMA_DEFAULT_URL = 'http://localhost:11434';

/**
 * Local models served by Ollama. The list is whatever the local server reports at runtime, so the
 * catalogue ships it empty; callers pass the reported names to `listModelIds` / `modelOptions`.
 * Any model no provider claims is routed here (§5 "the local provider is used").
 */
export const ollamaProvider: ProviderConfig = {
  id: 'ollama',
  name: 'Ollama',
  description: 'Local models served by Ollama',
  version: '1.0.0',
  defaultModel: '',
  modelPatterns: [],
  capabilities: { toolUsageControl: true },
  models: [],
};

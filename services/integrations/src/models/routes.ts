import { json, type Route } from '../routes/router.js';
import type { ModelConfig } from './config.js';
import { listOllamaModels } from './providers/ollama.provider.js';

/**
 * The model layer's internal routes, reached through the gateway (`/api/...`):
 * `GET /providers/ollama/models` answers `{models: string[]}`, the models the local Ollama server
 * lists (`GET {OLLAMA_URL}/api/tags`); an unreachable server lists none (the model pickers then
 * offer the known providers' models only).
 */
export function modelRoutes(config: ModelConfig, fetchImpl: typeof fetch = fetch): Route[] {
  return [{ method: 'GET', path: '/providers/ollama/models', handle: async () => json({ models: await listOllamaModels(config, fetchImpl) }) }];
}

import OpenAI from 'openai';
import type { ModelConfig } from '../config.js';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/**
 * A local Ollama server through its OpenAI route (`OLLAMA_URL`, default http://localhost:11434, + /v1).
 * Ollama ignores a forced tool_choice, so a forced tool is the only tool offered in that request.
 */
export const ollamaAdapter: ProviderAdapter = {
  id: 'ollama',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: `${config.baseUrls.ollama}/v1`, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'ollama', wireModel: req.model, toolUsageControl: true, honoursForcedChoice: false }, sink, signal);
  },
};

/** The models the local server reports (`GET /api/tags`); none when it is unreachable or answers badly. */
export async function listOllamaModels(config: ModelConfig, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  try {
    const res = await fetchImpl(`${config.baseUrls.ollama}/api/tags`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return [];
    const body = (await res.json()) as { models?: Array<{ name?: unknown }> };
    return (body.models ?? []).flatMap((m) => (typeof m.name === 'string' ? [m.name] : []));
  } catch {
    return [];
  }
}

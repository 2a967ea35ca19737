import OpenAI from 'openai';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/**
 * The model names Deepseek's API knows for the catalogue's: it serves only deepseek-chat (V3) and
 * deepseek-reasoner (R1), so the catalogue's deepseek-v3 and deepseek-r1 are mapped at the call.
 */
const DEEPSEEK_WIRE_MODELS: Readonly<Record<string, string>> = { 'deepseek-v3': 'deepseek-chat', 'deepseek-r1': 'deepseek-reasoner' };

/** The model name sent to Deepseek for a catalogue model. */
export function deepseekWireModel(model: string): string {
  return DEEPSEEK_WIRE_MODELS[model] ?? model;
}

/**
 * Deepseek's public v1 API (OpenAI-compatible; base URL `WEFT_DEEPSEEK_BASE_URL`). Its response_format takes
 * only text and json_object: a response schema goes as json_object with the schema in the system prompt.
 */
export const deepseekAdapter: ProviderAdapter = {
  id: 'deepseek',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.deepseek, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'deepseek', wireModel: deepseekWireModel(req.model), toolUsageControl: true, responseFormat: 'json_object' }, sink, signal);
  },
};

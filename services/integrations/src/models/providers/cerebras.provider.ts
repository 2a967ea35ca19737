import OpenAI from 'openai';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/**
 * Cerebras (OpenAI-compatible; base URL `WEFT_CEREBRAS_BASE_URL`). It takes no tool usage control
 * (§9): `tool_choice` is never sent; the loop skips its repeated identical tool calls (§4).
 */
export const cerebrasAdapter: ProviderAdapter = {
  id: 'cerebras',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.cerebras, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'cerebras', wireModel: req.model.replace(/^cerebras\//, ''), toolUsageControl: false }, sink, signal);
  },
};

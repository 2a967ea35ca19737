import OpenAI from 'openai';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/** Deepseek's public v1 API (OpenAI-compatible; base URL `WEFT_DEEPSEEK_BASE_URL`). */
export const deepseekAdapter: ProviderAdapter = {
  id: 'deepseek',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.deepseek, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'deepseek', wireModel: req.model, toolUsageControl: true }, sink, signal);
  },
};

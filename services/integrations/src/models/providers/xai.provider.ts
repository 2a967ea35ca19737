import OpenAI from 'openai';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/** xAI's Grok models (OpenAI-compatible; base URL `WEFT_XAI_BASE_URL`). */
export const xaiAdapter: ProviderAdapter = {
  id: 'xai',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.xai, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'xai', wireModel: req.model, toolUsageControl: true }, sink, signal);
  },
};

import OpenAI from 'openai';
import { supportsToolUsageControl } from '@weft/catalog';
import type { ProviderAdapter } from '../types.js';
import { callCompatible, isReasoningModel } from './openaiCompatible.js';

/** OpenAI chat completions through the official client (base URL `WEFT_OPENAI_BASE_URL`); reasoning models get max_completion_tokens. */
export const openaiAdapter: ProviderAdapter = {
  id: 'openai',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.openai, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'openai', wireModel: req.model, toolUsageControl: supportsToolUsageControl(req.model), reasoning: isReasoningModel(req.model) }, sink, signal);
  },
};

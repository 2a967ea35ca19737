import OpenAI from 'openai';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/** Groq's OpenAI route (base URL `WEFT_GROQ_BASE_URL`, ending in /openai/v1); no tool usage control (§9). */
export const groqAdapter: ProviderAdapter = {
  id: 'groq',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.groq, maxRetries: 0 });
    return callCompatible(client, req, { provider: 'groq', wireModel: req.model.replace(/^groq\//, ''), toolUsageControl: false }, sink, signal);
  },
};

import OpenAI from 'openai';
import type { ProviderAdapter } from '../types.js';
import { callCompatible } from './openaiCompatible.js';

/** Groq models that take a json_schema response format (Groq's structured outputs); the others get json_object. */
const GROQ_JSON_SCHEMA = /^(?:openai\/gpt-oss-|meta-llama\/llama-4-|moonshotai\/kimi-k2)/;
/** Of those, the ones with strict (constrained) decoding; the rest take the schema best-effort (strict false). */
const GROQ_STRICT_SCHEMA = /^openai\/gpt-oss-/;

/**
 * Groq's OpenAI route (base URL `WEFT_GROQ_BASE_URL`, ending in /openai/v1); no tool usage control (§9).
 * A response schema goes as json_schema where the model has structured outputs, else as json_object with the
 * schema in the system prompt.
 */
export const groqAdapter: ProviderAdapter = {
  id: 'groq',
  call(req, config, sink, signal) {
    const client = new OpenAI({ apiKey: req.apiKey, baseURL: config.baseUrls.groq, maxRetries: 0 });
    const wireModel = req.model.replace(/^groq\//, '');
    return callCompatible(
      client,
      req,
      { provider: 'groq', wireModel, toolUsageControl: false, responseFormat: GROQ_JSON_SCHEMA.test(wireModel) ? 'json_schema' : 'json_object', strictSchemas: GROQ_STRICT_SCHEMA.test(wireModel) },
      sink,
      signal,
    );
  },
};

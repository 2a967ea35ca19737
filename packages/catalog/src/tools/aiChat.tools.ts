import type { ToolConfig } from '../types.js';
import { defineTool, may, need } from './define.js';

/** max_tokens sent when the given value is not numeric (§7). */
export const AI_CHAT_MAX_TOKENS_FALLBACK = 10_000;

const authHeaders = { Authorization: 'Bearer {apiKey}', 'Content-Type': 'application/json' };

/** Hugging Face and Perplexity chat completions. */
export const aiChatTools: ToolConfig[] = [
  defineTool({
    id: 'huggingface_chat',
    name: 'Hugging Face Chat',
    description: 'Generate completions using the Hugging Face Inference API',
    params: {
      apiKey: need('string', 'user', 'Hugging Face API token'),
      provider: need('string', 'user', "The inference provider, sent as the model's suffix (model:provider; default novita)"),
      model: need('string', 'user', 'Model to use for chat completions'),
      content: need('string', 'llm', 'The user message content to send to the model'),
      systemPrompt: may('string', 'llm', 'System prompt to guide the model behavior'),
      maxTokens: may('number', 'user', 'Maximum number of tokens to generate'),
      temperature: may('number', 'user', 'Sampling temperature (0-2)', 0.7),
      stream: may('boolean', 'hidden', 'Whether to stream the response', false),
    },
    request: { method: 'POST', url: 'https://router.huggingface.co/v1/chat/completions', headers: authHeaders },
  }),
  defineTool({
    id: 'perplexity_chat',
    name: 'Perplexity Chat',
    description: 'Generate completions using Perplexity AI chat models',
    params: {
      apiKey: need('string', 'user', 'Perplexity API key'),
      model: need('string', 'user', 'Model to use for chat completions (e.g., sonar, sonar-pro)'),
      content: need('string', 'llm', 'The user message content to send to the model'),
      systemPrompt: may('string', 'llm', 'System prompt to guide the model behavior'),
      max_tokens: may('number', 'user', `Maximum number of tokens to generate (falls back to ${AI_CHAT_MAX_TOKENS_FALLBACK} when not numeric)`),
      temperature: may('number', 'user', 'Sampling temperature between 0 and 1', 0.7),
    },
    request: { method: 'POST', url: 'https://api.perplexity.ai/chat/completions', headers: authHeaders },
  }),
];

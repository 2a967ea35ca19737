import type { ProviderId } from '../providers/types.js';
import type { ToolConfig } from '../types.js';
import { chatToolId } from '../blocks/modelTool.js';
import { defineTool, may, need } from './define.js';

const PROVIDER_NAMES: ReadonlyArray<readonly [ProviderId, string]> = [
  ['openai', 'OpenAI'],
  ['azure-openai', 'Azure OpenAI'],
  ['anthropic', 'Anthropic'],
  ['google', 'Google'],
  ['deepseek', 'Deepseek'],
  ['xai', 'xAI'],
  ['cerebras', 'Cerebras'],
  ['groq', 'Groq'],
  ['ollama', 'Ollama'],
];

/** Parameters of a provider call (the LLM request of §3). */
const llmParams = {
  model: need('string', 'user', 'Model to use'),
  systemPrompt: may('string', 'user', 'System prompt to send to the model'),
  context: may('string', 'llm', 'User message or context for the model'),
  messages: may('array', 'hidden', 'Conversation messages'),
  tools: may('array', 'user', 'Tools the model may call'),
  temperature: may('number', 'user', 'Sampling temperature'),
  maxTokens: may('number', 'user', 'Maximum tokens in the answer'),
  responseFormat: may('json', 'user', 'JSON schema for structured output (name, schema, strict)'),
  stream: may('boolean', 'hidden', 'Whether to stream the answer'),
  apiKey: may('string', 'user', 'Provider API key'),
} as const;

/** One chat tool per provider; all go through the internal provider route. */
export const chatTools: ToolConfig[] = [
  ...PROVIDER_NAMES.map(([provider, name]) =>
    defineTool({
      id: chatToolId(provider),
      name: `${name} Chat`,
      description: `Send a chat request to ${name} models`,
      params: llmParams,
      request: { method: 'POST', url: `/api/providers?provider=${provider}` },
    }),
  ),
  defineTool({
    id: 'agent',
    name: 'Agent',
    description: 'Run a language model with optional tools, calling tools in a loop of up to 10 iterations',
    params: llmParams,
    request: { method: 'POST', url: '/api/providers' },
  }),
  defineTool({
    id: 'router',
    name: 'Router',
    description: 'Ask a language model which connected block should run next',
    params: { ...llmParams, prompt: need('string', 'llm', 'What to route on') },
    request: { method: 'POST', url: '/api/providers' },
  }),
];

import type { ModelProviderId } from '@weft/contracts';
import type { ProviderAdapter } from '../types.js';
import { anthropicAdapter } from './anthropic.provider.js';
import { azureOpenaiAdapter } from './azureOpenai.provider.js';
import { cerebrasAdapter } from './cerebras.provider.js';
import { deepseekAdapter } from './deepseek.provider.js';
import { geminiAdapter } from './gemini.provider.js';
import { groqAdapter } from './groq.provider.js';
import { huggingfaceAdapter } from './huggingface.provider.js';
import { ollamaAdapter } from './ollama.provider.js';
import { openaiAdapter } from './openai.provider.js';
import { xaiAdapter } from './xai.provider.js';

/** Every provider adapter by provider id. */
export const ADAPTERS: Record<ModelProviderId, ProviderAdapter> = {
  openai: openaiAdapter,
  'azure-openai': azureOpenaiAdapter,
  anthropic: anthropicAdapter,
  google: geminiAdapter,
  deepseek: deepseekAdapter,
  xai: xaiAdapter,
  cerebras: cerebrasAdapter,
  groq: groqAdapter,
  ollama: ollamaAdapter,
  huggingface: huggingfaceAdapter,
};

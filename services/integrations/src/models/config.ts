import { AZURE_DEFAULT_API_VERSION, OLLAMA_DEFAULT_URL } from '@weft/catalog';
import { MODEL_KEY_VARIABLES, type ModelProviderId } from '@weft/contracts';
import { ModelRequestError } from './errors.js';

/** Where each provider is reached and the operator's server-side key for it (README's table). */
export interface ModelConfig {
  baseUrls: Record<ModelProviderId, string>;
  keys: Partial<Record<ModelProviderId, string>>;
  azureEndpoint?: string;
  azureApiVersion: string;
}

/** Azure OpenAI api version (§9): the catalogue's, which the agent form shows. */
export const AZURE_API_VERSION = AZURE_DEFAULT_API_VERSION;

/** Documented base URLs; `WEFT_<PROVIDER>_BASE_URL` overrides each (the same variables the tools use). */
export const DEFAULT_BASE_URLS: Record<ModelProviderId, string> = {
  openai: 'https://api.openai.com/v1',
  'azure-openai': '',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  deepseek: 'https://api.deepseek.com/v1',
  xai: 'https://api.x.ai/v1',
  cerebras: 'https://api.cerebras.ai/v1',
  groq: 'https://api.groq.com/openai/v1',
  ollama: OLLAMA_DEFAULT_URL,
  huggingface: 'https://router.huggingface.co',
};

const BASE_URL_VARIABLES: Partial<Record<ModelProviderId, string>> = {
  openai: 'WEFT_OPENAI_BASE_URL',
  anthropic: 'WEFT_ANTHROPIC_BASE_URL',
  google: 'WEFT_GEMINI_BASE_URL',
  deepseek: 'WEFT_DEEPSEEK_BASE_URL',
  xai: 'WEFT_XAI_BASE_URL',
  cerebras: 'WEFT_CEREBRAS_BASE_URL',
  groq: 'WEFT_GROQ_BASE_URL',
  ollama: 'OLLAMA_URL',
  huggingface: 'WEFT_HUGGINGFACE_BASE_URL',
};

/** Operators' keys, used when a block leaves its API key empty. */
export const KEY_VARIABLES: Readonly<Record<ModelProviderId, string>> = MODEL_KEY_VARIABLES;

function trimmed(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** Reads the model layer's variables (all optional). */
export function modelConfigFromEnv(env: Record<string, string | undefined> = process.env): ModelConfig {
  const baseUrls = { ...DEFAULT_BASE_URLS };
  for (const [provider, variable] of Object.entries(BASE_URL_VARIABLES) as Array<[ModelProviderId, string]>) {
    const configured = trimmed(env[variable]);
    if (configured) baseUrls[provider] = configured.replace(/\/+$/, '');
  }
  const keys: Partial<Record<ModelProviderId, string>> = {};
  for (const [provider, variable] of Object.entries(KEY_VARIABLES) as Array<[ModelProviderId, string]>) {
    const key = trimmed(env[variable]);
    if (key) keys[provider] = key;
  }
  const azureEndpoint = trimmed(env.AZURE_OPENAI_ENDPOINT);
  return { baseUrls, keys, ...(azureEndpoint ? { azureEndpoint } : {}), azureApiVersion: trimmed(env.AZURE_OPENAI_API_VERSION) ?? AZURE_API_VERSION };
}

/** Display names in the "API key is required for …" messages (§5). */
const KEY_NAMES: Partial<Record<ModelProviderId, string>> = {
  anthropic: 'Anthropic',
  cerebras: 'Cerebras',
  deepseek: 'Deepseek',
  google: 'Gemini',
  groq: 'Groq',
  xai: 'xAI',
  openai: 'OpenAI',
  'azure-openai': 'Azure OpenAI',
  huggingface: 'Hugging Face',
};

/** The block's key, else the operator's; Ollama needs none. A missing key is a user error naming the provider. */
export function resolveApiKey(config: ModelConfig, provider: ModelProviderId, given: string | undefined): string {
  const key = trimmed(given) ?? config.keys[provider];
  if (key) return key;
  if (provider === 'ollama') return 'ollama';
  throw new ModelRequestError(`API key is required for ${KEY_NAMES[provider] ?? provider}`);
}

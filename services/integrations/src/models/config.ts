import { AZURE_DEFAULT_API_VERSION, OLLAMA_DEFAULT_URL } from '@weft/catalog';
import { MODEL_KEY_NAMES, MODEL_KEY_VARIABLES, type ModelProviderId } from '@weft/contracts';
import { DEFAULT_POLICY, policyFromEnv, type AddressPolicy } from '../net/addressPolicy.js';
import { ModelRequestError } from './errors.js';

/** Where each provider is reached and the operator's server-side key for it (README's table). */
export interface ModelConfig {
  baseUrls: Record<ModelProviderId, string>;
  keys: Partial<Record<ModelProviderId, string>>;
  azureEndpoint?: string;
  azureApiVersion: string;
  /** Addresses a call to a URL the user typed (a block's Azure endpoint) may reach: the tools' outbound guard (absent: public addresses only). */
  outbound?: AddressPolicy;
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

/** The outbound policy of calls to URLs a user typed. */
export function outboundPolicy(config: ModelConfig): AddressPolicy {
  return config.outbound ?? DEFAULT_POLICY;
}

/** Reads the model layer's variables (all optional); the outbound policy is the tools' (WEFT_ALLOW_PRIVATE_NETWORK, WEFT_OUTBOUND_ALLOWLIST). */
export function modelConfigFromEnv(env: Record<string, string | undefined> = process.env, outbound: AddressPolicy = policyFromEnv(env)): ModelConfig {
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
  return { baseUrls, keys, ...(azureEndpoint ? { azureEndpoint } : {}), azureApiVersion: trimmed(env.AZURE_OPENAI_API_VERSION) ?? AZURE_API_VERSION, outbound };
}

/**
 * A block that names its own Azure endpoint must give its own key: the operator's AZURE_OPENAI_API_KEY
 * goes only to the operator's AZURE_OPENAI_ENDPOINT (spec 001 §5 has no message for this; ours names both fields).
 */
export const AZURE_OWN_KEY_REQUIRED =
  "API key is required for Azure OpenAI when the block sets its own endpoint: enter the block's API Key (apiKey) or clear Azure OpenAI Endpoint (azureEndpoint) to use the server's AZURE_OPENAI_ENDPOINT";

/** The endpoint compared as scheme, host, port and path without trailing slashes; undefined when it is not an http(s) URL. */
function endpointIdentity(endpoint: string): string | undefined {
  try {
    const url = new URL(endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

export const AZURE_ENDPOINT_INVALID = 'Azure OpenAI Endpoint (azureEndpoint) must be an http or https URL, like https://your-resource.openai.azure.com';

/**
 * The Azure endpoint a call goes to: the block's when it names one (`user` unless it is the
 * operator's own endpoint written again), else AZURE_OPENAI_ENDPOINT; undefined when neither is set.
 */
export function azureTarget(config: ModelConfig, given: string | undefined): { endpoint: string; user: boolean } | undefined {
  const typed = trimmed(given);
  if (!typed) return config.azureEndpoint ? { endpoint: config.azureEndpoint, user: false } : undefined;
  const identity = endpointIdentity(typed);
  if (!identity) throw new ModelRequestError(AZURE_ENDPOINT_INVALID);
  const operator = config.azureEndpoint ? endpointIdentity(config.azureEndpoint) : undefined;
  return { endpoint: typed, user: identity !== operator };
}

/**
 * The block's key, else the operator's; Ollama needs none. A missing key is a user error naming the
 * provider. For Azure, `azureEndpoint` is the block's: the operator's key is never used with an endpoint the user typed.
 */
export function resolveApiKey(config: ModelConfig, provider: ModelProviderId, given: string | undefined, azureEndpoint?: string): string {
  const own = trimmed(given);
  if (own) return own;
  if (provider === 'azure-openai' && azureTarget(config, azureEndpoint)?.user) throw new ModelRequestError(AZURE_OWN_KEY_REQUIRED);
  const key = config.keys[provider];
  if (key) return key;
  if (provider === 'ollama') return 'ollama';
  throw new ModelRequestError(`API key is required for ${MODEL_KEY_NAMES[provider] ?? provider}`);
}

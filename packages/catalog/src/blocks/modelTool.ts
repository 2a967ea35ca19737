import { getProvider, getProviderIdForModel, listModelIds } from '../providers/registry.js';
import type { ProviderId } from '../providers/types.js';
import type { SubBlockConfig, ToolSelector } from '../types.js';
import { options } from './fields.js';

/** The chat tool id that calls a provider. */
export function chatToolId(provider: ProviderId): string {
  switch (provider) {
    case 'openai':
      return 'openai_chat';
    case 'azure-openai':
      return 'azure_openai_chat';
    case 'anthropic':
      return 'anthropic_chat';
    case 'google':
      return 'google_chat';
    case 'deepseek':
      return 'deepseek_chat';
    case 'xai':
      return 'xai_chat';
    case 'cerebras':
      return 'cerebras_chat';
    case 'groq':
      return 'groq_chat';
    case 'ollama':
      return 'ollama_chat';
    default: {
      const unreachable: never = provider;
      throw new Error(`Unknown provider: ${String(unreachable)}`);
    }
  }
}

/** Every provider chat tool id, for blocks that run a model. */
export const CHAT_TOOL_IDS: readonly string[] = [
  'openai_chat', 'azure_openai_chat', 'anthropic_chat', 'google_chat', 'deepseek_chat',
  'xai_chat', 'cerebras_chat', 'groq_chat', 'ollama_chat',
];

/** Picks the chat tool of the chosen model's provider; no model means the default gpt-4o. */
export const selectChatTool: ToolSelector = (params) => {
  const chosen = typeof params.model === 'string' && params.model.trim() !== '' ? params.model : 'gpt-4o';
  return chatToolId(getProviderIdForModel(chosen));
};

/** A model combobox listing the known hosted models (local models are added by the form at runtime). */
export function modelField(extra: Partial<SubBlockConfig> = {}): SubBlockConfig {
  return {
    id: 'model',
    title: 'Model',
    type: 'combobox',
    layout: 'half',
    placeholder: 'Type or select a model...',
    options: options(...listModelIds()),
    modelOptions: true,
    defaultValue: 'gpt-4o',
    ...extra,
  };
}

/** A temperature slider 0 to 2, step 0.1, with the block's default. */
export function temperatureField(defaultValue: number): SubBlockConfig {
  return { id: 'temperature', title: 'Temperature', type: 'slider', layout: 'half', min: 0, max: 2, step: 0.1, defaultValue };
}

/** The provider API key field of model blocks; `droppable: false` keeps block outputs out (evaluator, §2). */
export function modelApiKeyField(droppable = true): SubBlockConfig {
  return {
    id: 'apiKey',
    title: 'API Key',
    type: 'short-input',
    layout: 'full',
    placeholder: 'Enter your API key',
    password: true,
    connectionDroppable: droppable,
  };
}

/** Azure OpenAI's API version when the block names none (spec 001 §9). */
export const AZURE_DEFAULT_API_VERSION = '2024-07-01-preview';

/**
 * The Azure OpenAI resource's endpoint and API version, shown when an Azure model is chosen; empty,
 * the operator's AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_VERSION (or 2024-07-01-preview) apply.
 */
export function azureFields(): SubBlockConfig[] {
  // Known Azure models, and any deployment written as azure/<name>.
  const condition = { field: 'model', value: (getProvider('azure-openai')?.models ?? []).map((m) => m.id), startsWith: 'azure/' };
  return [
    { id: 'azureEndpoint', title: 'Azure OpenAI Endpoint', type: 'short-input', layout: 'full', placeholder: 'https://your-resource.openai.azure.com', condition },
    { id: 'azureApiVersion', title: 'Azure API Version', type: 'short-input', layout: 'full', placeholder: AZURE_DEFAULT_API_VERSION, condition },
  ];
}

import { anthropicProvider } from './anthropic.provider.js';
import { azureOpenaiProvider } from './azureOpenai.provider.js';
import { cerebrasProvider } from './cerebras.provider.js';
import { deepseekProvider } from './deepseek.provider.js';
import { googleProvider } from './google.provider.js';
import { groqProvider } from './groq.provider.js';
import { ollamaProvider } from './ollama.provider.js';
import { openaiProvider } from './openai.provider.js';
import type { ModelDefinition, ProviderConfig, ProviderId } from './types.js';
import { xaiProvider } from './xai.provider.js';

const PROVIDERS: readonly ProviderConfig[] = [
  openaiProvider,
  azureOpenaiProvider,
  anthropicProvider,
  googleProvider,
  deepseekProvider,
  xaiProvider,
  cerebrasProvider,
  groqProvider,
  ollamaProvider,
];

/** All providers, in display order. */
export function listProviders(): ProviderConfig[] {
  return [...PROVIDERS];
}

/** The provider with this id, if any. */
export function getProvider(id: string): ProviderConfig | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** The provider serving a model: exact model match first, then name patterns; else the local Ollama provider. */
export function getProviderForModel(modelId: string): ProviderConfig {
  const name = modelId.trim().toLowerCase();
  const exact = PROVIDERS.find((p) => p.models.some((m) => m.id.toLowerCase() === name));
  if (exact) return exact;
  const byPattern = PROVIDERS.find((p) => p.modelPatterns.some((pattern) => new RegExp(pattern, 'i').test(name)));
  return byPattern ?? ollamaProvider;
}

/** The provider id serving a model (see `getProviderForModel`). */
export function getProviderIdForModel(modelId: string): ProviderId {
  return getProviderForModel(modelId).id;
}

/** The catalogue entry of a known hosted model. */
export function getModel(modelId: string): ModelDefinition | undefined {
  const name = modelId.trim().toLowerCase();
  for (const provider of PROVIDERS) {
    const found = provider.models.find((m) => m.id.toLowerCase() === name);
    if (found) return found;
  }
  return undefined;
}

/** Every hosted model id, plus the given local (Ollama) models. */
export function listModelIds(localModels: readonly string[] = []): string[] {
  return [...PROVIDERS.flatMap((p) => p.models.map((m) => m.id)), ...localModels];
}

/** Whether the model's temperature can be set, and within which range. */
export function getTemperatureRange(modelId: string): { min: number; max: number } | undefined {
  return getModel(modelId)?.capabilities.temperature;
}

/** Whether the model lets the caller force or forbid tools (false for Cerebras and Groq). */
export function supportsToolUsageControl(modelId: string): boolean {
  const provider = getProviderForModel(modelId);
  return getModel(modelId)?.capabilities.toolUsageControl ?? provider.capabilities.toolUsageControl ?? false;
}

/** Whether the model is flagged for computer use. */
export function supportsComputerUse(modelId: string): boolean {
  return getModel(modelId)?.capabilities.computerUse === true;
}

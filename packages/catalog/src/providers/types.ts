/** Ids of the model providers the product speaks to. */
export type ProviderId =
  | 'openai'
  | 'azure-openai'
  | 'anthropic'
  | 'google'
  | 'deepseek'
  | 'xai'
  | 'cerebras'
  | 'groq'
  | 'ollama';

/** Price of a model in dollars per million tokens, and when it was last checked. */
export interface ModelPricing {
  input: number;
  cachedInput: number;
  output: number;
  updatedAt: string;
}

/** What a model supports: its temperature range, forcing tools, computer use. */
export interface ModelCapabilities {
  temperature?: { min: number; max: number };
  toolUsageControl?: boolean;
  computerUse?: boolean;
}

/** One model a provider offers. */
export interface ModelDefinition {
  id: string;
  pricing: ModelPricing;
  capabilities: ModelCapabilities;
}

/** A provider catalogue entry (spec 001 §3). `modelPatterns` are regular-expression sources, case-insensitive. */
export interface ProviderConfig {
  id: ProviderId;
  name: string;
  description: string;
  version: string;
  defaultModel: string;
  modelPatterns: readonly string[];
  models: readonly ModelDefinition[];
  capabilities: ModelCapabilities;
}

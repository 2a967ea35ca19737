import { getProviderIdForModel } from '@weft/catalog';

/**
 * Each provider's name in its "API key is required for …" error and the variable its key is usually
 * kept in (docs/models.md): MODEL_KEY_NAMES and MODEL_KEY_VARIABLES of @weft/contracts, which the web
 * does not bundle (the catalogue re-exporting them pulled the contracts' runtime into the runner's
 * workflow bundle). Ollama needs no key.
 */
export const MODEL_KEYS: Readonly<Record<string, { name: string; variable: string }>> = {
  openai: { name: 'OpenAI', variable: 'OPENAI_API_KEY' },
  'azure-openai': { name: 'Azure OpenAI', variable: 'AZURE_OPENAI_API_KEY' },
  anthropic: { name: 'Anthropic', variable: 'ANTHROPIC_API_KEY' },
  google: { name: 'Gemini', variable: 'GEMINI_API_KEY' },
  deepseek: { name: 'Deepseek', variable: 'DEEPSEEK_API_KEY' },
  xai: { name: 'xAI', variable: 'XAI_API_KEY' },
  cerebras: { name: 'Cerebras', variable: 'CEREBRAS_API_KEY' },
  groq: { name: 'Groq', variable: 'GROQ_API_KEY' },
  huggingface: { name: 'Hugging Face', variable: 'HUGGINGFACE_API_KEY' },
};

/**
 * The variable an empty API Key field could name: the one of the block's provider (its model's, or
 * Hugging Face for that block), when the user keeps a variable of that name in Settings. A field
 * with a value, a model no keyed provider claims, or no such variable: none.
 */
export function suggestedKeyVariable(blockType: string, model: unknown, value: unknown, envKeys: readonly string[]): string | undefined {
  if (typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null) return undefined;
  let provider: string | undefined = blockType === 'huggingface' ? 'huggingface' : undefined;
  if (!provider && typeof model === 'string' && model.trim() !== '') provider = getProviderIdForModel(model.trim());
  const variable = provider === undefined ? undefined : MODEL_KEYS[provider]?.variable;
  return variable !== undefined && envKeys.includes(variable) ? variable : undefined;
}

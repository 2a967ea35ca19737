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

/** What a model API Key field could say instead: `variable` to name, replacing `replaces` (another provider's) when set. */
export interface KeySuggestion {
  variable: string;
  provider: string;
  replaces?: string;
}

const KEY_VARIABLES = new Set(Object.values(MODEL_KEYS).map((k) => k.variable));

/**
 * The variable a model API Key field could name: the one of the block's provider (its model's, or
 * Hugging Face for that block), when the user keeps a variable of that name in Settings, and the field
 * is empty — or names another provider's variable (`{{OPENAI_API_KEY}}` left after switching the
 * model to Claude, which would send OpenAI's key to Anthropic). A field with anything else, a model no
 * keyed provider claims, or no such variable: none.
 */
export function suggestedKey(blockType: string, model: unknown, value: unknown, envKeys: readonly string[]): KeySuggestion | undefined {
  const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : undefined;
  if (text === undefined) return undefined;
  const named = /^\{\{\s*([A-Za-z0-9_]+)\s*\}\}$/.exec(text)?.[1];
  if (text !== '' && (named === undefined || !KEY_VARIABLES.has(named))) return undefined;
  let provider: string | undefined = blockType === 'huggingface' ? 'huggingface' : undefined;
  if (!provider && typeof model === 'string' && model.trim() !== '') provider = getProviderIdForModel(model.trim());
  const own = provider === undefined ? undefined : MODEL_KEYS[provider];
  if (!own || own.variable === named || !envKeys.includes(own.variable)) return undefined;
  return { variable: own.variable, provider: own.name, ...(named !== undefined ? { replaces: named } : {}) };
}

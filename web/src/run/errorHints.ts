/**
 * The variable a provider's key is usually kept in (docs/models.md), by the name its "API key is required" error
 * gives: MODEL_KEY_NAMES and MODEL_KEY_VARIABLES of @weft/contracts, which the web does not bundle (the
 * catalogue re-exporting them pulled the contracts' runtime into the runner's workflow bundle).
 */
const KEY_VARIABLES: Record<string, string> = {
  OpenAI: 'OPENAI_API_KEY',
  'Azure OpenAI': 'AZURE_OPENAI_API_KEY',
  Anthropic: 'ANTHROPIC_API_KEY',
  Gemini: 'GEMINI_API_KEY',
  Deepseek: 'DEEPSEEK_API_KEY',
  xAI: 'XAI_API_KEY',
  Cerebras: 'CEREBRAS_API_KEY',
  Groq: 'GROQ_API_KEY',
  'Hugging Face': 'HUGGINGFACE_API_KEY',
};

/** The error naming a provider, longest name first so 'Azure OpenAI' is not read as 'OpenAI'. */
const MISSING_KEY = new RegExp(
  `API key is required for (${Object.keys(KEY_VARIABLES)
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})\\b`,
);

/**
 * What to do about a run's error, when the console can tell: a model call without a key is the first
 * failure a new user meets, and a variable in Settings is not used unless the block's API Key names it.
 */
export function errorHint(error: string): string | undefined {
  const missing = MISSING_KEY.exec(error);
  const variable = missing?.[1] === undefined ? undefined : KEY_VARIABLES[missing[1]];
  if (!variable) return undefined;
  return `Give the block's API Key field your key, or a reference to it: {{${variable}}} reads the variable of that name from Settings › Environment variables.`;
}

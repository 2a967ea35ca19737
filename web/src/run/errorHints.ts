import { MODEL_KEYS } from '../modelKeys';

/** The variable a provider's key is usually kept in, by the name its "API key is required" error gives. */
const KEY_VARIABLES: Record<string, string> = Object.fromEntries(Object.values(MODEL_KEYS).map(({ name, variable }) => [name, variable]));

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

import { getModel, getProviderIdForModel } from '../providers/registry.js';
import { text } from '../paramValues.js';

/**
 * Evaluator and Translate: a model must be chosen and be one the catalogue knows, or one no hosted
 * provider claims, which goes to the local Ollama server: whether that server has it is only known
 * when the block runs (the runner answers the same message then).
 */
export function validateModelChoice(params: Record<string, unknown>): string | undefined {
  const model = text(params.model);
  if (model === '') return 'No model selected';
  return getModel(model) || getProviderIdForModel(model) === 'ollama' ? undefined : `Invalid model selected: ${model}`;
}

import { getModel } from '../providers/registry.js';
import { text } from '../paramValues.js';

/** Evaluator and Translate: a model must be chosen and be one the catalogue knows. */
export function validateModelChoice(params: Record<string, unknown>): string | undefined {
  const model = text(params.model);
  if (model === '') return 'No model selected';
  return getModel(model) ? undefined : `Invalid model selected: ${model}`;
}

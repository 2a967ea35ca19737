import { isCancellation } from '@temporalio/workflow';
import { getProviderIdForModel } from '@weft/catalog';
import type { BlockRunContext } from '../types.js';
import { modelActivities } from './activities.js';
import { DEFAULT_MODEL } from './agent.block.js';

/**
 * The model of the evaluator and translate blocks: gpt-4o when the field was never set; ''
 * ('No model selected') when it was cleared; an error 'Invalid model selected: {m}' when no hosted
 * provider claims it and the local server does not list it.
 */
export async function checkModel(value: unknown, ctx: BlockRunContext): Promise<string | { error: string }> {
  if (value === undefined || value === null) return DEFAULT_MODEL;
  const model = typeof value === 'string' ? value.trim() : '';
  if (!model) return '';
  if (getProviderIdForModel(model) !== 'ollama') return model;
  let local: string[] = [];
  try {
    local = await modelActivities({ ...ctx, maxAttempts: 1 }).listLocalModels();
  } catch (err) {
    if (isCancellation(err)) throw err;
  }
  return local.includes(model) ? model : { error: `Invalid model selected: ${model}` };
}

import { isCancellation } from '@temporalio/workflow';
import { translationPrompt } from '@weft/catalog';
import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { callContext, modelCall } from './activities.js';
import { checkModel } from './modelChoice.js';
import { failed, fromCall, fromError, modelOutput } from './outcome.js';
import { text } from './params.js';

/** Translate: the chosen chat model translates the text. Output content, model, tokens (and cost). */
export async function runTranslate(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  const chosen = await checkModel(params.model, ctx);
  if (typeof chosen !== 'string' || chosen === '') return failed(chosen === '' ? 'No model selected' : chosen.error);
  const source = text(params.context) || text(params.text);
  if (!source) return failed('Text to translate is required');
  try {
    const { value: out, attempts } = await modelCall(ctx, (models, tryOf) =>
      models.callModel({
        model: chosen,
        systemPrompt: translationPrompt(params.targetLanguage),
        messages: [{ role: 'user', content: source }],
        ...(text(params.apiKey) ? { apiKey: text(params.apiKey) } : {}),
        ...(ctx.stream ? { stream: tryOf({ executionId: ctx.executionId, blockId: block.id, seqStart: 0 }) } : {}),
        context: callContext(block, ctx),
      }),
    );
    return fromCall(out, modelOutput(out), attempts);
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fromError(err);
  }
}

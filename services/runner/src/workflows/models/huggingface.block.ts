import { isCancellation } from '@temporalio/workflow';
import { AI_CHAT_MAX_TOKENS_FALLBACK } from '@weft/catalog';
import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { callContext, modelCall } from './activities.js';
import { failed, fromCall, fromError } from './outcome.js';
import { num, text } from './params.js';

/** Hugging Face chat: temperature 0-2 default 0.7; max_tokens falls back to 10000 when not numeric (§7). Output content, model, usage (and the cut-off warning). */
export async function runHuggingface(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  const model = text(params.model);
  if (!model) return failed('No model selected');
  const content = text(params.content);
  const systemPrompt = text(params.systemPrompt);
  const maxTokens = num(params.maxTokens);
  try {
    const { value: out, attempts } = await modelCall(ctx, (models) =>
      models.callModel({
        model,
        provider: 'huggingface',
        hfProvider: text(params.provider) || 'novita',
        ...(systemPrompt ? { systemPrompt } : {}),
        messages: [{ role: 'user', content }],
        temperature: num(params.temperature) ?? 0.7,
        maxTokens: maxTokens !== undefined && maxTokens > 0 ? maxTokens : AI_CHAT_MAX_TOKENS_FALLBACK,
        ...(text(params.apiKey) ? { apiKey: text(params.apiKey) } : {}),
        context: callContext(block, ctx),
      }),
    );
    const usage = { prompt_tokens: out.tokens.prompt, completion_tokens: out.tokens.completion, total_tokens: out.tokens.total };
    // An answer cut off at the max tokens limit stays the answer, with its warning, as the agent's and the other model blocks'.
    return fromCall(out, { content: out.content, model: out.model, usage, ...(out.warning ? { warning: out.warning } : {}) }, attempts);
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fromError(err);
  }
}

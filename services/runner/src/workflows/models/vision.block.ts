import { isCancellation } from '@temporalio/workflow';
import { VISION_MAX_TOKENS, visionModelId } from '@weft/catalog';
import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { callContext, modelCall } from './activities.js';
import { failed, fromCall, fromError, modelOutput } from './outcome.js';
import { text } from './params.js';

const DEFAULT_PROMPT = 'Please analyze this image and describe what you see in detail.';

/** Vision: an image and a prompt to a vision model (gpt-4o default), answers up to 1000 tokens (§9). */
export async function runVision(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  const imageUrl = text(params.imageUrl);
  if (!imageUrl) return failed('Image URL is required');
  try {
    const { value: out, attempts } = await modelCall(ctx, (models, tryOf) =>
      models.callModel({
        // claude-3-opus and claude-3-sonnet (the choices §2 fixes) go as the Anthropic ids they stand for.
        model: visionModelId(text(params.model) || 'gpt-4o'),
        messages: [{ role: 'user', content: [{ type: 'text', text: text(params.prompt) || DEFAULT_PROMPT }, { type: 'image', url: imageUrl }] }],
        maxTokens: VISION_MAX_TOKENS,
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

import { isCancellation } from '@temporalio/workflow';
import { EMBEDDING_DEFAULTS } from '@weft/catalog';
import type { GenerateImageInput } from '@weft/contracts';
import type { BlockOutcome, BlockRunContext, RunnableBlock } from '../types.js';
import { callContext, modelCall } from './activities.js';
import { failed, fromError } from './outcome.js';
import { num, text } from './params.js';

/** Image generator (§5): 'API key is required', 'Prompt is required'; the activity checks n, sizes and per-model options. */
export async function runImageGenerator(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  if (!text(params.apiKey)) return failed('API key is required');
  if (!text(params.prompt)) return failed('Prompt is required');
  const model = text(params.model) || 'dall-e-3';
  if (model !== 'dall-e-3' && model !== 'gpt-image-1') return failed(`Invalid model selected: ${model}`);
  const input: GenerateImageInput = {
    model,
    prompt: text(params.prompt),
    apiKey: text(params.apiKey),
    ...(text(params.size) ? { size: text(params.size) } : {}),
    ...(num(params.n) !== undefined ? { n: num(params.n) } : {}),
    ...(model === 'dall-e-3' && text(params.quality) ? { quality: text(params.quality) } : {}),
    ...(model === 'dall-e-3' && text(params.style) ? { style: text(params.style) } : {}),
    ...(model === 'gpt-image-1' && text(params.background) ? { background: text(params.background) } : {}),
    context: callContext(block, ctx),
  };
  try {
    const { value: out, attempts } = await modelCall(ctx, (models) => models.generateImage(input));
    return { success: true, output: { content: out.content, image: out.image, metadata: out.metadata }, ...attempts };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fromError(err);
  }
}

/** Embeddings (text-embedding-3-small, float, by default): output embeddings, model, usage; cost per token. */
export async function runEmbeddings(block: RunnableBlock, params: Record<string, unknown>, ctx: BlockRunContext): Promise<BlockOutcome> {
  const input = Array.isArray(params.input) ? params.input.map((v) => text(v)) : text(params.input);
  try {
    const { value: out, attempts } = await modelCall(ctx, (models) =>
      models.createEmbeddings({
        input,
        model: text(params.model) || EMBEDDING_DEFAULTS.model,
        encodingFormat: text(params.encodingFormat) === 'base64' ? 'base64' : EMBEDDING_DEFAULTS.encodingFormat,
        ...(text(params.apiKey) ? { apiKey: text(params.apiKey) } : {}),
        context: callContext(block, ctx),
      }),
    );
    return {
      success: true,
      output: { embeddings: out.embeddings, model: out.model, usage: out.usage },
      tokens: { prompt: out.usage.prompt_tokens, completion: 0, total: out.usage.total_tokens },
      cost: out.cost,
      ...attempts,
    };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fromError(err);
  }
}

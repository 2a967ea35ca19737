import OpenAI from 'openai';
import { EMBEDDING_DEFAULTS, EMBEDDING_MODEL_PRICES, calculateCost } from '@weft/catalog';
import type { CreateEmbeddingsInput, CreateEmbeddingsOutput } from '@weft/contracts';
import { resolveApiKey, type ModelConfig } from './config.js';
import { ModelRequestError, toProviderError } from './errors.js';

/** OpenAI embeddings (default text-embedding-3-small, float, §9), priced per million input tokens. */
export async function createEmbeddings(config: ModelConfig, input: CreateEmbeddingsInput, signal?: AbortSignal): Promise<CreateEmbeddingsOutput> {
  const texts = (Array.isArray(input.input) ? input.input : [input.input]).filter((t) => typeof t === 'string' && t.trim() !== '');
  if (texts.length === 0) throw new ModelRequestError('Input text is required');
  const model = input.model?.trim() || EMBEDDING_DEFAULTS.model;
  if (!(model in EMBEDDING_MODEL_PRICES)) throw new ModelRequestError(`Invalid model selected: ${model}`);
  const apiKey = resolveApiKey(config, 'openai', input.apiKey);
  const client = new OpenAI({ apiKey, baseURL: config.baseUrls.openai, maxRetries: 0 });
  const encodingFormat = input.encodingFormat ?? EMBEDDING_DEFAULTS.encodingFormat;
  try {
    const res = await client.embeddings.create({ model, input: texts, encoding_format: encodingFormat }, { signal });
    const usage = { prompt_tokens: res.usage.prompt_tokens, total_tokens: res.usage.total_tokens };
    const cost = calculateCost(model, usage.prompt_tokens, 0);
    return {
      embeddings: res.data.map((d) => d.embedding as number[] | string),
      model: res.model || model,
      usage,
      cost: { input: cost.input, output: cost.output, total: cost.total },
    };
  } catch (err) {
    throw toProviderError(err, 'openai');
  }
}

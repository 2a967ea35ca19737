import OpenAI from 'openai';
import type { ImageGenerateParamsNonStreaming } from 'openai/resources/images';
import { IMAGE_COUNT, IMAGE_SIZES } from '@weft/catalog';
import type { GenerateImageInput, GenerateImageOutput } from '@weft/contracts';
import type { ModelConfig } from './config.js';
import { ModelRequestError, toProviderError } from './errors.js';

const DALLE_QUALITIES = ['standard', 'hd'];
const DALLE_STYLES = ['vivid', 'natural'];
const BACKGROUNDS = ['auto', 'transparent', 'opaque'];

/** The request body under §5's rules: n 1-10 (1 for dall-e-3), the model's sizes, quality and style only for dall-e-3, background only for gpt-image-1. */
export function imageRequest(input: GenerateImageInput): ImageGenerateParamsNonStreaming {
  if (!input.prompt?.trim()) throw new ModelRequestError('Prompt is required');
  const model = input.model;
  if (model !== 'dall-e-3' && model !== 'gpt-image-1') throw new ModelRequestError(`Invalid model selected: ${String(model)}`);
  const sizes: readonly string[] = IMAGE_SIZES[model];
  const size = input.size?.trim() || '1024x1024';
  if (!sizes.includes(size)) throw new ModelRequestError(`Invalid size for ${model}: ${size} (one of ${sizes.join(', ')})`);
  const n = input.n ?? IMAGE_COUNT.default;
  if (!Number.isInteger(n) || n < IMAGE_COUNT.min || n > IMAGE_COUNT.max) throw new ModelRequestError(`Number of images must be between ${IMAGE_COUNT.min} and ${IMAGE_COUNT.max}`);
  // §5's n 1-10 is the block's range; OpenAI's dall-e-3 makes one image a request and refuses n > 1 (the image_generator tool's message).
  if (model === 'dall-e-3' && n > 1) throw new ModelRequestError(`Number of images (n) must be 1 for dall-e-3, got ${n}`);
  const body: ImageGenerateParamsNonStreaming = { model, prompt: input.prompt, n, size: size as ImageGenerateParamsNonStreaming['size'] };
  if (model === 'dall-e-3') {
    const quality = input.quality?.trim() || 'standard';
    const style = input.style?.trim() || 'vivid';
    if (!DALLE_QUALITIES.includes(quality)) throw new ModelRequestError(`Invalid quality for dall-e-3: ${quality}`);
    if (!DALLE_STYLES.includes(style)) throw new ModelRequestError(`Invalid style for dall-e-3: ${style}`);
    body.quality = quality as 'standard' | 'hd';
    body.style = style as 'vivid' | 'natural';
  } else if (input.background?.trim()) {
    const background = input.background.trim();
    if (!BACKGROUNDS.includes(background)) throw new ModelRequestError(`Invalid background for gpt-image-1: ${background}`);
    body.background = background as 'auto' | 'transparent' | 'opaque';
  }
  return body;
}

/** OpenAI image generation; the key is the block's (the image generator's key field takes no connections) or the operator's. */
export async function generateImage(config: ModelConfig, input: GenerateImageInput, signal?: AbortSignal): Promise<GenerateImageOutput> {
  const apiKey = input.apiKey?.trim() || config.keys.openai;
  if (!apiKey) throw new ModelRequestError('API key is required');
  const body = imageRequest(input);
  const client = new OpenAI({ apiKey, baseURL: config.baseUrls.openai, maxRetries: 0 });
  try {
    const res = await client.images.generate(body, { signal });
    const images = (res.data ?? []).map((d) => d.url ?? (d.b64_json ? `data:image/png;base64,${d.b64_json}` : '')).filter((u) => u !== '');
    const first = images[0] ?? '';
    const revised = res.data?.[0]?.revised_prompt;
    return { content: first, image: first, metadata: { model: input.model, images, ...(revised ? { revisedPrompt: revised } : {}) } };
  } catch (err) {
    throw toProviderError(err, 'openai');
  }
}

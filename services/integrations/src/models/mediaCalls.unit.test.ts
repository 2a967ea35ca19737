import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIFake, type OpenAIFake } from '@weft/testkit';
import { createEmbeddings } from './embeddings.js';
import { generateImage, imageRequest } from './images.js';
import { modelConfigFromEnv } from './config.js';

let fake: OpenAIFake;
beforeAll(async () => {
  fake = await createOpenAIFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());
const config = () => modelConfigFromEnv({ WEFT_OPENAI_BASE_URL: fake.baseUrl });

describe('embeddings', () => {
  it('defaults to text-embedding-3-small as float and prices the tokens', async () => {
    const text = 'word '.repeat(500).trim();
    const out = await createEmbeddings(config(), { input: text, apiKey: 'k' });
    expect(fake.server.received('POST', '/v1/embeddings')[0]?.body).toEqual({ model: 'text-embedding-3-small', input: [text], encoding_format: 'float' });
    expect(out.embeddings).toHaveLength(1);
    expect(out.usage).toEqual({ prompt_tokens: 500, total_tokens: 500 });
    // 500 tokens at 0.02 per million.
    expect(out.cost.total).toBe(0.00001);
  });

  it('refuses an unknown model and a missing key', async () => {
    await expect(createEmbeddings(config(), { input: 'x', model: 'nope', apiKey: 'k' })).rejects.toThrow('Invalid model selected: nope');
    await expect(createEmbeddings(config(), { input: 'x' })).rejects.toThrow('API key is required for OpenAI');
  });
});

describe('image generation (§5 rules)', () => {
  it('dall-e-3: quality and style sent, background never', () => {
    expect(imageRequest({ model: 'dall-e-3', prompt: 'a fox', background: 'transparent' })).toEqual({ model: 'dall-e-3', prompt: 'a fox', n: 1, size: '1024x1024', quality: 'standard', style: 'vivid' });
  });

  it('gpt-image-1: background sent, quality and style never', () => {
    expect(imageRequest({ model: 'gpt-image-1', prompt: 'a fox', size: 'auto', quality: 'hd', style: 'natural', background: 'opaque' })).toEqual({ model: 'gpt-image-1', prompt: 'a fox', n: 1, size: 'auto', background: 'opaque' });
  });

  it('checks prompt, n 1-10 and the sizes of each model', () => {
    expect(() => imageRequest({ model: 'dall-e-3', prompt: ' ' })).toThrow('Prompt is required');
    expect(() => imageRequest({ model: 'dall-e-3', prompt: 'x', n: 11 })).toThrow('between 1 and 10');
    expect(() => imageRequest({ model: 'dall-e-3', prompt: 'x', n: 0 })).toThrow('between 1 and 10');
    expect(imageRequest({ model: 'gpt-image-1', prompt: 'x', n: 10 }).n).toBe(10);
    expect(() => imageRequest({ model: 'dall-e-3', prompt: 'x', size: '1536x1024' })).toThrow('Invalid size for dall-e-3');
    expect(() => imageRequest({ model: 'gpt-image-1', prompt: 'x', size: '1792x1024' })).toThrow('Invalid size for gpt-image-1');
  });

  it('answers the first image and its metadata; requires a key', async () => {
    const out = await generateImage(config(), { model: 'dall-e-3', prompt: 'a fox', apiKey: 'k' });
    expect(out.content).toBe(`${fake.url}/images/0.png`);
    expect(out.metadata).toMatchObject({ model: 'dall-e-3', revisedPrompt: 'revised: a fox' });
    const b64 = await generateImage(config(), { model: 'gpt-image-1', prompt: 'a fox', n: 2, apiKey: 'k' });
    expect(b64.image).toMatch(/^data:image\/png;base64,/);
    expect(b64.metadata.images).toHaveLength(2);
    await expect(generateImage(config(), { model: 'dall-e-3', prompt: 'a fox' })).rejects.toThrow('API key is required');
  });

  it('dall-e-3 makes one image a request: n > 1 is refused before any call, with the image_generator tool\'s message', async () => {
    expect(() => imageRequest({ model: 'dall-e-3', prompt: 'x', n: 2 })).toThrow('Number of images (n) must be 1 for dall-e-3, got 2');
    await expect(generateImage(config(), { model: 'dall-e-3', prompt: 'a fox', n: 3, apiKey: 'k' })).rejects.toThrow('Number of images (n) must be 1 for dall-e-3, got 3');
    expect(fake.server.requests).toEqual([]);
  });

  it('the fake refuses n > 1 for dall-e-3 as OpenAI does (what the old request reached)', async () => {
    const res = await fetch(`${fake.baseUrl}/images/generations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'dall-e-3', prompt: 'x', n: 2 }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: 'You must provide n=1 for this model.', type: 'invalid_request_error' } });
  });
});

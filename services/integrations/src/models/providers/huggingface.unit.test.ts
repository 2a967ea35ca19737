import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIFake, type OpenAIFake } from '@weft/testkit';
import { callModel, TimedModelError } from '../callModel.js';
import { testModelDeps } from '../testDeps.js';

let fake: OpenAIFake;
beforeAll(async () => {
  fake = await createOpenAIFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const deps = () => testModelDeps({ WEFT_HUGGINGFACE_BASE_URL: fake.url });

describe('Hugging Face router adapter', () => {
  it('posts to the router at {base}/v1/chat/completions, the provider in the model (<model>:<provider>), with the token, temperature and max_tokens', async () => {
    fake.reply({ content: 'hf answer', usage: { prompt: 7, completion: 3 } });
    const out = await callModel(deps(), { model: 'deepseek/deepseek-v3-0324', provider: 'huggingface', hfProvider: 'together', messages: [{ role: 'user', content: 'hi' }], temperature: 0.7, maxTokens: 10000, apiKey: 'hf_x' });
    const [req] = fake.chatRequests();
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer hf_x');
    expect(req?.body).toMatchObject({ model: 'deepseek/deepseek-v3-0324:together', temperature: 0.7, max_tokens: 10000, stream: false });
    expect(out).toMatchObject({ content: 'hf answer', provider: 'huggingface', tokens: { prompt: 7, completion: 3, total: 10 } });
  });

  it("fails a tool call cut off at finish_reason length naming the tool and Max Tokens, not retried", async () => {
    fake.reply({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }], cutToolCall: true });
    const err = await callModel(deps(), { model: 'm', provider: 'huggingface', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5, apiKey: 'hf_x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimedModelError);
    expect((err as Error).message).toBe('The model\'s answer was cut off by Max Tokens (maxTokens) while writing a call to tool "get_weather" (huggingface finish_reason length): the tool was not run; raise Max Tokens');
  });

  it("keeps the provider's tool call ids; a call without one gets an 8-character id (spec 000 §9)", async () => {
    const call = (id: string | undefined, city: string) => ({ ...(id ? { id } : {}), type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } });
    fake.server.once('POST', '/v1/chat/completions', { json: { model: 'm', choices: [{ message: { content: null, tool_calls: [call('call_given', 'Oslo'), call(undefined, 'Lima')] } }] } });
    const out = await callModel(deps(), { model: 'm', provider: 'huggingface', messages: [{ role: 'user', content: 'hi' }], apiKey: 'hf_x' });
    expect(out.toolCalls).toEqual([
      { id: 'call_given', name: 'get_weather', arguments: { city: 'Oslo' } },
      { id: expect.stringMatching(/^[A-Za-z0-9]{8}$/) as string, name: 'get_weather', arguments: { city: 'Lima' } },
    ]);
  });

  it("a provider that is not a name ('..', a path) is refused before any call", async () => {
    for (const hfProvider of ['..', '.', 'a/b', '../v1']) {
      const err = await callModel(deps(), { model: 'm', provider: 'huggingface', hfProvider, messages: [{ role: 'user', content: 'hi' }], apiKey: 'hf_x' }).catch((e: unknown) => e);
      expect((err as Error).message).toBe(`Invalid Hugging Face provider: ${hfProvider}`);
    }
    expect(fake.server.requests).toEqual([]);
  });

  it("defaults to the novita provider; a model that already names its provider is sent as typed", async () => {
    fake.reply({ content: 'ok' }, { content: 'ok' });
    await callModel(deps(), { model: 'org/m', provider: 'huggingface', messages: [{ role: 'user', content: 'hi' }], apiKey: 'hf_x' });
    await callModel(deps(), { model: 'org/m:groq', provider: 'huggingface', hfProvider: 'together', messages: [{ role: 'user', content: 'hi' }], apiKey: 'hf_x' });
    expect(fake.chatRequests().map((r) => [r.path, (r.body as { model: string }).model])).toEqual([
      ['/v1/chat/completions', 'org/m:novita'],
      ['/v1/chat/completions', 'org/m:groq'],
    ]);
  });

  it('the fake has no per-provider route (the router has none): the old {base}/{provider}/v1 path is not found', async () => {
    const res = await fetch(`${fake.url}/novita/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m","messages":[]}' });
    expect(res.status).toBe(404);
  });

  it("fails with 'Hugging Face chat completion failed' and 'Invalid response format from Hugging Face API'", async () => {
    fake.reply({ error: { status: 400, message: 'Model not supported' } });
    const err = await callModel(deps(), { model: 'm', provider: 'huggingface', messages: [{ role: 'user', content: 'hi' }], apiKey: 'hf_x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimedModelError);
    expect((err as Error).message).toBe('Hugging Face chat completion failed: Model not supported');
    fake.server.once('POST', '/v1/chat/completions', { json: { unexpected: true } });
    const bad = await callModel(deps(), { model: 'm', provider: 'huggingface', messages: [{ role: 'user', content: 'hi' }], apiKey: 'hf_x' }).catch((e: unknown) => e);
    expect((bad as Error).message).toBe('Invalid response format from Hugging Face API');
  });
  it("fails an image URL that is not one before any request, the user's to fix naming the field, as every provider does", async () => {
    const err = await callModel(deps(), { model: 'm', provider: 'huggingface', messages: [{ role: 'user', content: [{ type: 'image', url: 'ftp://cat.example.invalid/cat.png' }] }], apiKey: 'hf_x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimedModelError);
    expect((err as Error).message).toBe('Invalid Image URL (imageUrl) ftp://cat.example.invalid/cat.png: its scheme ftp: is not one an image is read from (give an http(s) URL or a data: URL)');
    expect((err as TimedModelError).original.name).toBe('ModelRequestError');
    expect(fake.chatRequests()).toEqual([]);
  });
  it("fails an answer the provider's content filter stopped, or one the model refused, as the OpenAI-compatible adapters do", async () => {
    const hf = { model: 'm', provider: 'huggingface' as const, messages: [{ role: 'user' as const, content: 'hi' }], apiKey: 'hf_x' };
    fake.reply({ content: 'Partial', finishReason: 'content_filter' });
    const filtered = await callModel(deps(), hf).catch((e: unknown) => e);
    expect((filtered as Error).message).toBe("The model's answer was blocked by the provider's content filter (huggingface finish_reason content_filter)");
    expect((filtered as TimedModelError).original.name).toBe('ModelRequestError');
    fake.server.once('POST', '/v1/chat/completions', { json: { model: 'm', choices: [{ message: { content: null, refusal: 'No.' }, finish_reason: 'stop' }] } });
    const refused = await callModel(deps(), hf).catch((e: unknown) => e);
    expect((refused as Error).message).toBe('The model declined to answer (huggingface refusal): No.');
  });
  it("keeps an answer cut at finish_reason length with the call's warning (the block puts it in its output); a whole answer has none", async () => {
    const hf = { model: 'm', provider: 'huggingface' as const, messages: [{ role: 'user' as const, content: 'hi' }], maxTokens: 3, apiKey: 'hf_x' };
    const d = deps();
    fake.reply({ content: 'Cut sho', finishReason: 'length' });
    expect(await callModel(d, hf)).toMatchObject({ content: 'Cut sho', warning: 'The answer was cut off at the max tokens limit (huggingface finish_reason length): it is incomplete' });
    expect(d.warnings).toContain('The model stopped at the max tokens limit (huggingface finish_reason length): the answer is cut short');
    fake.reply({ content: 'Whole.' });
    expect(await callModel(d, hf)).not.toHaveProperty('warning');
  });
});

import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiFake, createOpenAIFake, type FakeModelServer, type OpenAIFake } from '@weft/testkit';
import type { CallModelInput, ModelErrorDetails } from '@weft/contracts';
import { createModelActivities } from './activities.js';
import { compatibleEnv, testModelDeps } from './testDeps.js';

let openai: OpenAIFake;
let gemini: FakeModelServer;
beforeAll(async () => {
  openai = await createOpenAIFake({ localModels: ['llama3.2:latest'] });
  gemini = await createGeminiFake();
});
afterAll(async () => {
  await openai.close();
  await gemini.close();
});
beforeEach(() => {
  openai.reset();
  gemini.reset();
});

const activities = () => createModelActivities(testModelDeps({ ...compatibleEnv(openai.url), WEFT_GEMINI_BASE_URL: `${gemini.url}/v1beta` }));
const ask = (over: Partial<CallModelInput> = {}): CallModelInput => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], apiKey: 'sk', ...over });

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('model activities as Temporal sees them', () => {
  it.each([
    [401, true],
    [400, true],
    [408, false],
    [429, false],
    [500, false],
    [503, false],
  ])('a provider answer %i is non-retryable: %s; details carry provider, status and timing', async (status, nonRetryable) => {
    openai.reply({ error: { status, message: `failure ${status}` } });
    const failure = await failureOf(activities().callModel(ask()));
    expect(failure.nonRetryable).toBe(nonRetryable);
    expect(failure.message).toContain(`failure ${status}`);
    const details = failure.details?.[0] as ModelErrorDetails;
    expect(details).toMatchObject({ provider: 'openai', status });
    expect(details.timing.duration).toBe(Date.parse(details.timing.endTime) - Date.parse(details.timing.startTime));
  });

  it('a dropped connection is retried; a missing key or model is not', async () => {
    openai.reply({ destroy: true });
    const dropped = await failureOf(activities().callModel(ask()));
    expect(dropped.nonRetryable).toBe(false);
    const noKey = await failureOf(activities().callModel(ask({ model: 'grok-3-latest', apiKey: '' })));
    expect(noKey).toMatchObject({ nonRetryable: true, message: 'API key is required for xAI', type: 'ModelRequestError' });
    const noModel = await failureOf(activities().callModel(ask({ model: ' ' })));
    expect(noModel).toMatchObject({ nonRetryable: true, message: 'No model selected' });
    expect(openai.chatRequests()).toHaveLength(1);
  });

  it("the vision block's call (a text and an image part) with an Image URL that is not one fails non-retryable, naming the field, before any request", async () => {
    // As services/runner's vision.block.ts sends it through this activity.
    const vision = (model: string, url: string) =>
      ask({ model, maxTokens: 1000, messages: [{ role: 'user', content: [{ type: 'text', text: 'Please analyze this image.' }, { type: 'image', url }] }] });
    const cases = [
      ['gpt-4o', 'an http(s) URL or a data: URL'],
      ['gemini-2.5-flash', 'an http(s) URL, a data: URL or a Gemini file URI'],
    ] as const;
    for (const [model, give] of cases) {
      const failure = await failureOf(activities().callModel(vision(model, 'cat.png')));
      expect(failure).toMatchObject({ nonRetryable: true, type: 'ModelRequestError', message: `Invalid Image URL (imageUrl) cat.png: it is not a valid URL (give ${give})` });
    }
    expect(openai.chatRequests()).toEqual([]);
    expect(gemini.chatRequests()).toEqual([]);
  });

  it("embeddings and image generation failures carry the call's own timing (not a zero-length one made after it) and never the key, as a model call's do", async () => {
    const key = 'sk-media-secret-0123456789';
    const arrivals: number[] = [];
    const refuse = async () => {
      const arrived = Date.now();
      arrivals.push(arrived);
      // The answer leaves strictly after the request arrived, so a timing made at the failure starts after it.
      while (Date.now() <= arrived) await new Promise((r) => setImmediate(r));
      return { status: 401, json: { error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } };
    };
    openai.server.once('POST', '/v1/embeddings', refuse);
    const embed = await failureOf(activities().createEmbeddings({ input: 'cat', apiKey: key }));
    openai.server.once('POST', '/v1/images/generations', refuse);
    const image = await failureOf(activities().generateImage({ model: 'dall-e-3', prompt: 'a fox', apiKey: key }));
    for (const [i, failure] of [embed, image].entries()) {
      expect(failure).toMatchObject({ nonRetryable: true, message: expect.stringContaining('Incorrect API key provided: [REDACTED].') as string });
      expect(failure.message).not.toContain(key);
      const details = failure.details?.[0] as ModelErrorDetails;
      expect(details).toMatchObject({ provider: 'openai', status: 401 });
      expect(Date.parse(details.timing.startTime)).toBeLessThanOrEqual(arrivals[i] ?? 0);
      expect(details.timing.duration).toBe(Date.parse(details.timing.endTime) - Date.parse(details.timing.startTime));
    }
  });

  it("Gemini: an answer that is not JSON is 'Gemini API check error: …'; a broken stream event is 'Gemini API streaming error: …'", async () => {
    gemini.server.once('POST', '/v1beta/models/:method', { text: 'not json at all' });
    const check = await failureOf(activities().callModel(ask({ model: 'gemini-2.5-pro' })));
    expect(check.message).toMatch(/^Gemini API check error: /);
    gemini.server.once('POST', '/v1beta/models/:method', { sse: ['data: {"candidates": [', 'data: {}'] });
    const stream = await failureOf(activities().callModel(ask({ model: 'gemini-2.5-pro', stream: { executionId: 'e', blockId: 'b', seqStart: 0 } })));
    expect(stream.message).toMatch(/^Gemini API streaming error: /);
  });

  it('lists the local models of the Ollama server', async () => {
    expect(await activities().listLocalModels()).toEqual(['llama3.2:latest']);
  });
});

describe('temperature and Azure rules (§5, §9)', () => {
  it("Cerebras' final answer after repeated calls is asked with tool_choice none, which it takes; a forced choice it never gets", async () => {
    openai.fallback({ content: 'final' });
    const tools = [{ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } }];
    await activities().callModel(ask({ model: 'cerebras/llama-3.3-70b', tools, toolChoice: 'none' }));
    await activities().callModel(ask({ model: 'cerebras/llama-3.3-70b', tools, toolChoice: { name: 'lookup' } }));
    const [final, forced] = openai.chatRequests().map((r) => r.body as Record<string, unknown>);
    expect(final).toMatchObject({ model: 'llama-3.3-70b', tool_choice: 'none' });
    expect(forced).not.toHaveProperty('tool_choice');
  });

  it('xAI and Anthropic-range models clamp to 0-1, OpenAI to 0-2; a negative value goes to the minimum', async () => {
    openai.fallback({ content: 'ok' });
    await activities().callModel(ask({ model: 'grok-3-latest', temperature: 1.5 }));
    await activities().callModel(ask({ model: 'gpt-4o', temperature: -1 }));
    await activities().callModel(ask({ model: 'gpt-4o', temperature: 1.3 }));
    expect(openai.chatRequests().map((r) => (r.body as { temperature?: number }).temperature)).toEqual([1, 0, 1.3]);
  });

  it('Azure: a non-strict schema when strict is false; the block endpoint wins over the server one', async () => {
    openai.fallback({ content: '{}' });
    await activities().callModel(ask({ model: 'azure/gpt-4o', azureApiVersion: '2024-10-21', responseFormat: { schema: { type: 'object' }, strict: false } }));
    expect(openai.chatRequests()[0]?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'response_schema', strict: false } } });
    const other = await createOpenAIFake();
    // A block's endpoint passes the outbound guard: the fake's loopback address is allowed here.
    const guarded = createModelActivities(testModelDeps({ ...compatibleEnv(openai.url), WEFT_OUTBOUND_ALLOWLIST: '127.0.0.1' }));
    try {
      await guarded.callModel(ask({ model: 'azure/my-deployment', azureEndpoint: other.url, azureApiVersion: '2025-01-01' }));
      const [req] = other.chatRequests();
      expect(req?.path).toBe('/openai/deployments/my-deployment/chat/completions');
      expect(req?.query['api-version']).toBe('2025-01-01');
    } finally {
      await other.close();
    }
  });
});

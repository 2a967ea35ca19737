import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIFake, type OpenAIFake } from '@weft/testkit';
import type { CallModelInput } from '@weft/contracts';
import { callModel, TimedModelError } from '../callModel.js';
import { AZURE_ENDPOINT_INVALID, AZURE_OWN_KEY_REQUIRED } from '../config.js';
import { ModelProviderError, ModelRequestError } from '../errors.js';
import { testModelDeps } from '../testDeps.js';
import { azureOpenaiAdapter } from './azureOpenai.provider.js';

// Two fakes on 127.0.0.1: the operator's Azure resource (AZURE_OPENAI_ENDPOINT) and one a user typed in a block.
let operator: OpenAIFake;
let user: OpenAIFake;
beforeAll(async () => {
  operator = await createOpenAIFake();
  user = await createOpenAIFake();
});
afterAll(async () => {
  await operator.close();
  await user.close();
});
beforeEach(() => {
  operator.reset();
  user.reset();
});

const OPERATOR_KEY = 'operator-azure-key';
/** The operator's Azure settings; `extra` adds the outbound policy (the fakes are loopback addresses). */
const deps = (extra: Record<string, string> = {}) => testModelDeps({ AZURE_OPENAI_ENDPOINT: operator.url, AZURE_OPENAI_API_KEY: OPERATOR_KEY, ...extra });
const allowLoopback = { WEFT_OUTBOUND_ALLOWLIST: '127.0.0.1' };
const ask = (over: Partial<CallModelInput> = {}): CallModelInput => ({ model: 'azure/gpt-4o', messages: [{ role: 'user', content: 'Hi' }], ...over });

async function failure(p: Promise<unknown>): Promise<TimedModelError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TimedModelError);
  return err as TimedModelError;
}

/** Every api-key header either fake received. */
const keysSeen = () => [...operator.server.requests, ...user.server.requests].map((r) => r.headers['api-key']);

describe("Azure OpenAI: the operator's key goes only to the operator's endpoint", () => {
  it("a block without endpoint or key uses AZURE_OPENAI_ENDPOINT with AZURE_OPENAI_API_KEY; its own key wins there", async () => {
    await callModel(deps(), ask());
    await callModel(deps(), ask({ apiKey: 'block-key' }));
    expect(operator.chatRequests().map((r) => [r.path, r.headers['api-key']])).toEqual([
      ['/openai/deployments/gpt-4o/chat/completions', OPERATOR_KEY],
      ['/openai/deployments/gpt-4o/chat/completions', 'block-key'],
    ]);
  });

  it('a block that types its own endpoint and leaves the key empty fails naming both fields; nothing is sent anywhere', async () => {
    const err = await failure(callModel(deps(allowLoopback), ask({ azureEndpoint: user.url })));
    expect(err.message).toBe(AZURE_OWN_KEY_REQUIRED);
    expect(err.original).toBeInstanceOf(ModelRequestError);
    expect(err.message).toContain('(apiKey)');
    expect(err.message).toContain('(azureEndpoint)');
    expect(user.server.requests).toEqual([]);
    expect(operator.server.requests).toEqual([]);
  });

  it("with its own key the block's endpoint gets that key (plain and streamed through the outbound guard), never the operator's", async () => {
    user.reply({ content: 'from the user resource' }, { content: 'streamed from the user resource' });
    const plain = await callModel(deps(allowLoopback), ask({ azureEndpoint: user.url, apiKey: 'user-key' }));
    const d = deps(allowLoopback);
    const streamed = await callModel(d, ask({ azureEndpoint: `${user.url}/`, apiKey: 'user-key', stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    expect(plain.content).toBe('from the user resource');
    expect(streamed.content).toBe('streamed from the user resource');
    expect(d.chunks.map((c) => c.chunk).join('')).toBe('streamed from the user resource');
    expect(d.chunks.length).toBeGreaterThan(1);
    expect(user.chatRequests().map((r) => r.headers['api-key'])).toEqual(['user-key', 'user-key']);
    expect(keysSeen()).not.toContain(OPERATOR_KEY);
  });

  it("the operator's endpoint typed again in the block (trailing slash) is the operator's: its key may be used", async () => {
    await callModel(deps(), ask({ azureEndpoint: `${operator.url}/` }));
    expect(operator.chatRequests().map((r) => r.headers['api-key'])).toEqual([OPERATOR_KEY]);
  });

  it("the adapter itself refuses the operator's key with a user endpoint (any caller that skipped callModel's check)", async () => {
    const { config } = deps(allowLoopback);
    const sink = { text: () => undefined, toolDetected: () => undefined, warn: () => undefined };
    expect(() => azureOpenaiAdapter.call({ model: 'azure/gpt-4o', messages: [], apiKey: OPERATOR_KEY, azureEndpoint: user.url, stream: false }, config, sink)).toThrow(AZURE_OWN_KEY_REQUIRED);
    expect(user.server.requests).toEqual([]);
  });

  it("a deployment name outside Azure's characters is an invalid model: it cannot move the call to another path of the operator's resource", async () => {
    for (const model of ['azure/../../openai/files', 'azure/x?y=1', 'azure/..', 'azure/a/b']) {
      const err = await failure(callModel(deps(), ask({ model })));
      expect(err.message).toBe(`Invalid model selected: ${model}`);
      expect(err.original).toBeInstanceOf(ModelRequestError);
    }
    expect(operator.server.requests).toEqual([]);
    await callModel(deps(), ask({ model: 'azure/gpt-4o-mini_v2.1' }));
    expect(operator.chatRequests().map((r) => r.path)).toEqual(['/openai/deployments/gpt-4o-mini_v2.1/chat/completions']);
  });

  it('an endpoint that is not an http(s) URL is a user error naming the field', async () => {
    for (const azureEndpoint of ['not a url', 'file:///etc/passwd']) {
      const err = await failure(callModel(deps(), ask({ azureEndpoint, apiKey: 'user-key' })));
      expect(err.message).toBe(AZURE_ENDPOINT_INVALID);
    }
  });
});

describe("Azure OpenAI: a block's endpoint goes through the outbound guard", () => {
  it.each([
    ['loopback', () => user.url, '127.0.0.1'],
    ['localhost by name', () => user.url.replace('127.0.0.1', 'localhost'), 'localhost'],
    ['cloud metadata', () => 'http://169.254.169.254', '169.254.169.254'],
    ['private', () => 'http://10.0.0.7:8080', '10.0.0.7'],
  ])('a %s address is refused unless allowed, not retried, and nothing reaches it', async (_kind, endpoint, host) => {
    const err = await failure(callModel(deps(), ask({ azureEndpoint: endpoint(), apiKey: 'user-key' })));
    expect(err.message).toBe(`Outbound request refused: ${host} is a loopback, private, link-local or reserved address`);
    expect(err.original).toBeInstanceOf(ModelRequestError);
    expect(user.server.requests).toEqual([]);
  });

  it('WEFT_ALLOW_PRIVATE_NETWORK lets it through', async () => {
    user.reply({ content: 'allowed' });
    const out = await callModel(deps({ WEFT_ALLOW_PRIVATE_NETWORK: 'true' }), ask({ azureEndpoint: user.url, apiKey: 'user-key' }));
    expect(out.content).toBe('allowed');
  });

  it('a redirect is not followed: the key never reaches the host it points to', async () => {
    user.server.once('POST', '/openai/deployments/:d/chat/completions', { status: 307, headers: { location: `${operator.url}/openai/deployments/gpt-4o/chat/completions` } });
    const err = await failure(callModel(deps(allowLoopback), ask({ azureEndpoint: user.url, apiKey: 'user-key' })));
    expect(err.original).toBeInstanceOf(ModelProviderError);
    expect(err.original).toMatchObject({ status: 307 });
    expect(operator.server.requests).toEqual([]);
  });
});

describe('Azure OpenAI response format (§9: strict unless strict is false)', () => {
  it.each([
    [undefined, true],
    [true, true],
    [false, false],
  ])('strict %s sends json_schema strict %s to the deployment (api version 2024-08-01-preview or later, which has json_schema)', async (strict, sent) => {
    operator.reply({ content: '{"a":1}' });
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    await callModel(deps(), ask({ apiKey: 'k', azureApiVersion: '2024-08-01-preview', responseFormat: { name: 'out', schema, ...(strict !== undefined ? { strict } : {}) } }));
    const [req] = operator.chatRequests();
    expect(req?.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    // Strict mode needs closed objects with every property required: an optional one admits null instead.
    const wire = sent ? { type: 'object', properties: { a: { type: ['number', 'null'] } }, required: ['a'], additionalProperties: false } : schema;
    expect(req?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'out', schema: wire, strict: sent } } });
  });

  it('on the default 2024-07-01-preview (no json_schema there) the schema goes as json_object, written into the system prompt', async () => {
    operator.reply({ content: '{"a":1}' });
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    await callModel(deps(), ask({ apiKey: 'k', systemPrompt: 'Extract.', responseFormat: { name: 'out', schema } }));
    const [req] = operator.chatRequests();
    expect(req?.query['api-version']).toBe('2024-07-01-preview');
    expect(req?.body).toMatchObject({
      response_format: { type: 'json_object' },
      messages: [{ role: 'system', content: `Extract.\n\nRespond only with a JSON object that matches this JSON schema (out): ${JSON.stringify(schema)}` }, { role: 'user', content: 'Hi' }],
    });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAIFake, type OpenAIFake } from '@weft/testkit';
import type { CallModelInput } from '@weft/contracts';
import { callModel, TimedModelError } from '../callModel.js';
import { compatibleEnv, testModelDeps } from '../testDeps.js';
import { toFailure } from '../activities.js';
import { AZURE_ENDPOINT_REQUIRED } from './azureOpenai.provider.js';
import { listOllamaModels } from './ollama.provider.js';

let fake: OpenAIFake;
beforeAll(async () => {
  fake = await createOpenAIFake({ localModels: ['llama3.2:latest', 'qwen2.5'] });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const deps = () => testModelDeps({ ...compatibleEnv(fake.url), OPENAI_API_KEY: 'op-key' });
const weather = { name: 'get_weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const ask = (over: Partial<CallModelInput> = {}): CallModelInput => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], apiKey: 'sk-test', ...over });

async function failure(p: Promise<unknown>): Promise<TimedModelError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TimedModelError);
  return err as TimedModelError;
}

describe('OpenAI-compatible adapters against the fake', () => {
  it('OpenAI: sends system prompt, messages, tools, tool_choice, clamped temperature and max tokens with the key', async () => {
    fake.reply({ content: 'Hello!', usage: { prompt: 1000, completion: 200, cached: 400 } });
    const out = await callModel(deps(), ask({ systemPrompt: 'Be brief', tools: [weather], toolChoice: { name: 'get_weather' }, temperature: 3, maxTokens: 50 }));
    const [req] = fake.chatRequests();
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer sk-test');
    expect(req?.body).toMatchObject({
      model: 'gpt-4o',
      messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Hi' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather.parameters } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 2,
      max_tokens: 50,
    });
    expect(out).toMatchObject({ content: 'Hello!', provider: 'openai', model: 'gpt-4o', toolCalls: [], tokens: { prompt: 1000, completion: 200, total: 1200, cachedPrompt: 400 } });
    // 600 fresh × 2.5 + 400 cached × 1.25 per million; 200 × 10 per million.
    expect(out.cost).toEqual({ input: 0.002, output: 0.002, total: 0.004 });
    expect(out.timing.duration).toBeGreaterThanOrEqual(0);
  });

  it('uses the operator key when the block has none; a model without a temperature range gets none', async () => {
    fake.reply({ content: 'ok' });
    await callModel(deps(), ask({ apiKey: '', model: 'o3', temperature: 0.5 }));
    const [req] = fake.chatRequests();
    expect(req?.headers.authorization).toBe('Bearer op-key');
    expect(req?.body).not.toHaveProperty('temperature');
  });

  it('parses a stream: text deltas published as chunks in order, tool call deltas joined, usage read', async () => {
    fake.reply({ content: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' }, id: 'call_a' }], usage: { prompt: 12, completion: 8 } });
    const d = deps();
    const out = await callModel(d, ask({ tools: [weather], stream: { executionId: 'ex1', blockId: 'b1', seqStart: 3 } }));
    const [req] = fake.chatRequests();
    expect(req?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(out.content).toBe('Let me check.');
    expect(out.toolCalls).toEqual([{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(out.tokens).toMatchObject({ prompt: 12, completion: 8, total: 20 });
    const text = d.chunks.filter((c) => !c.toolCall).map((c) => c.chunk).join('');
    expect(text).toBe('Let me check.');
    expect(d.chunks.map((c) => c.seq)).toEqual(d.chunks.map((_, i) => 3 + i));
    expect(d.chunks.filter((c) => c.toolCall).map((c) => c.toolCall?.state)).toEqual(['detecting', 'executing']);
    expect(out.chunks).toBe(d.chunks.length);
    expect(d.chunks.every((c) => c.executionId === 'ex1' && c.blockId === 'b1')).toBe(true);
  });

  it('a call whose caller sends the tool states itself (the agent loop) publishes only detecting', async () => {
    fake.reply({ content: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' }, id: 'call_a' }] });
    const d = deps();
    const out = await callModel(d, ask({ tools: [weather], stream: { executionId: 'ex1', blockId: 'b1', seqStart: 0, callerSendsToolStates: true } }));
    expect(out.toolCalls).toHaveLength(1);
    expect(d.chunks.filter((c) => c.toolCall).map((c) => c.toolCall?.state)).toEqual(['detecting']);
    expect(out.chunks).toBe(d.chunks.length);
  });

  it('a call the provider gives no id gets an 8-character one (spec 000 §9), unlike the earlier ones, in a stream and a whole answer', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] });
    fake.server.once('POST', '/v1/chat/completions', {
      sse: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
        chunk({}, 'tool_calls'),
        'data: [DONE]',
      ],
    });
    const earlier: CallModelInput['messages'] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'AAAAAAAA', name: 'get_weather', arguments: { city: 'Rome' } }] },
      { role: 'tool', toolCallId: 'AAAAAAAA', name: 'get_weather', content: '{}' },
    ];
    const d = deps();
    const streamed = await callModel(d, ask({ tools: [weather], messages: earlier, stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    fake.server.once('POST', '/v1/chat/completions', {
      json: { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lima"}' } }] }, finish_reason: 'tool_calls' }] },
    });
    const plain = await callModel(deps(), ask({ tools: [weather], messages: earlier }));
    expect(streamed.toolCalls).toEqual([{ id: expect.stringMatching(/^[A-Za-z0-9]{8}$/) as string, name: 'get_weather', arguments: { city: 'Oslo' } }]);
    expect(plain.toolCalls).toEqual([{ id: expect.stringMatching(/^[A-Za-z0-9]{8}$/) as string, name: 'get_weather', arguments: { city: 'Lima' } }]);
    expect([streamed.toolCalls[0]?.id, plain.toolCalls[0]?.id]).not.toContain('AAAAAAAA');
    expect(d.chunks.flatMap((c) => (c.toolCall ? [c.toolCall.id] : []))).toEqual([streamed.toolCalls[0]?.id, streamed.toolCalls[0]?.id]);
  });

  it('a stream without usage is estimated at 0.0001 per token', async () => {
    fake.reply({ content: 'abcdefgh', usage: null });
    const out = await callModel(deps(), ask({ messages: [{ role: 'user', content: 'x'.repeat(40) }], stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    expect(out.tokens).toEqual({ prompt: 10, completion: 2, total: 12 });
    expect(out.cost.total).toBeCloseTo(0.0012, 10);
  });

  it('non-streamed tool calls come back parsed; tool results go back as tool messages', async () => {
    fake.reply({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, { content: 'Cold.' });
    const first = await callModel(deps(), ask({ tools: [weather] }));
    expect(first.toolCalls).toMatchObject([{ name: 'get_weather', arguments: { city: 'Oslo' } }]);
    const call = first.toolCalls[0];
    if (!call) throw new Error('no call');
    const second = await callModel(
      deps(),
      ask({ tools: [weather], messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: '', toolCalls: [call] }, { role: 'tool', toolCallId: call.id, name: call.name, content: '{"temp":-3}' }] }),
    );
    expect(second.content).toBe('Cold.');
    expect(fake.chatRequests()[1]?.body).toMatchObject({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: call.id, content: '{"temp":-3}' },
      ],
    });
  });

  it('sends a strict JSON schema response format, the schema made strict-compatible (closed objects, all required, optional ones nullable)', async () => {
    fake.reply({ content: '{"a":1,"tags":null,"at":{"x":1}}' });
    const schema = {
      type: 'object',
      properties: { a: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } }, at: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] }, kind: { enum: ['a', 'b'] } },
      required: ['a', 'at'],
    };
    const out = await callModel(deps(), ask({ responseFormat: { name: 'out', schema } }));
    expect(out.content).toBe('{"a":1,"tags":null,"at":{"x":1}}');
    expect(fake.chatRequests()[0]?.body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'out',
          strict: true,
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['a', 'tags', 'at', 'kind'],
            properties: {
              a: { type: 'number' },
              tags: { type: ['array', 'null'], items: { type: 'string' } },
              at: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'integer' } } },
              kind: { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] },
            },
          },
        },
      },
    });
  });

  it('a schema that cannot be strict (an object open to other properties) goes with strict false, as typed; strict false is honoured', async () => {
    const open = { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: true };
    fake.reply({ content: '{}' }, { content: '{}' });
    await callModel(deps(), ask({ responseFormat: { name: 'open', schema: open } }));
    await callModel(deps(), ask({ responseFormat: { name: 'loose', schema: { type: 'object', properties: { a: { type: 'number' } } }, strict: false } }));
    const [first, second] = fake.chatRequests();
    expect(first?.body).toMatchObject({ response_format: { json_schema: { strict: false, schema: open } } });
    expect(second?.body).toMatchObject({ response_format: { json_schema: { strict: false, schema: { type: 'object', properties: { a: { type: 'number' } } } } } });
  });

  it('strict mode combines schemas with anyOf only: a oneOf goes as anyOf (strict), a schema with allOf, not, if/then or patternProperties goes with strict false, as typed', async () => {
    const choice = { type: 'object', properties: { pet: { oneOf: [{ type: 'string' }, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }] } }, required: ['pet'] };
    const combined = { type: 'object', properties: { a: { allOf: [{ type: 'number' }, { minimum: 1 }] } }, required: ['a'] };
    const negated = { type: 'object', properties: { a: { not: { type: 'null' } } }, required: ['a'] };
    const conditional = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], if: { properties: { a: { const: 'x' } } }, then: { required: ['a'] } };
    const patterned = { type: 'object', properties: { a: { type: 'object', properties: {}, patternProperties: { '^x': { type: 'string' } } } }, required: ['a'] };
    fake.reply({ content: '{"pet":"cat"}' }, { content: '{"a":1}' }, { content: '{"a":1}' }, { content: '{"a":"x"}' }, { content: '{"a":{}}' });
    const outs = [];
    for (const schema of [choice, combined, negated, conditional, patterned]) outs.push((await callModel(deps(), ask({ responseFormat: { name: 'out', schema } }))).content);
    expect(outs).toEqual(['{"pet":"cat"}', '{"a":1}', '{"a":1}', '{"a":"x"}', '{"a":{}}']);
    const [first, ...rest] = fake.chatRequests().map((r) => (r.body as { response_format: { json_schema: unknown } }).response_format.json_schema);
    expect(first).toEqual({
      name: 'out',
      strict: true,
      schema: {
        type: 'object',
        properties: { pet: { anyOf: [{ type: 'string' }, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false }] } },
        required: ['pet'],
        additionalProperties: false,
      },
    });
    expect(rest).toEqual([combined, negated, conditional, patterned].map((schema) => ({ name: 'out', strict: false, schema })));
  });

  it('the fake refuses a strict schema OpenAI refuses (what the old body sent)', async () => {
    const res = await fetch(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [], response_format: { type: 'json_schema', json_schema: { name: 'out', strict: true, schema: { type: 'object', properties: { a: { type: 'number' } } } } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { message: "Invalid schema for response_format 'out': In context=(), 'additionalProperties' is required to be supplied and to be false." } });
  });

  it('a root that is not an object (a root oneOf or anyOf) and minLength, maxLength or default go with strict false, as typed; minimum and pattern stay strict', async () => {
    const item = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const rootOneOf = { oneOf: [item, { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] }] };
    const rootAnyOf = { anyOf: [item, { type: 'string' }] };
    const lengths = { type: 'object', properties: { a: { type: 'string', minLength: 1, maxLength: 9 } }, required: ['a'] };
    const defaulted = { type: 'object', properties: { a: { type: 'string', default: 'x' } }, required: ['a'] };
    const bounded = { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 5 }, s: { type: 'string', pattern: '^[a-z]+$' } }, required: ['n', 's'] };
    fake.reply({ content: '{"a":"x"}' }, { content: '{"a":"x"}' }, { content: '{"a":"x"}' }, { content: '{"a":"x"}' }, { content: '{"n":1,"s":"x"}' });
    const outs = [];
    for (const schema of [rootOneOf, rootAnyOf, lengths, defaulted, bounded]) outs.push((await callModel(deps(), ask({ responseFormat: { name: 'out', schema } }))).content);
    expect(outs).toEqual(['{"a":"x"}', '{"a":"x"}', '{"a":"x"}', '{"a":"x"}', '{"n":1,"s":"x"}']);
    const sent = fake.chatRequests().map((r) => (r.body as { response_format: { json_schema: unknown } }).response_format.json_schema);
    expect(sent.slice(0, 4)).toEqual([rootOneOf, rootAnyOf, lengths, defaulted].map((schema) => ({ name: 'out', strict: false, schema })));
    expect(sent[4]).toEqual({ name: 'out', strict: true, schema: { ...bounded, additionalProperties: false } });
  });

  it('a root with properties but no type is the object users mean: sent strict with type object (OpenAI refuses a strict root without a type)', async () => {
    const untyped = { properties: { a: { type: 'string' }, n: { type: 'integer' } }, required: ['a'] };
    fake.reply({ content: '{"a":"x","n":null}' });
    const out = await callModel(deps(), ask({ responseFormat: { name: 'out', schema: untyped } }));
    expect(out.content).toBe('{"a":"x","n":null}');
    expect((fake.chatRequests()[0]?.body as { response_format: unknown }).response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'out',
        strict: true,
        schema: { type: 'object', properties: { a: { type: 'string' }, n: { type: ['integer', 'null'] } }, required: ['a', 'n'], additionalProperties: false },
      },
    });
  });

  it("fails a $ref with a stray % as the user's error naming the ref, its field and the schema, before any request", async () => {
    const schema = { type: 'object', properties: { list: { type: 'array', items: { $ref: '#/$defs/a%zz' } } }, required: ['list'], $defs: { 'a%zz': { type: 'string' } } };
    const answer = await failure(callModel(deps(), ask({ responseFormat: { name: 'out', schema } })));
    expect(answer.message).toBe('Invalid $ref "#/$defs/a%zz" at field list.* in the Response Format (responseFormat): "%zz" is not a percent-escape (write a % as %25)');
    expect(answer.original.name).toBe('ModelRequestError');
    const tool = await failure(callModel(deps(), ask({ tools: [{ name: 'save', description: 'Saves', parameters: schema }] })));
    expect(tool.message).toBe('Invalid $ref "#/$defs/a%zz" at field list.* in the parameters of tool "save": "%zz" is not a percent-escape (write a % as %25)');
    const inDefs = { ...schema, properties: { a: { $ref: '#/$defs/B' } }, $defs: { B: { type: 'object', properties: { c: { $ref: '#/$defs/%E0%A4%A' } } } } };
    expect((await failure(callModel(deps(), ask({ responseFormat: { schema: inDefs } })))).message).toBe(
      'Invalid $ref "#/$defs/%E0%A4%A" at field #/$defs/B.c in the Response Format (responseFormat): "%A" is not a percent-escape (write a % as %25)',
    );
    expect(fake.chatRequests()).toEqual([]);
    // A proper escape goes as written, strict.
    fake.reply({ content: '{"list":[]}' });
    await callModel(deps(), ask({ responseFormat: { name: 'out', schema: { ...schema, properties: { list: { type: 'array', items: { $ref: '#/$defs/a%25zz' } } } } } }));
    expect(fake.chatRequests()[0]?.body).toMatchObject({ response_format: { json_schema: { strict: true, schema: { properties: { list: { items: { $ref: '#/$defs/a%25zz' } } } } } } });
  });

  it('the fake refuses a strict schema whose root is not an object (or has no type), and minLength, maxLength, default', async () => {
    const send = (schema: unknown) =>
      fetch(`${fake.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [], response_format: { type: 'json_schema', json_schema: { name: 'out', strict: true, schema } } }),
      });
    const closed = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
    const root = await send({ anyOf: [closed, closed] });
    expect(root.status).toBe(400);
    expect(await root.json()).toMatchObject({ error: { message: `Invalid schema for response_format 'out': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.` } });
    const untyped = await send({ properties: closed.properties, required: ['a'], additionalProperties: false });
    expect(await untyped.json()).toMatchObject({ error: { message: `Invalid schema for response_format 'out': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.` } });
    for (const key of ['minLength', 'maxLength', 'default']) {
      const res = await send({ ...closed, properties: { a: { type: 'string', [key]: key === 'default' ? 'x' : 1 } } });
      expect(await res.json()).toMatchObject({ error: { message: `Invalid schema for response_format 'out': In context=('properties', 'a'), '${key}' is not permitted.` } });
    }
  });

  it.each(['o1', 'o3', 'o4-mini', 'gpt-5'])('%s (a reasoning model) gets max_completion_tokens and no temperature, plain and streamed (the vision block always limits tokens)', async (model) => {
    fake.reply({ content: 'thought' }, { content: 'streamed' });
    const plain = await callModel(deps(), ask({ model, maxTokens: 1000, temperature: 0.3 }));
    const streamed = await callModel(deps(), ask({ model, maxTokens: 1000, stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    expect([plain.content, streamed.content]).toEqual(['thought', 'streamed']);
    for (const req of fake.chatRequests()) {
      expect(req.body).toMatchObject({ model, max_completion_tokens: 1000 });
      expect(req.body).not.toHaveProperty('max_tokens');
      expect(req.body).not.toHaveProperty('temperature');
    }
  });

  it("the fake refuses max_tokens and a temperature for reasoning models with OpenAI's 400", async () => {
    const post = (body: Record<string, unknown>) =>
      fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [], ...body }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
    expect(await post({ model: 'o3', max_tokens: 5 })).toMatchObject({ status: 400, body: { error: { param: 'max_tokens', code: 'unsupported_parameter' } } });
    expect(await post({ model: 'o4-mini', temperature: 0.5 })).toMatchObject({ status: 400, body: { error: { param: 'temperature', code: 'unsupported_value' } } });
    expect(await post({ model: 'gpt-4o', max_tokens: 5, temperature: 0.5 })).toMatchObject({ status: 200 });
  });

  it('other OpenAI-compatible providers keep max_tokens', async () => {
    for (const model of ['grok-3-latest', 'deepseek-chat', 'cerebras/llama-3.3-70b', 'groq/qwen-qwq-32b', 'llama3.2:latest']) {
      fake.reply({ content: 'ok' });
      await callModel(deps(), ask({ model, maxTokens: 64 }));
    }
    for (const req of fake.chatRequests()) {
      expect(req.body).toMatchObject({ max_tokens: 64 });
      expect(req.body).not.toHaveProperty('max_completion_tokens');
    }
  });

  it('Deepseek: the catalogue ids deepseek-v3 and deepseek-r1 are sent as deepseek-chat and deepseek-reasoner; the answer keeps the catalogue id', async () => {
    fake.reply({ content: 'v3' }, { content: 'r1' });
    const v3 = await callModel(deps(), ask({ model: 'deepseek-v3' }));
    const r1 = await callModel(deps(), ask({ model: 'deepseek-r1' }));
    expect(fake.chatRequests().map((r) => (r.body as { model: string }).model)).toEqual(['deepseek-chat', 'deepseek-reasoner']);
    expect([v3.model, r1.model, v3.content, r1.content]).toEqual(['deepseek-v3', 'deepseek-r1', 'v3', 'r1']);
  });

  it("Deepseek: a response schema goes as json_object with the schema in the system prompt (its API refuses json_schema); the fake refuses what Deepseek does", async () => {
    fake.reply({ content: '{"a":1}' });
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    await callModel(deps(), ask({ model: 'deepseek-chat', systemPrompt: 'Be brief', responseFormat: { name: 'out', schema } }));
    const body = fake.chatRequests()[0]?.body as { response_format: unknown; messages: Array<{ role: string; content: string }> };
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0]).toEqual({ role: 'system', content: `Be brief\n\nRespond only with a JSON object that matches this JSON schema (out): ${JSON.stringify(schema)}` });
    const post = (b: Record<string, unknown>) => fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [], ...b }) }).then(async (r) => [r.status, await r.json()] as const);
    expect(await post({ model: 'deepseek-v3' })).toMatchObject([400, { error: { message: 'Model Not Exist' } }]);
    expect(await post({ model: 'deepseek-chat', response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } })).toMatchObject([400, { error: { message: 'This response_format type is unavailable now' } }]);
  });

  it('Groq: json_schema (best effort) on models with structured outputs, json_object with the schema in the prompt on the others', async () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    fake.reply({ content: '{}' }, { content: '{}' });
    await callModel(deps(), ask({ model: 'groq/meta-llama/llama-4-scout-17b-16e-instruct', responseFormat: { name: 'out', schema } }));
    await callModel(deps(), ask({ model: 'groq/qwen-qwq-32b', responseFormat: { name: 'out', schema } }));
    const [scout, qwq] = fake.chatRequests().map((r) => r.body as { response_format: unknown; messages: Array<{ role: string; content: string }> });
    expect(scout?.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'out', schema, strict: false } });
    expect(qwq?.response_format).toEqual({ type: 'json_object' });
    expect(qwq?.messages[0]?.content).toContain('JSON schema (out)');
  });

  it("a 429 for an exhausted quota (OpenAI's insufficient_quota) is not retried; a rate limit is", async () => {
    fake.reply({ error: { status: 429, message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const quota = await failure(callModel(deps(), ask()));
    expect(quota.message).toContain('You exceeded your current quota');
    expect(quota.original).toMatchObject({ status: 429, code: 'insufficient_quota', retryable: false });
    fake.reply({ error: { status: 429, message: 'Rate limit reached' } });
    const limited = await failure(callModel(deps(), ask()));
    expect(limited.original).toMatchObject({ status: 429, retryable: true });
  });

  it('provider errors keep the status and message, with timing', async () => {
    fake.reply({ error: { status: 401, message: 'Incorrect API key provided' } });
    const err = await failure(callModel(deps(), ask()));
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.original).toMatchObject({ status: 401 });
    expect(err.timing.duration).toBeGreaterThanOrEqual(0);
    expect(new Date(err.timing.endTime).getTime()).toBeGreaterThanOrEqual(new Date(err.timing.startTime).getTime());
  });

  it('Azure: deployment path, api version 2024-07-01-preview, api-key header; endpoint required', async () => {
    fake.reply({ content: 'from azure' });
    const out = await callModel(deps(), ask({ model: 'azure/gpt-4o' }));
    const [req] = fake.chatRequests();
    expect(req?.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(req?.query['api-version']).toBe('2024-07-01-preview');
    expect(req?.headers['api-key']).toBe('sk-test');
    expect(out).toMatchObject({ content: 'from azure', provider: 'azure-openai' });
    const noEndpoint = testModelDeps({});
    const err = await failure(callModel(noEndpoint, ask({ model: 'azure/gpt-4o' })));
    expect(err.message).toBe(AZURE_ENDPOINT_REQUIRED);
  });

  it('Azure on 2024-07-01-preview: a stream asks no usage (Azure refuses stream_options before 2024-09-01-preview), its tokens estimated; a later version asks it', async () => {
    const stream = { executionId: 'e', blockId: 'b', seqStart: 0 };
    fake.reply({ content: 'abcdefgh' }, { content: 'later', usage: { prompt: 12, completion: 3 } });
    const old = await callModel(deps(), ask({ model: 'azure/gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(40) }], stream }));
    const later = await callModel(deps(), ask({ model: 'azure/gpt-4o', azureApiVersion: '2024-10-21', stream }));
    const [first, second] = fake.chatRequests();
    expect(first?.query['api-version']).toBe('2024-07-01-preview');
    expect(first?.body).not.toHaveProperty('stream_options');
    // No usage from the stream: the §9 streaming estimate, not invented counts.
    expect(old.tokens).toEqual({ prompt: 10, completion: 2, total: 12 });
    expect(second?.query['api-version']).toBe('2024-10-21');
    expect(second?.body).toMatchObject({ stream_options: { include_usage: true } });
    expect(later.tokens).toMatchObject({ prompt: 12, completion: 3, total: 15 });
  });

  it('Azure on 2024-07-01-preview: a response schema goes as json_object with the schema in the system prompt; from 2024-08-01-preview as strict json_schema', async () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
    fake.reply({ content: '{"a":1}' }, { content: '{"a":2}' });
    await callModel(deps(), ask({ model: 'azure/gpt-4o', responseFormat: { name: 'out', schema } }));
    await callModel(deps(), ask({ model: 'azure/gpt-4o', azureApiVersion: '2024-08-01-preview', responseFormat: { name: 'out', schema } }));
    const [old, newer] = fake.chatRequests().map((r) => r.body as { response_format: unknown; messages: Array<{ role: string; content: string }> });
    expect(old?.response_format).toEqual({ type: 'json_object' });
    expect(old?.messages[0]).toEqual({ role: 'system', content: `Respond only with a JSON object that matches this JSON schema (out): ${JSON.stringify(schema)}` });
    expect(newer?.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'out', strict: true, schema: { ...schema, additionalProperties: false } } });
  });

  it('Azure reasoning deployments are called with the first api version serving their model when the configured one is older (o1, o3-mini 2024-12-01-preview; o3, o4-mini, gpt-5 2025-04-01-preview), with max_completion_tokens and stream usage', async () => {
    fake.reply({ content: 'o3 answer' }, { content: 'o4 answer', usage: { prompt: 4, completion: 2 } }, { content: 'o3-mini answer' }, { content: 'o1 answer' }, { content: 'o4 old' }, { content: 'gpt-5 answer' }, { content: 'o3 newer' });
    const o3 = await callModel(deps(), ask({ model: 'azure/o3', maxTokens: 1000 }));
    const o4 = await callModel(deps(), ask({ model: 'azure/o4-mini', maxTokens: 1000, azureApiVersion: '2024-12-01-preview', stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    const rest = [];
    for (const [model, azureApiVersion] of [['o3-mini', undefined], ['o1', '2024-10-21'], ['o4-mini', '2025-01-01-preview'], ['gpt-5', undefined], ['o3', '2025-06-01-preview']] as const)
      rest.push((await callModel(deps(), ask({ model: `azure/${model}`, ...(azureApiVersion ? { azureApiVersion } : {}) }))).content);
    const [first, second, ...others] = fake.chatRequests();
    expect(first?.query['api-version']).toBe('2025-04-01-preview');
    expect(first?.body).toMatchObject({ max_completion_tokens: 1000 });
    expect(first?.body).not.toHaveProperty('max_tokens');
    expect(second?.query['api-version']).toBe('2025-04-01-preview');
    expect(second?.body).toMatchObject({ max_completion_tokens: 1000, stream_options: { include_usage: true } });
    expect(others.map((r) => r.query['api-version'])).toEqual(['2024-12-01-preview', '2024-12-01-preview', '2025-04-01-preview', '2025-04-01-preview', '2025-06-01-preview']);
    expect([o3.content, o4.content, o4.tokens?.total, ...rest]).toEqual(['o3 answer', 'o4 answer', 6, 'o3-mini answer', 'o1 answer', 'o4 old', 'gpt-5 answer', 'o3 newer']);
  });

  it('AZURE_OPENAI_API_VERSION is read trimmed', async () => {
    fake.reply({ content: 'ok' });
    await callModel(testModelDeps({ ...compatibleEnv(fake.url), AZURE_OPENAI_API_VERSION: ' 2024-10-21 \n' }), ask({ model: 'azure/gpt-4o' }));
    expect(fake.chatRequests()[0]?.query['api-version']).toBe('2024-10-21');
  });

  it("the fake's Azure route refuses what each api version lacks, as Azure does", async () => {
    const post = (deployment: string, version: string, body: Record<string, unknown>) =>
      fetch(`${fake.url}/openai/deployments/${deployment}/chat/completions?api-version=${version}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [], ...body }) }).then(
        async (r) => [r.status, await r.json()] as const,
      );
    expect(await post('gpt-4o', '2024-07-01-preview', { stream: true, stream_options: { include_usage: true } })).toMatchObject([400, { error: { message: 'Unrecognized request argument supplied: stream_options' } }]);
    expect(await post('gpt-4o', '2024-07-01-preview', { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } } })).toMatchObject([400, { error: { param: 'response_format.type' } }]);
    expect(await post('o1', '2024-07-01-preview', {})).toMatchObject([400, { error: { message: 'Model o1 is enabled only for api versions 2024-12-01-preview and later' } }]);
    expect(await post('o3', '2024-12-01-preview', {})).toMatchObject([400, { error: { message: 'Model o3 is enabled only for api versions 2025-04-01-preview and later' } }]);
    expect(await post('o3-mini', '2024-12-01-preview', { max_tokens: 5 })).toMatchObject([400, { error: { code: 'unsupported_parameter' } }]);
    expect(await post('o3', '2025-04-01-preview', { max_tokens: 5 })).toMatchObject([400, { error: { code: 'unsupported_parameter' } }]);
    expect((await post('gpt-4o', '2024-07-01-preview', { max_tokens: 5 }))[0]).toBe(200);
  });

  it.each([
    ['deepseek-chat', 'deepseek', '/v1/chat/completions', 'deepseek-chat', 'Deepseek'],
    ['grok-3-latest', 'xai', '/v1/chat/completions', 'grok-3-latest', 'xAI'],
    ['cerebras/llama-3.3-70b', 'cerebras', '/v1/chat/completions', 'llama-3.3-70b', 'Cerebras'],
    ['groq/qwen-qwq-32b', 'groq', '/openai/v1/chat/completions', 'qwen-qwq-32b', 'Groq'],
  ])('%s goes to %s at %s as %s, and needs a key', async (model, provider, path, wire, name) => {
    fake.reply({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] });
    const out = await callModel(deps(), ask({ model, tools: [weather], toolChoice: { name: 'get_weather' } }));
    const [req] = fake.chatRequests();
    expect(req?.path).toBe(path);
    expect(req?.body).toMatchObject({ model: wire });
    expect(out.provider).toBe(provider);
    expect(out.toolCalls[0]?.arguments).toEqual({ city: 'Rome' });
    // Cerebras and Groq take no tool usage control (§9).
    if (provider === 'cerebras' || provider === 'groq') expect(req?.body).not.toHaveProperty('tool_choice');
    else expect(req?.body).toHaveProperty('tool_choice');
    const err = await failure(callModel(deps(), ask({ model, apiKey: '' })));
    expect(err.message).toBe(`API key is required for ${name}`);
  });

  it('a model no provider claims goes to the local Ollama server (OpenAI route), keyless; a forced tool is the only one offered', async () => {
    fake.reply({ content: 'local answer' });
    const other = { ...weather, name: 'other' };
    const out = await callModel(deps(), ask({ model: 'llama3.2:latest', apiKey: '', tools: [weather, other], toolChoice: { name: 'get_weather' }, temperature: 0.4 }));
    const [req] = fake.chatRequests();
    expect(out).toMatchObject({ provider: 'ollama', content: 'local answer' });
    expect(req?.path).toBe('/v1/chat/completions');
    expect(req?.body).toMatchObject({ model: 'llama3.2:latest', temperature: 0.4, tools: [{ function: { name: 'get_weather' } }] });
    expect((req?.body as { tools: unknown[] }).tools).toHaveLength(1);
  });

  it("fails a tool call cut off at finish_reason length (arguments cut mid-JSON) as the user's error naming the tool and Max Tokens, streamed or not, for each compatible provider", async () => {
    const cut = { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }, { name: 'get_forecast', arguments: { city: 'Lima', days: 5 } }], cutToolCall: true };
    const d = deps();
    const stream = { executionId: 'e', blockId: 'b', seqStart: 0 };
    const cases = [
      { model: 'gpt-4o', provider: 'openai', streamed: false },
      { model: 'gpt-4o', provider: 'openai', streamed: true },
      { model: 'groq/llama-3.3-70b-versatile', provider: 'groq', streamed: false },
    ] as const;
    for (const { model, provider, streamed } of cases) {
      fake.reply(cut);
      const err = await failure(callModel(d, ask({ model, tools: [weather], maxTokens: 30, ...(streamed ? { stream } : {}) })));
      expect(err.message).toBe(`The model's answer was cut off by Max Tokens (maxTokens) while writing a call to tool "get_forecast" (${provider} finish_reason length): the tool was not run; raise Max Tokens`);
      expect(toFailure(err, provider).nonRetryable).toBe(true);
    }
    // The stream showed the calls detected, never executing.
    expect(d.chunks.filter((c) => c.toolCall?.state === 'executing')).toEqual([]);
    expect(d.chunks.filter((c) => c.toolCall?.state === 'detecting')).toHaveLength(2);
    fake.reply({ content: '', finishReason: 'length' });
    expect((await failure(callModel(d, ask({ maxTokens: 1 })))).message).toBe(
      "The model's answer was cut off by Max Tokens (maxTokens) before it wrote any text or tool call (openai finish_reason length): raise Max Tokens",
    );
    fake.reply({ content: 'Cut sho', finishReason: 'length' });
    expect(await callModel(d, ask({ maxTokens: 3 }))).toMatchObject({
      content: 'Cut sho',
      warning: 'The answer was cut off at the max tokens limit (openai finish_reason length): it is incomplete',
    });
    expect(d.warnings).toContain('The model stopped at the max tokens limit (openai finish_reason length): the answer is cut short');
  });

  it("sends http(s) and data: image URLs as image_url parts; a URL that is not one fails before any request, the user's to fix, for each compatible provider", async () => {
    const withImage = (model: string, url: string) => ask({ model, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url }] }] });
    const data = `data:image/png;base64,${Buffer.from('89504e470d0a1a0a', 'hex').toString('base64')}`;
    fake.reply({ content: 'A cat.' }, { content: 'A cat.' });
    await callModel(deps(), withImage('gpt-4o', 'https://cat.example.invalid/cat.png'));
    await callModel(deps(), withImage('gpt-4o', data));
    expect(fake.chatRequests().map((r) => (r.body as { messages: Array<{ content: unknown[] }> }).messages[0]?.content[1])).toEqual([
      { type: 'image_url', image_url: { url: 'https://cat.example.invalid/cat.png' } },
      { type: 'image_url', image_url: { url: data } },
    ]);
    fake.reset();
    const models: Array<[string, 'openai' | 'azure-openai' | 'groq' | 'xai' | 'ollama']> = [
      ['gpt-4o', 'openai'],
      ['azure/gpt-4o', 'azure-openai'],
      ['groq/llama-3.3-70b-versatile', 'groq'],
      ['grok-3', 'xai'],
      ['llama3.2:latest', 'ollama'],
    ];
    for (const [model, provider] of models) {
      for (const [url, problem] of [
        ['cat.example.invalid/cat.png', 'it is not a valid URL (give an http(s) URL or a data: URL)'],
        ['javascript:alert(1)', 'its scheme javascript: is not one an image is read from (give an http(s) URL or a data: URL)'],
      ]) {
        const err = await failure(callModel(deps(), withImage(model, url ?? '')));
        expect(err.message).toBe(`Invalid Image URL (imageUrl) ${url}: ${problem}`);
        expect(err.original.name).toBe('ModelRequestError');
        expect(toFailure(err, provider).nonRetryable).toBe(true);
      }
    }
    // A long URL is shown cut to 80 characters.
    const long = `ftp://cat.example.invalid/${'a'.repeat(100)}.png`;
    expect((await failure(callModel(deps(), withImage('gpt-4o', long)))).message).toBe(
      `Invalid Image URL (imageUrl) ${long.slice(0, 77)}...: its scheme ftp: is not one an image is read from (give an http(s) URL or a data: URL)`,
    );
    expect(fake.chatRequests()).toEqual([]);
  });

  it("fails an answer the provider's content filter stopped, or one the model refused, as the user's error (as Gemini's blocked answers and Anthropic's refusals), streamed or not", async () => {
    const d = deps();
    const stream = { executionId: 'e', blockId: 'b', seqStart: 0 };
    for (const [model, provider] of [['gpt-4o', 'openai'], ['azure/gpt-4o', 'azure-openai'], ['groq/llama-3.3-70b-versatile', 'groq']] as const) {
      for (const streamed of [false, true]) {
        fake.reply({ content: 'Here is how to', finishReason: 'content_filter' });
        const err = await failure(callModel(d, ask({ model, ...(streamed ? { stream } : {}) })));
        expect(err.message).toBe(`The model's answer was blocked by the provider's content filter (${provider} finish_reason content_filter)`);
        expect(toFailure(err, provider).nonRetryable).toBe(true);
      }
    }
    const refusal = "I'm sorry, I can't help with that.";
    fake.server.once('POST', '/v1/chat/completions', { json: { id: 'c', object: 'chat.completion', created: 0, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal }, finish_reason: 'stop' }] } });
    const whole = await failure(callModel(d, ask()));
    expect(whole.message).toBe(`The model declined to answer (openai refusal): ${refusal}`);
    expect(toFailure(whole, 'openai').nonRetryable).toBe(true);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] });
    fake.server.once('POST', '/v1/chat/completions', { sse: [chunk({ role: 'assistant', refusal: "I'm sorry, " }), chunk({ refusal: "I can't help with that." }), chunk({}, 'stop'), '[DONE]'] });
    expect((await failure(callModel(d, ask({ stream })))).message).toBe(`The model declined to answer (openai refusal): ${refusal}`);
    // An answer that ended as usual is untouched.
    fake.reply({ content: 'Fine.' });
    expect(await callModel(d, ask())).toMatchObject({ content: 'Fine.' });
  });

  it('lists the local models from the server, and none when it is unreachable', async () => {
    expect(await listOllamaModels(deps().config)).toEqual(['llama3.2:latest', 'qwen2.5']);
    expect(await listOllamaModels(testModelDeps({ OLLAMA_URL: 'http://127.0.0.1:1' }).config)).toEqual([]);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeminiFake, type FakeModelServer } from '@weft/testkit';
import type { CallModelInput } from '@weft/contracts';
import { callModel, TimedModelError } from '../callModel.js';
import { testModelDeps } from '../testDeps.js';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await createGeminiFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const deps = () => testModelDeps({ WEFT_GEMINI_BASE_URL: `${fake.url}/v1beta` });
const search = { name: 'search', description: 'Search', parameters: { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false } };
/** Spec 000 §9: 'Tool call id is 8 characters.' */
const ID = /^[A-Za-z0-9]{8}$/;
const ask = (over: Partial<CallModelInput> = {}): CallModelInput => ({ model: 'gemini-2.5-pro', messages: [{ role: 'user', content: 'Find news' }], apiKey: 'gk', ...over });

async function failure(p: Promise<unknown>): Promise<TimedModelError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(TimedModelError);
  return err as TimedModelError;
}

describe('Gemini adapter against the fake', () => {
  it('posts generateContent with the key in the query string: contents, generationConfig, systemInstruction, functionDeclarations, toolConfig', async () => {
    fake.reply({ toolCalls: [{ name: 'search', arguments: { q: 'weft' } }], usage: { prompt: 40, completion: 10 } });
    const out = await callModel(deps(), ask({ systemPrompt: 'Be factual', tools: [search], toolChoice: { name: 'search' }, temperature: 5, maxTokens: 300 }));
    const [req] = fake.chatRequests();
    expect(req?.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(req?.query.key).toBe('gk');
    expect(req?.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Find news' }] }],
      generationConfig: { temperature: 2, maxOutputTokens: 300 },
      systemInstruction: { parts: [{ text: 'Be factual' }] },
      tools: [{ functionDeclarations: [{ name: 'search', parameters: { type: 'object', properties: { q: { type: 'string' } } } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['search'] } },
    });
    expect(out).toMatchObject({ provider: 'google', toolCalls: [{ name: 'search', arguments: { q: 'weft' } }], tokens: { prompt: 40, completion: 10, total: 50 } });
  });

  it('sends function results back as functionResponse parts; a new call gets a new 8-character id (spec 000 §9)', async () => {
    fake.reply({ toolCalls: [{ name: 'search', arguments: { q: 'more' } }] });
    const out = await callModel(
      deps(),
      ask({
        tools: [search],
        messages: [
          { role: 'user', content: 'Find news' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'g0', name: 'search', arguments: { q: 'weft' } }] },
          { role: 'tool', toolCallId: 'g0', name: 'search', content: '{"hits":3}' },
        ],
      }),
    );
    expect(fake.chatRequests()[0]?.body).toMatchObject({
      contents: [
        { role: 'user' },
        { role: 'model', parts: [{ functionCall: { name: 'search', args: { q: 'weft' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'search', response: { hits: 3 } } }] },
      ],
    });
    expect(out.toolCalls).toEqual([{ id: expect.stringMatching(ID) as string, name: 'search', arguments: { q: 'more' } }]);
    expect(out.toolCalls[0]?.id).not.toBe('g0');
  });

  it('gives each call of an answer its own 8-character id; a streamed call is announced under the id it is answered with', async () => {
    const calls = [
      { name: 'search', arguments: { q: 'a' } },
      { name: 'search', arguments: { q: 'b' } },
      { name: 'search', arguments: { q: 'c' } },
    ];
    fake.reply({ toolCalls: calls }, { toolCalls: calls });
    const plain = await callModel(deps(), ask({ tools: [search] }));
    const d = deps();
    const streamed = await callModel(d, ask({ tools: [search], stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    for (const out of [plain, streamed]) {
      expect(out.toolCalls.map((c) => c.arguments)).toEqual([{ q: 'a' }, { q: 'b' }, { q: 'c' }]);
      for (const c of out.toolCalls) expect(c.id).toMatch(ID);
      expect(new Set(out.toolCalls.map((c) => c.id)).size).toBe(3);
    }
    const detecting = d.chunks.flatMap((c) => (c.toolCall?.state === 'detecting' ? [c.toolCall.id] : []));
    expect(detecting).toEqual(streamed.toolCalls.map((c) => c.id));
  });

  it('uses structured output without tools and ignores it with tools (§8)', async () => {
    fake.reply({ content: '{"a":1}' }, { content: 'x' });
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    await callModel(deps(), ask({ responseFormat: { schema } }));
    expect(fake.chatRequests()[0]?.body).toMatchObject({ generationConfig: { responseMimeType: 'application/json', responseSchema: schema } });
    const d = deps();
    await callModel(d, ask({ responseFormat: { schema }, tools: [search] }));
    expect((fake.chatRequests()[1]?.body as { generationConfig: object }).generationConfig).not.toHaveProperty('responseSchema');
    expect(d.warnings.join(' ')).toContain('response format is ignored');
  });

  it('streams with alt=sse; UNEXPECTED_TOOL_CALL is ignored with a warning', async () => {
    fake.reply({ content: 'Streaming words here', finishReason: 'UNEXPECTED_TOOL_CALL', usage: { prompt: 5, completion: 4 } });
    const d = deps();
    const out = await callModel(d, ask({ stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    const [req] = fake.chatRequests();
    expect(req?.path).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent');
    expect(req?.query).toMatchObject({ alt: 'sse', key: 'gk' });
    expect(out.content).toBe('Streaming words here');
    expect(out.tokens).toMatchObject({ prompt: 5, completion: 4 });
    expect(d.chunks.map((c) => c.chunk).join('')).toBe('Streaming words here');
    expect(d.warnings.join(' ')).toContain('UNEXPECTED_TOOL_CALL');
  });

  it("answers 'Gemini API error: {status} {statusText}' and the streaming variant, logging the body", async () => {
    fake.reply({ error: { status: 400, message: 'Invalid JSON payload' } });
    const d = deps();
    const err = await failure(callModel(d, ask()));
    expect(err.message).toBe('Gemini API error: 400 Bad Request');
    expect(err.original).toMatchObject({ status: 400 });
    expect(d.warnings).toContain('Gemini API error response');
    fake.reply({ error: { status: 503, message: 'overloaded' } });
    const streamErr = await failure(callModel(deps(), ask({ stream: { executionId: 'e', blockId: 'b', seqStart: 0 } })));
    expect(streamErr.message).toBe('Gemini API streaming error: 503 Service Unavailable');
  });

  it("keeps the key (sent in the URL) out of the logged body and the error, in any encoded form", async () => {
    const key = 'AIza key/with+chars?é';
    fake.reply({ error: { status: 400, message: `API key ${key} (${encodeURIComponent(key)}) not valid` } });
    const d = deps();
    const err = await failure(callModel(d, ask({ apiKey: key })));
    expect(fake.chatRequests()[0]?.query.key).toBe(key);
    const logged = JSON.stringify(d.warned);
    expect(logged).toContain('[REDACTED]');
    expect(logged).not.toContain('AIza');
    expect(err.message).not.toContain('AIza');
  });

  it('redacts a logged body whole before cutting it to 2,000 characters: a key straddling the cut never shows half', async () => {
    const key = 'AIzaSyStraddlingKey0123456789';
    // The body is {"error":{"code":400,"message":"…"…}: the key starts about 10 characters before the cut at 2,000.
    fake.reply({ error: { status: 400, message: `${'x'.repeat(1958)}${key} and more text after it` } });
    const d = deps();
    await failure(callModel(d, ask({ apiKey: key })));
    const body = d.warned.find((w) => typeof w.body === 'string')?.body as string;
    expect(body.length).toBe(2000);
    expect(body).not.toContain('AIza');
    expect(body.startsWith('{"error":')).toBe(true);
  });

  it("redacts the key from a failure's stack too, which repeats its message", async () => {
    const key = 'AIzaSyStackKey0123456789';
    const d = { ...deps(), adapters: { google: { id: 'google' as const, call: () => Promise.reject(new Error(`connect failed for ${encodeURIComponent(key)}`)) } } };
    const err = await failure(callModel(d, ask({ apiKey: key })));
    expect(err.original.message).toBe('connect failed for [REDACTED]');
    expect(err.original.stack).toContain('connect failed for [REDACTED]');
    expect(err.original.stack).not.toContain('AIza');
    expect(err.stack).not.toContain('AIza');
  });

  it('requires a key', async () => {
    const err = await failure(callModel(deps(), ask({ apiKey: ' ' })));
    expect(err.message).toBe('API key is required for Gemini');
  });
});

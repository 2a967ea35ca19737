import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeServer, createGeminiFake, type FakeModelServer, type FakeServer } from '@weft/testkit';
import type { CallModelInput } from '@weft/contracts';
import { callModel, TimedModelError } from '../callModel.js';
import { testModelDeps } from '../testDeps.js';
import { ModelProviderError } from '../errors.js';
import { toFailure } from '../activities.js';

let fake: FakeModelServer;
/** Serves the images a message links to. */
let images: FakeServer;
beforeAll(async () => {
  fake = await createGeminiFake();
  images = await createFakeServer();
});
afterAll(async () => {
  await fake.close();
  await images.close();
});
beforeEach(() => fake.reset());

/** The image server is on 127.0.0.1, which the outbound guard refuses unless allowed: the tests allow it explicitly. */
const deps = (env: Record<string, string> = { WEFT_OUTBOUND_ALLOWLIST: '127.0.0.1' }) => testModelDeps({ WEFT_GEMINI_BASE_URL: `${fake.url}/v1beta`, ...env });
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
    // Any JSON object (no properties): JSON mode without a schema, which Gemini would refuse as an OBJECT without properties.
    fake.reply({ content: '{"b":2}' });
    const open = await callModel(deps(), ask({ responseFormat: { schema: { type: 'object', additionalProperties: true } } }));
    expect(open.content).toBe('{"b":2}');
    expect((fake.chatRequests()[2]?.body as { generationConfig: object }).generationConfig).toEqual({ responseMimeType: 'application/json' });
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

  it('sends an image as inlineData: a data URL as it is, an http(s) URL fetched through the outbound guard; a Gemini file as fileData', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    images.on('GET', '/cat.png', { headers: { 'content-type': 'image/png' }, bytes: png });
    const fileUri = `${fake.url}/v1beta/files/abc123`;
    fake.reply({ content: 'A cat.' });
    await callModel(
      deps(),
      ask({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', url: `${images.url}/cat.png` },
              { type: 'image', url: `data:image/jpeg;base64,${Buffer.from('jpeg bytes').toString('base64')}` },
              { type: 'image', url: fileUri },
            ],
          },
        ],
      }),
    );
    expect((fake.chatRequests()[0]?.body as { contents: unknown[] }).contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is this?' },
          { inlineData: { mimeType: 'image/png', data: png.toString('base64') } },
          { inlineData: { mimeType: 'image/jpeg', data: Buffer.from('jpeg bytes').toString('base64') } },
          { fileData: { fileUri } },
        ],
      },
    ]);
  });

  it('fails naming the image when it cannot be read: a refused address, a missing image, not an image, too large', async () => {
    images.on('GET', '/missing.png', { status: 404, text: 'no' });
    images.on('GET', '/page.html', { headers: { 'content-type': 'text/html' }, text: '<html></html>' });
    images.on('GET', '/huge.png', { headers: { 'content-type': 'image/png' }, bytes: new Uint8Array(15 * 1024 * 1024 + 1) });
    const withImage = (url: string) => ask({ messages: [{ role: 'user', content: [{ type: 'image', url }] }] });
    const refused = await failure(callModel(deps({}), withImage(`${images.url}/cat.png`)));
    expect(refused.message).toBe(`Could not send image ${images.url}/cat.png to Gemini: Outbound request refused: 127.0.0.1 is a loopback, private, link-local or reserved address`);
    expect((await failure(callModel(deps(), withImage(`${images.url}/missing.png`)))).message).toBe(`Could not send image ${images.url}/missing.png to Gemini: HTTP 404 Not Found`);
    expect((await failure(callModel(deps(), withImage(`${images.url}/page.html`)))).message).toBe(`Could not send image ${images.url}/page.html to Gemini: the answer is text/html, not an image`);
    expect((await failure(callModel(deps(), withImage(`${images.url}/huge.png`)))).message).toBe(`Could not send image ${images.url}/huge.png to Gemini: larger than 15728640 bytes`);
    expect((await failure(callModel(deps(), withImage('data:text/plain,hello')))).message).toBe('Could not send image data:text/plain,hello to Gemini: a data URL of text/plain, not an image');
    expect(refused.original.name).toBe('ModelRequestError');
    expect(fake.chatRequests()).toEqual([]);
  });

  it('fails an image fetch that may pass (5xx, 429, network) as a retryable provider error; a cancelled call stays cancelled', async () => {
    images.on('GET', '/busy.png', { status: 503, text: 'busy' });
    images.on('GET', '/slow-down.png', { status: 429, text: 'later' });
    images.on('GET', '/gone.png', { status: 410, text: 'gone' });
    const withImage = (url: string) => ask({ messages: [{ role: 'user', content: [{ type: 'image', url }] }] });
    const busy = await failure(callModel(deps(), withImage(`${images.url}/busy.png`)));
    expect(busy.message).toBe(`Could not send image ${images.url}/busy.png to Gemini: HTTP 503 Service Unavailable`);
    expect(busy.original).toBeInstanceOf(ModelProviderError);
    expect((busy.original as ModelProviderError).retryable).toBe(true);
    const limited = await failure(callModel(deps(), withImage(`${images.url}/slow-down.png`)));
    expect((limited.original as ModelProviderError).retryable).toBe(true);
    const gone = await failure(callModel(deps(), withImage(`${images.url}/gone.png`)));
    expect(gone.original.name).toBe('ModelRequestError');
    // A port nothing listens on: the connection is refused.
    const closed = await createFakeServer();
    const closedUrl = `${closed.url}/x.png`;
    await closed.close();
    const network = await failure(callModel(deps(), withImage(closedUrl)));
    expect(network.message.startsWith(`Could not send image ${closedUrl} to Gemini: `)).toBe(true);
    expect((network.original as ModelProviderError).retryable).toBe(true);
    // Cancelled while the image is fetched: RequestCancelledError, as the activity's cancellation expects.
    let answer: (a: { status: number; text: string }) => void = () => undefined;
    images.on('GET', '/hang.png', () => new Promise((resolve) => (answer = resolve)));
    const controller = new AbortController();
    const pending = failure(callModel(deps(), withImage(`${images.url}/hang.png`), controller.signal));
    await expect.poll(() => images.received('GET', '/hang.png').length).toBe(1);
    controller.abort();
    expect((await pending).original.name).toBe('RequestCancelledError');
    answer({ status: 200, text: '' });
    expect(fake.chatRequests()).toEqual([]);
  });

  it('reads the image type from its bytes (octet-stream or a wrong label too), refuses types Gemini does not read, decodes percent-encoded data URLs, and fails early over 20 MB inline', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest')]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(8)]);
    images.on('GET', '/blob', { bytes: png });
    images.on('GET', '/labelled.jpg', { headers: { 'content-type': 'image/jpeg' }, bytes: png });
    images.on('GET', '/photo.heic', { headers: { 'content-type': 'application/octet-stream' }, bytes: heic });
    images.on('GET', '/anim.gif', { headers: { 'content-type': 'image/gif' }, bytes: Buffer.from('GIF89a....') });
    images.on('GET', '/pic.svg', { headers: { 'content-type': 'image/svg+xml' }, text: '<svg/>' });
    const percent = `data:image/jpeg,${[...jpeg].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`;
    fake.reply({ content: 'ok' });
    const withImages = (...urls: string[]) => ask({ messages: [{ role: 'user', content: urls.map((url) => ({ type: 'image' as const, url })) }] });
    await callModel(deps(), withImages(`${images.url}/blob`, `${images.url}/labelled.jpg`, `${images.url}/photo.heic`, percent));
    const parts = (fake.chatRequests()[0]?.body as { contents: Array<{ parts: Array<{ inlineData: { mimeType: string; data: string } }> }> }).contents[0]?.parts;
    expect(parts?.map((p) => p.inlineData.mimeType)).toEqual(['image/png', 'image/png', 'image/heic', 'image/jpeg']);
    expect(parts?.[3]?.inlineData.data).toBe(jpeg.toString('base64'));
    expect((await failure(callModel(deps(), withImages(`${images.url}/anim.gif`)))).message).toBe(
      `Could not send image ${images.url}/anim.gif to Gemini: image/gif is not an image type Gemini reads (PNG, JPEG, WEBP, HEIC or HEIF)`,
    );
    expect((await failure(callModel(deps(), withImages(`${images.url}/pic.svg`)))).message).toContain('image/svg+xml is not an image type Gemini reads');
    expect((await failure(callModel(deps(), withImages('data:image/png,%E2%82%AC\u20ac')))).message).toContain('Could not send image data:image/png,%E2%82%AC');
    // Two images of 8 MB each: 21 MB once base64-encoded, over Gemini's 20 MB request; the third is never fetched.
    const big = Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024)]);
    images.on('GET', '/big.png', { headers: { 'content-type': 'image/png' }, bytes: big });
    images.on('GET', '/after.png', { headers: { 'content-type': 'image/png' }, bytes: png });
    const over = await failure(callModel(deps(), withImages(`${images.url}/big.png`, `${images.url}/big.png`, `${images.url}/after.png`)));
    expect(over.message).toBe(
      "The images sent inline to Gemini come to more than 20971520 bytes base64-encoded, over Gemini's 20 MB request limit: send fewer or smaller images, or upload them to Gemini's Files API",
    );
    expect(over.original.name).toBe('ModelRequestError');
    expect(images.received('GET', '/after.png')).toEqual([]);
    expect(fake.chatRequests()).toHaveLength(1);
    // The fake refuses an inline type Gemini does not read, as Gemini does.
    const raw = await fetch(`${fake.url}/v1beta/models/gemini-2.5-pro:generateContent?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/gif', data: 'R0lG' } }] }] }),
    });
    expect(raw.status).toBe(400);
    expect(JSON.stringify(await raw.json())).toContain('Unsupported MIME type: image/gif');
  });

  it("converts tool schemas to Gemini's subset: no parameters for a tool without any, an object without properties as a JSON string parsed back, untyped items as strings, unknown keys dropped", async () => {
    // The agent's tools (agentTools.ts): `{type:'array', items:{}}`, a bare `{type:'object'}`, and `{type:'object', properties:{}}` for none.
    const tools = [
      { name: 'ping', description: 'No parameters', parameters: { type: 'object', properties: {} } },
      {
        name: 'store',
        description: 'Stores a record',
        parameters: {
          $schema: 'urn:weft:test:schema',
          type: 'object',
          properties: { tags: { type: 'array', items: {} }, record: { type: 'object', description: 'The record' }, mode: { const: 'fast' }, note: { type: ['string', 'null'], examples: ['x'] } },
          required: ['record', 'gone'],
          additionalProperties: false,
        },
      },
    ];
    fake.reply({ toolCalls: [{ name: 'store', arguments: { tags: ['a'], record: '{"id":7,"ok":true}' } }] });
    const out = await callModel(deps(), ask({ tools }));
    const declarations = (fake.chatRequests()[0]?.body as { tools: Array<{ functionDeclarations: unknown[] }> }).tools[0]?.functionDeclarations;
    expect(declarations).toEqual([
      { name: 'ping', description: 'No parameters' },
      {
        name: 'store',
        description: 'Stores a record',
        parameters: {
          type: 'object',
          properties: {
            tags: { type: 'array', items: { type: 'string' } },
            record: { type: 'string', description: 'The record (a JSON object written as a string)' },
            mode: { type: 'string', enum: ['fast'] },
            note: { type: 'string', nullable: true },
          },
          required: ['record'],
        },
      },
    ]);
    expect(out.toolCalls[0]?.arguments).toEqual({ tags: ['a'], record: { id: 7, ok: true } });
  });

  it('sends formats Gemini refuses as a note, a non-string enum or const as a STRING enum given back typed, and keeps the ones it takes', async () => {
    const tools = [
      {
        name: 'pick',
        description: 'Picks',
        parameters: {
          type: 'object',
          properties: {
            url: { type: 'string', format: 'uri', description: 'The page' },
            mail: { type: 'string', format: 'email' },
            when: { type: 'string', format: 'date-time' },
            count: { type: 'integer', format: 'int32' },
            ratio: { type: 'number', format: 'percent' },
            level: { type: 'integer', enum: [1, 2, 3], minimum: 1 },
            on: { type: 'boolean', const: true },
            size: { enum: [0.5, 1.5, null] },
          },
        },
      },
    ];
    fake.reply({ toolCalls: [{ name: 'pick', arguments: { url: 'u', level: '2', on: 'true', size: '1.5', when: 't' } }] });
    const out = await callModel(deps(), ask({ tools }));
    const declarations = (fake.chatRequests()[0]?.body as { tools: Array<{ functionDeclarations: Array<{ parameters: unknown }> }> }).tools[0]?.functionDeclarations;
    expect(declarations?.[0]?.parameters).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The page (format: uri)' },
        mail: { type: 'string', description: 'format: email' },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', format: 'int32' },
        ratio: { type: 'number', description: 'format: percent' },
        level: { type: 'string', enum: ['1', '2', '3'] },
        on: { type: 'string', enum: ['true'] },
        size: { type: 'string', enum: ['0.5', '1.5'], nullable: true },
      },
    });
    expect(out.toolCalls[0]?.arguments).toEqual({ url: 'u', level: 2, on: true, size: 1.5, when: 't' });
  });

  it('parses back an object inside anyOf (a nullable record), inlines $ref from $defs/definitions (a recursive one to a depth, then a JSON string), and sends several types as anyOf', async () => {
    const node = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } };
    const tools = [
      {
        name: 'save',
        description: 'Saves',
        parameters: {
          type: 'object',
          properties: {
            meta: { anyOf: [{ type: 'object', additionalProperties: true }, { type: 'null' }] },
            label: { anyOf: [{ type: 'object' }, { type: 'string' }] },
            home: { $ref: '#/definitions/Address', description: 'Where' },
            tree: { $ref: '#/$defs/Node' },
            value: { type: ['string', 'number', 'null'], description: 'Any' },
          },
          $defs: { Node: node },
          definitions: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        },
      },
    ];
    const deepest = '{"name":"e","children":[]}';
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [deepest] }] }] }] };
    fake.reply({ toolCalls: [{ name: 'save', arguments: { meta: '{"a":1}', label: '[1]', home: { city: 'Oslo' }, tree, value: 3 } }] });
    const out = await callModel(deps(), ask({ tools }));
    const params = (fake.chatRequests()[0]?.body as { tools: Array<{ functionDeclarations: Array<{ parameters: { properties: Record<string, unknown> } }> }> }).tools[0]?.functionDeclarations[0]?.parameters;
    const asJson = { type: 'string', description: 'a JSON object written as a string' };
    expect(params?.properties.meta).toEqual({ anyOf: [asJson, { type: 'null' }] });
    expect(params?.properties.label).toEqual({ anyOf: [asJson, { type: 'string' }] });
    expect(params?.properties.home).toEqual({ type: 'object', description: 'Where', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(params?.properties.value).toEqual({ nullable: true, description: 'Any', anyOf: [{ type: 'string' }, { type: 'number' }] });
    const level = (n: number): unknown =>
      n === 0 ? { type: 'string', description: 'a JSON value written as a string' } : { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: level(n - 1) } } };
    expect(params?.properties.tree).toEqual(level(4));
    expect(JSON.stringify(params)).not.toContain('$ref');
    expect(out.toolCalls[0]?.arguments).toEqual({
      meta: { a: 1 },
      label: '[1]',
      home: { city: 'Oslo' },
      tree: { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [{ name: 'e', children: [] }] }] }] }] },
      value: 3,
    });
  });

  it("the fake refuses formats a type does not take and enums that are not strings on a STRING with Gemini's 400 texts", async () => {
    const refusal = async (parameters: unknown) => {
      const raw = await fetch(`${fake.url}/v1beta/models/gemini-2.5-pro:generateContent?key=k`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'x', parameters }] }] }),
      });
      expect(raw.status).toBe(400);
      return JSON.stringify(await raw.json());
    };
    const obj = (prop: unknown) => ({ type: 'object', properties: { p: prop } });
    expect(await refusal(obj({ type: 'string', format: 'uri' }))).toContain("parameters.properties[p].format: only 'enum' and 'date-time' are supported for STRING type");
    expect(await refusal(obj({ type: 'integer', enum: [1, 2] }))).toContain("parameters.properties[p].enum[0]' (TYPE_STRING), 1");
    expect(await refusal(obj({ type: 'integer', enum: ['1'] }))).toContain('parameters.properties[p].enum: only allowed for STRING type');
    expect(await refusal(obj({ anyOf: [{ type: 'object' }, { type: 'null' }] }))).toContain('properties[p].any_of[0].properties: should be non-empty for OBJECT type');
    expect(await refusal(obj({ $ref: '#/$defs/A' }))).toContain('Unknown name \\"$ref\\"');
  });

  it('the fake refuses an OBJECT without properties and unknown schema keys with Gemini\'s 400 texts', async () => {
    const raw = await fetch(`${fake.url}/v1beta/models/gemini-2.5-pro:generateContent?key=k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'x', parameters: { type: 'object', properties: { r: { type: 'object' } } } }] }] }),
    });
    expect(raw.status).toBe(400);
    expect(JSON.stringify(await raw.json())).toContain('parameters.properties[r].properties: should be non-empty for OBJECT type');
  });

  it('counts thinking tokens (thoughtsTokenCount) as completion, billed at the output rate', async () => {
    fake.reply({ content: 'Thought it through.', usage: { prompt: 1_000_000, completion: 1_000_000, thoughts: 2_000_000 } });
    const out = await callModel(deps(), ask());
    expect(out.tokens).toEqual({ prompt: 1_000_000, completion: 3_000_000, total: 4_000_000, cachedPrompt: 0 });
    // gemini-2.5-pro: 0.15 input, 0.6 output per million (spec 001 §9).
    expect(out.cost).toEqual({ input: 0.15, output: 1.8, total: 1.95 });
  });

  it("sends a function call back with its thought signature (gemini-3 refuses a follow-up without it); the fake refuses one that lacks it", async () => {
    fake.reply({ toolCalls: [{ name: 'search', arguments: { q: 'weft' } }] }, { content: 'Found it.' });
    const first = await callModel(deps(), ask({ model: 'gemini-3-pro-preview', tools: [search] }));
    const call = first.toolCalls[0];
    expect(call?.thoughtSignature).toMatch(/^sig-/);
    const followUp = (calls: NonNullable<typeof call>[]) =>
      ask({
        model: 'gemini-3-pro-preview',
        tools: [search],
        messages: [
          { role: 'user', content: 'Find news' },
          { role: 'assistant', content: '', toolCalls: calls },
          { role: 'tool', toolCallId: calls[0]?.id ?? '', name: 'search', content: '{"hits":1}' },
        ],
      });
    const out = await callModel(deps(), followUp([call as NonNullable<typeof call>]));
    expect(out.content).toBe('Found it.');
    expect((fake.chatRequests()[1]?.body as { contents: Array<{ parts: unknown[] }> }).contents[1]?.parts[0]).toEqual({ functionCall: { name: 'search', args: { q: 'weft' } }, thoughtSignature: call?.thoughtSignature });
    const { thoughtSignature: _dropped, ...unsigned } = call as NonNullable<typeof call>;
    const err = await failure(callModel(deps(), followUp([unsigned])));
    expect(err.message).toBe('Gemini API error: 400 Bad Request');
  });

  it('sends a request of only a system prompt as the user turn (Gemini refuses empty contents); nothing at all is a clear error', async () => {
    fake.reply({ content: 'Hi.' });
    await callModel(deps(), ask({ systemPrompt: 'Say hi', messages: [] }));
    const body = fake.chatRequests()[0]?.body as Record<string, unknown>;
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'Say hi' }] }]);
    expect(body).not.toHaveProperty('systemInstruction');
    const err = await failure(callModel(deps(), ask({ messages: [{ role: 'user', content: '' }] })));
    expect(err.message).toBe('The request to Gemini has no content: give a System Prompt (systemPrompt) or a User Prompt (userPrompt)');
  });

  it('fails a blocked prompt or a SAFETY stop with a clear error; a MAX_TOKENS stop is an answer with a warning', async () => {
    fake.reply({ blockReason: 'SAFETY' });
    const blocked = await failure(callModel(deps(), ask()));
    expect(blocked.message).toBe('Gemini blocked the prompt (blockReason SAFETY): no answer was given');
    fake.reply({ content: '', finishReason: 'SAFETY' });
    expect((await failure(callModel(deps(), ask()))).message).toBe('Gemini stopped the answer (finishReason SAFETY): its content was blocked');
    fake.reply({ content: 'Half an ans', finishReason: 'SAFETY' });
    expect((await failure(callModel(deps(), ask({ stream: { executionId: 'e', blockId: 'b', seqStart: 0 } })))).message).toBe('Gemini stopped the answer (finishReason SAFETY): its content was blocked');
    fake.reply({ content: 'Cut sho', finishReason: 'MAX_TOKENS' });
    const d = deps();
    const cut = await callModel(d, ask({ maxTokens: 3 }));
    expect(cut).toMatchObject({ content: 'Cut sho', warning: 'The answer was cut off at the max tokens limit (Gemini finishReason MAX_TOKENS): it is incomplete' });
    expect(d.warnings).toContain('Gemini stopped at the max tokens limit (finishReason MAX_TOKENS): the answer is cut short');
  });

  it("at MAX_TOKENS runs the whole calls Gemini gave (it leaves a cut call out) and fails an answer left empty as the user's error naming Max Tokens, streamed or not", async () => {
    const other = { name: 'other', description: 'Other', parameters: { type: 'object', properties: { q: { type: 'string' } } } };
    const cutSecond = { toolCalls: [{ name: 'search', arguments: { q: 'weft' } }, { name: 'other', arguments: { q: 'cut' } }], cutToolCall: true };
    fake.reply(cutSecond);
    const d = deps();
    const kept = await callModel(d, ask({ tools: [search, other], maxTokens: 30 }));
    expect(kept.toolCalls).toEqual([{ id: expect.stringMatching(ID), name: 'search', arguments: { q: 'weft' } }]);
    expect(d.warnings).toContain('Gemini stopped at the max tokens limit (finishReason MAX_TOKENS): the answer is cut short');
    const onlyCall = { toolCalls: [{ name: 'search', arguments: { q: 'cut' } }], cutToolCall: true };
    fake.reply(onlyCall, onlyCall);
    for (const stream of [undefined, { executionId: 'e', blockId: 'b', seqStart: 0 }]) {
      const err = await failure(callModel(d, ask({ tools: [search], maxTokens: 30, ...(stream ? { stream } : {}) })));
      expect(err.message).toBe("The model's answer was cut off by Max Tokens (maxTokens) before it wrote any text or tool call (Gemini finishReason MAX_TOKENS): raise Max Tokens");
      expect(toFailure(err, 'google').nonRetryable).toBe(true);
    }
  });

  it('gives a structured answer back typed: integer, number and boolean enums asked as string enums, a nested any-object asked as a JSON string; the stream carries what Gemini wrote', async () => {
    const schema = {
      type: 'object',
      properties: {
        level: { type: 'integer', enum: [1, 2, 3] },
        ratio: { enum: [0.5, 1.5] },
        on: { type: 'boolean', const: true },
        meta: { type: 'object', additionalProperties: true },
        picks: { type: 'array', items: { type: 'integer', enum: [7, 8] } },
        label: { type: 'string', enum: ['2'] },
      },
    };
    const written = '{"level":"2","ratio":"1.5","on":"true","meta":"{\\"a\\":{\\"b\\":1}}","picks":["8","7"],"label":"2"}';
    const typed = { level: 2, ratio: 1.5, on: true, meta: { a: { b: 1 } }, picks: [8, 7], label: '2' };
    fake.reply({ content: written }, { content: written });
    const out = await callModel(deps(), ask({ responseFormat: { schema } }));
    expect(fake.chatRequests()[0]?.body).toMatchObject({
      generationConfig: { responseSchema: { properties: { level: { type: 'string', enum: ['1', '2', '3'] }, on: { type: 'string', enum: ['true'] }, meta: { type: 'string' } } } },
    });
    expect(JSON.parse(out.content)).toEqual(typed);
    const d = deps();
    const streamed = await callModel(d, ask({ responseFormat: { schema }, stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    expect(JSON.parse(streamed.content)).toEqual(typed);
    expect(d.chunks.map((c) => c.chunk).join('')).toBe(written);
    // An answer that is not JSON (cut at the max tokens) stays as Gemini wrote it.
    fake.reply({ content: '{"level":"2"', finishReason: 'MAX_TOKENS' });
    expect((await callModel(deps(), ask({ responseFormat: { schema } }))).content).toBe('{"level":"2"');
  });

  it("fails a $ref with a stray % as the user's error naming the ref, its field and the schema, before any request (was a URIError)", async () => {
    const schema = { type: 'object', properties: { item: { $ref: '#/$defs/a%zz' } }, $defs: { 'a%zz': { type: 'string' } } };
    const answer = await failure(callModel(deps(), ask({ responseFormat: { schema } })));
    expect(answer.message).toBe('Invalid $ref "#/$defs/a%zz" at field item in the Response Format (responseFormat): "%zz" is not a percent-escape (write a % as %25)');
    expect(answer.original.name).toBe('ModelRequestError');
    expect(toFailure(answer, 'google').nonRetryable).toBe(true);
    const tool = await failure(callModel(deps(), ask({ tools: [{ name: 'save', description: 'Saves', parameters: schema }] })));
    expect(tool.message).toBe('Invalid $ref "#/$defs/a%zz" at field item in the parameters of tool "save": "%zz" is not a percent-escape (write a % as %25)');
    expect(fake.chatRequests()).toEqual([]);
    // A proper escape still names its definition.
    fake.reply({ content: '{"item":"x"}' });
    await callModel(deps(), ask({ responseFormat: { schema: { ...schema, properties: { item: { $ref: '#/$defs/a%25zz' } } } } }));
    expect(fake.chatRequests()[0]?.body).toMatchObject({ generationConfig: { responseSchema: { properties: { item: { type: 'string' } } } } });
  });

  it("fails an image URL that is not a URL (or redirects to none) at once as the user's error naming it, not retried", async () => {
    const withImage = (url: string) => ask({ messages: [{ role: 'user', content: [{ type: 'image', url }] }] });
    const bare = await failure(callModel(deps(), withImage('cat.example.invalid/cat.png')));
    expect(bare.message).toBe('Invalid Image URL (imageUrl) cat.example.invalid/cat.png: it is not a valid URL (give an http(s) URL, a data: URL or a Gemini file URI)');
    expect(bare.original.name).toBe('ModelRequestError');
    expect(toFailure(bare, 'google').nonRetryable).toBe(true);
    const ftp = await failure(callModel(deps(), withImage('ftp://cat.example.invalid/cat.png')));
    expect(ftp.message).toBe('Invalid Image URL (imageUrl) ftp://cat.example.invalid/cat.png: its scheme ftp: is not one an image is read from (give an http(s) URL, a data: URL or a Gemini file URI)');
    expect(toFailure(ftp, 'google').nonRetryable).toBe(true);
    // A data: URL without its comma carries nothing: refused, never fetched.
    const noComma = await failure(callModel(deps(), withImage('data:image/png;base64')));
    expect(noComma.message).toBe('Invalid Image URL (imageUrl) data:image/png;base64: it is not a valid data: URL (write data:<type>;base64,<data>)');
    expect(toFailure(noComma, 'google').nonRetryable).toBe(true);
    images.on('GET', '/moved.png', { status: 302, headers: { location: 'http://[bad' }, text: '' });
    const moved = await failure(callModel(deps(), withImage(`${images.url}/moved.png`)));
    expect(moved.message).toBe(`Could not send image ${images.url}/moved.png to Gemini: it redirects to an address that is not a valid URL`);
    expect(toFailure(moved, 'google').nonRetryable).toBe(true);
    expect(fake.chatRequests()).toEqual([]);
  });
});

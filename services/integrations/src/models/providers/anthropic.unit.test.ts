import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicFake, type FakeModelServer } from '@weft/testkit';
import type { CallModelInput } from '@weft/contracts';
import { callModel, TimedModelError } from '../callModel.js';
import { testModelDeps } from '../testDeps.js';
import { toFailure } from '../activities.js';

let fake: FakeModelServer;
beforeAll(async () => {
  fake = await createAnthropicFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const deps = () => testModelDeps({ WEFT_ANTHROPIC_BASE_URL: fake.url });
const lookup = { name: 'lookup', description: 'Look a word up', parameters: { type: 'object', properties: { word: { type: 'string' } } } };
const ask = (over: Partial<CallModelInput> = {}): CallModelInput => ({ model: 'claude-sonnet-4-0', messages: [{ role: 'user', content: 'Define cat' }], apiKey: 'ak', ...over });

describe('Anthropic adapter against the fake', () => {
  it('defaults to 1024 max tokens and temperature 0.7, sends the system prompt apart and the key header', async () => {
    fake.reply({ content: 'A small feline.', usage: { prompt: 100, completion: 20, cached: 50 } });
    const out = await callModel(deps(), ask({ systemPrompt: 'Be a dictionary' }));
    const [req] = fake.chatRequests();
    expect(req?.headers['x-api-key']).toBe('ak');
    expect(req?.body).toMatchObject({ model: 'claude-sonnet-4-0', max_tokens: 1024, temperature: 0.7, system: 'Be a dictionary', messages: [{ role: 'user', content: [{ type: 'text', text: 'Define cat' }] }] });
    expect(out).toMatchObject({ content: 'A small feline.', provider: 'anthropic', tokens: { prompt: 150, completion: 20, total: 170, cachedPrompt: 50 } });
  });

  it('clamps the temperature to 0-1 and forces a tool by name', async () => {
    fake.reply({ toolCalls: [{ name: 'lookup', arguments: { word: 'cat' }, id: 'toolu_1' }] });
    const out = await callModel(deps(), ask({ temperature: 1.7, tools: [lookup], toolChoice: { name: 'lookup' } }));
    expect(fake.chatRequests()[0]?.body).toMatchObject({ temperature: 1, tools: [{ name: 'lookup', input_schema: { type: 'object' } }], tool_choice: { type: 'tool', name: 'lookup' } });
    expect(out.toolCalls).toEqual([{ id: 'toolu_1', name: 'lookup', arguments: { word: 'cat' } }]);
  });

  it('sends tool results as tool_result blocks in one user turn', async () => {
    fake.reply({ content: 'done' });
    await callModel(
      deps(),
      ask({
        tools: [lookup],
        messages: [
          { role: 'user', content: 'Define cat and dog' },
          { role: 'assistant', content: 'Looking up.', toolCalls: [{ id: 't1', name: 'lookup', arguments: { word: 'cat' } }, { id: 't2', name: 'lookup', arguments: { word: 'dog' } }] },
          { role: 'tool', toolCallId: 't1', name: 'lookup', content: 'feline' },
          { role: 'tool', toolCallId: 't2', name: 'lookup', content: 'canine' },
        ],
      }),
    );
    expect(fake.chatRequests()[0]?.body).toMatchObject({
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ type: 'text', text: 'Looking up.' }, { type: 'tool_use', id: 't1' }, { type: 'tool_use', id: 't2' }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'feline' }, { type: 'tool_result', tool_use_id: 't2', content: 'canine' }] },
      ],
    });
  });

  it('parses a stream: text deltas, tool_use input deltas, usage from message_start and message_delta', async () => {
    fake.reply({ content: 'Checking the word.', toolCalls: [{ name: 'lookup', arguments: { word: 'cat' }, id: 'toolu_9' }], usage: { prompt: 30, completion: 12 } });
    const d = deps();
    const out = await callModel(d, ask({ tools: [lookup], stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    expect(out.content).toBe('Checking the word.');
    expect(out.toolCalls).toEqual([{ id: 'toolu_9', name: 'lookup', arguments: { word: 'cat' } }]);
    expect(out.tokens).toMatchObject({ prompt: 30, completion: 12, total: 42 });
    expect(d.chunks.filter((c) => !c.toolCall).map((c) => c.chunk).join('')).toBe('Checking the word.');
    expect(d.chunks.filter((c) => c.toolCall).map((c) => c.toolCall?.state)).toEqual(['detecting', 'executing']);
  });

  it('requires a key, and keeps the provider error with its status', async () => {
    const noKey = await callModel(deps(), ask({ apiKey: '' })).catch((e: unknown) => e);
    expect(noKey).toBeInstanceOf(TimedModelError);
    expect((noKey as Error).message).toBe('API key is required for Anthropic');
    fake.reply({ error: { status: 529, message: 'Overloaded' } });
    const err = await callModel(deps(), ask()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimedModelError);
    expect((err as TimedModelError).message).toContain('Overloaded');
    expect((err as TimedModelError).original).toMatchObject({ status: 529 });
  });

  it('prices cache writes at 1.25x the input rate (5-minute cache) and cache reads at the cached rate', async () => {
    fake.reply({ content: 'ok', usage: { prompt: 1_000_000, completion: 0, cached: 1_000_000, cacheWrite: 1_000_000 } });
    const out = await callModel(deps(), ask());
    expect(out.tokens).toEqual({ prompt: 3_000_000, completion: 0, total: 3_000_000, cachedPrompt: 1_000_000 });
    // claude-sonnet-4-0: input 3, cached 1.5 (spec 001 §9): 3 + 1.5 + 3 × 1.25.
    expect(out.cost).toEqual({ input: 8.25, output: 0, total: 8.25 });
    fake.reply({ content: 'ok', usage: { prompt: 0, completion: 0, cacheWrite: 1_000_000 } });
    const streamed = await callModel(deps(), ask({ stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }));
    expect(streamed.cost.input).toBe(3.75);
  });

  it('sends a request of only a system prompt as the user message, never an empty text block; nothing at all is a clear error', async () => {
    fake.reply({ content: 'Hello.' });
    await callModel(deps(), ask({ systemPrompt: 'Greet the user', messages: [] }));
    const body = fake.chatRequests()[0]?.body as Record<string, unknown>;
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Greet the user' }] }]);
    expect(body).not.toHaveProperty('system');
    fake.reply({ content: 'Hello.' });
    await callModel(deps(), ask({ messages: [{ role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'Hi' }] }] }));
    expect((fake.chatRequests()[1]?.body as Record<string, unknown>).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    const err = await callModel(deps(), ask({ messages: [{ role: 'user', content: '' }] })).catch((e: unknown) => e);
    expect((err as Error).message).toBe('The request to Anthropic has no content: give a System Prompt (systemPrompt) or a User Prompt (userPrompt)');
  });

  it('the fake refuses an empty text block as Anthropic does', async () => {
    const raw = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'ak' },
      body: JSON.stringify({ model: 'claude-sonnet-4-0', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' } });
  });

  it("keeps an answer cut at max_tokens with a warning, in the log and the call's output, streamed or not", async () => {
    fake.reply({ content: 'Cut sho', finishReason: 'max_tokens' }, { content: 'Cut sho', finishReason: 'max_tokens' });
    const d = deps();
    const warning = 'The answer was cut off at the max tokens limit (Anthropic stop_reason max_tokens): it is incomplete';
    expect(await callModel(d, ask({ maxTokens: 3 }))).toMatchObject({ content: 'Cut sho', warning });
    expect(await callModel(d, ask({ maxTokens: 3, stream: { executionId: 'e', blockId: 'b', seqStart: 0 } }))).toMatchObject({ content: 'Cut sho', warning });
    fake.reply({ content: 'Whole.' });
    expect(await callModel(d, ask())).not.toHaveProperty('warning');
    expect(d.warnings.filter((w) => w === 'Anthropic stopped at the max tokens limit (stop_reason max_tokens): the answer is cut short')).toHaveLength(2);
    fake.reply({ content: '', finishReason: 'refusal' });
    const refused = await callModel(d, ask()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TimedModelError);
    expect((refused as TimedModelError).message).toBe('Anthropic declined to answer (stop_reason refusal)');
  });

  it("fails a tool call cut off at max_tokens (tool_use block last) as the user's error naming the tool and Max Tokens, streamed or not; nothing written fails too", async () => {
    const cut = { content: 'Looking up.', toolCalls: [{ name: 'lookup', arguments: { word: 'cat' } }, { name: 'define', arguments: { word: 'a rather long word to cut' } }], cutToolCall: true };
    fake.reply(cut, cut);
    const d = deps();
    const expected = 'The model\'s answer was cut off by Max Tokens (maxTokens) while writing a call to tool "define" (Anthropic stop_reason max_tokens): the tool was not run; raise Max Tokens';
    for (const stream of [undefined, { executionId: 'e', blockId: 'b', seqStart: 0 }]) {
      const err = await callModel(d, ask({ tools: [lookup], maxTokens: 20, ...(stream ? { stream } : {}) })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimedModelError);
      expect((err as TimedModelError).message).toBe(expected);
      expect(toFailure(err, 'anthropic').nonRetryable).toBe(true);
    }
    // Neither call went on to run: the stream showed them detected, never executing.
    expect(d.chunks.filter((c) => c.toolCall).map((c) => c.toolCall?.state)).toEqual(['detecting', 'detecting']);
    fake.reply({ toolCalls: [{ name: 'lookup', arguments: { word: 'cat' } }], content: '', finishReason: 'max_tokens' });
    const nothing = await callModel(d, ask({ maxTokens: 1 })).catch((e: unknown) => e);
    expect((nothing as Error).message).toBe('The model\'s answer was cut off by Max Tokens (maxTokens) while writing a call to tool "lookup" (Anthropic stop_reason max_tokens): the tool was not run; raise Max Tokens');
    fake.reply({ content: '', finishReason: 'max_tokens' });
    const empty = await callModel(d, ask({ maxTokens: 1 })).catch((e: unknown) => e);
    expect((empty as Error).message).toBe('The model\'s answer was cut off by Max Tokens (maxTokens) before it wrote any text or tool call (Anthropic stop_reason max_tokens): raise Max Tokens');
  });
  it("sends an http(s) image as a url source and a data: URL as a base64 source typed by its bytes; a URL that is not one fails first, the user's to fix", async () => {
    const withImage = (url: string) => ask({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url }] }] });
    fake.reply({ content: 'A cat.' }, { content: 'A cat.' });
    await callModel(deps(), withImage('https://cat.example.invalid/cat.png'));
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    // Labelled octet-stream: the bytes say PNG.
    await callModel(deps(), withImage(`data:application/octet-stream;base64,${png.toString('base64')}`));
    const [byUrl, inline] = fake.chatRequests().map((r) => (r.body as { messages: Array<{ content: unknown[] }> }).messages[0]?.content[1]);
    expect(byUrl).toEqual({ type: 'image', source: { type: 'url', url: 'https://cat.example.invalid/cat.png' } });
    expect(inline).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } });
    const cases: Array<[string, string]> = [
      ['cat.example.invalid/cat.png', 'Invalid Image URL (imageUrl) cat.example.invalid/cat.png: it is not a valid URL (give an http(s) URL or a data: URL)'],
      ['file:///etc/cat.png', 'Invalid Image URL (imageUrl) file:///etc/cat.png: its scheme file: is not one an image is read from (give an http(s) URL or a data: URL)'],
      ['data:image/png;base64', 'Invalid Image URL (imageUrl) data:image/png;base64: it is not a valid data: URL (write data:<type>;base64,<data>)'],
      ['data:image/svg+xml,%3Csvg%2F%3E', 'Could not send image data:image/svg+xml,%3Csvg%2F%3E to Anthropic: image/svg+xml is not an image type Anthropic reads (JPEG, PNG, GIF or WEBP)'],
      ['data:text/plain,cat', 'Could not send image data:text/plain,cat to Anthropic: a data URL of text/plain, not an image'],
    ];
    for (const [url, message] of cases) {
      const err = await callModel(deps(), withImage(url)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimedModelError);
      expect((err as TimedModelError).message).toBe(message);
      expect(toFailure(err, 'anthropic').nonRetryable).toBe(true);
    }
    expect(fake.chatRequests()).toHaveLength(2);
  });
});

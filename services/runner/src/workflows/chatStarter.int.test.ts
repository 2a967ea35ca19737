import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, type EngineHarness } from '../testing/engineHarness.js';
import { patchesOf } from '../testing/patches.js';

const CHAT = { type: 'starter', name: 'Start', values: { startWorkflow: 'chat' } };
const MANUAL = { type: 'starter', name: 'Start', values: { startWorkflow: 'manual' } };

/** starter → Echo (reads `<start.input>`) → Response (the message and the conversation id). */
const echo = (starter: typeof CHAT) =>
  graphOf(
    {
      s: starter,
      f: { name: 'Echo', code: 'return "You said: " + <start.input>' },
      r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"reply": <echo.result>, "message": <start.input>, "conversation": <start.conversationId>}' } },
    },
    [['s', 'f'], ['f', 'r']],
  );

const starterOutput = (logs: Array<{ blockId: string; output?: unknown }>) => logs.find((l) => l.blockId === 's')?.output;

describe('a chat-mode starter: <start.input> is the chat message (real Temporal server, fake activities)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it('gives {input: message, conversationId}: a function and a response reading <start.input> get the message', async () => {
    const result = await h.run(echo(CHAT), { input: { input: 'Hello there', conversationId: 'conv-7' }, trigger: 'chat' });
    expect(result.error).toBeUndefined();
    expect(h.rec.functionCalls[0]?.params['<start.input>']).toBe('Hello there');
    expect(result.output).toEqual({ reply: 'You said: Hello there', message: 'Hello there', conversation: 'conv-7' });
    expect(starterOutput(result.logs)).toEqual({ input: 'Hello there', conversationId: 'conv-7' });
  });

  it('a chat message without a conversation id: the output has no conversationId', async () => {
    const result = await h.run(echo(CHAT), { input: { input: 'Just this' }, trigger: 'manual' });
    // An absent value reads as null in a Response's JSON.
    expect(result.output).toEqual({ reply: 'You said: Just this', message: 'Just this', conversation: null });
    expect(starterOutput(result.logs)).toEqual({ input: 'Just this' });
  });

  it('a manual starter and a chat-mode starter sent no message keep the run input whole in <start.input>', async () => {
    const manual = await h.run(echo(MANUAL), { input: { input: 'Hello there' } });
    expect(starterOutput(manual.logs)).toEqual({ input: { input: 'Hello there' } });
    expect(h.rec.functionCalls[0]?.params['<start.input>']).toEqual({ input: 'Hello there' });

    h.reset();
    // An API call of a chat-mode workflow with fields of its own, not a chat message.
    const api = await h.run(echo(CHAT), { input: { question: 'why?' }, trigger: 'api' });
    expect(starterOutput(api.logs)).toEqual({ input: { question: 'why?' } });
    expect(h.rec.functionCalls[0]?.params['<start.input>']).toEqual({ question: 'why?' });
  });

  it('a chat-mode workflow called with input among fields of its own keeps them all: <start.userId> is 7', async () => {
    const state = graphOf(
      {
        s: CHAT,
        r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"user": <start.userId>, "input": <start.input>, "text": <start.input.input>}' } },
      },
      [['s', 'r']],
    );
    const handle = await h.start(state, { input: { input: 'hi', userId: 7 }, trigger: 'api' });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(starterOutput(result.logs)).toEqual({ input: { input: 'hi', userId: 7 } });
    expect(result.output).toEqual({ user: 7, input: { input: 'hi', userId: 7 }, text: 'hi' });
    // Not a chat message: the patch is not asked.
    expect(patchesOf(await handle.fetchHistory())).not.toContain('chat-starter-message');
  });

  it('a chat message holding a JSON list: a forEach over <start.input> runs once per item (patch chat-starter-message)', async () => {
    const state = graphOf(
      {
        s: CHAT,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: '<start.input>' } },
        greet: { name: 'Greet', parent: 'l', code: 'return "hi " + <loop.currentItem>' },
        r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"greetings": <loop.results>}' } },
      },
      [['s', 'l'], ['l', 'greet', 'loop-start-source'], ['l', 'r', 'loop-end-source']],
    );
    const handle = await h.start(state, { input: { input: '["Ada", "Grace", "Linus"]' }, trigger: 'chat' });
    const result = await handle.result();
    // chat-starter.json was recorded by the code before the patch: the loop ran once, over the input's one entry.
    await h.keepHistory(handle, 'chat-starter');
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ greetings: ['hi Ada', 'hi Grace', 'hi Linus'].map((g) => ({ result: g, stdout: '' })) });
    expect(patchesOf(await handle.fetchHistory())).toContain('chat-starter-message');
  });
});

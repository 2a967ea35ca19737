import { describe, expect, it } from 'vitest';
import type { CallModelInput, CallModelOutput, ExecuteToolInput, ModelToolCall, ToolResult } from '@weft/contracts';
import { MAX_TOOL_ITERATIONS, ModelLoopError, runToolLoop, type LoopOps, type LoopTool, type LoopToolCall, type ToolLoopInput } from './toolLoop.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const timing = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 };

/** A scripted model answer: text and/or tool calls, 100 prompt and 10 completion tokens at $0.001. */
function answer(content: string, calls: Array<Omit<ModelToolCall, 'id'> & { id?: string }> = [], chunks = 0): CallModelOutput {
  return {
    content,
    model: 'gpt-4o',
    provider: 'openai',
    toolCalls: calls.map((c, i) => ({ id: c.id ?? `call_${c.name}_${i}`, name: c.name, arguments: c.arguments })),
    tokens: { prompt: 100, completion: 10, total: 110 },
    cost: { input: 0.00025, output: 0.0001, total: 0.00035 },
    timing,
    chunks,
  };
}

/** Ops whose clock advances 5 ms per read, recording what the loop asked. */
function scripted(model: (input: CallModelInput, n: number) => CallModelOutput | Promise<CallModelOutput>, tool: (input: ExecuteToolInput) => ToolResult | Promise<ToolResult> = () => ({ success: true, output: { ok: true }, timing })) {
  const modelCalls: CallModelInput[] = [];
  const toolCalls: ExecuteToolInput[] = [];
  let clock = T0;
  const ops: LoopOps = {
    async callModel(input) {
      modelCalls.push(structuredClone(input));
      return model(input, modelCalls.length);
    },
    async executeTool(input) {
      toolCalls.push(input);
      return tool(input);
    },
    now: () => (clock += 5),
  };
  return { ops, modelCalls, toolCalls };
}

function tool(name: string, usageControl: LoopTool['usageControl'] = 'auto', userParams: Record<string, unknown> = {}): LoopTool {
  return { definition: { name, description: `${name} tool`, parameters: { type: 'object', properties: { q: { type: 'string' } } } }, usageControl, toolId: `${name}_id`, userParams };
}

function loopInput(tools: LoopTool[], over: Partial<ToolLoopInput['request']> = {}, extra: Partial<ToolLoopInput> = {}): ToolLoopInput {
  return {
    request: { model: 'gpt-4o', systemPrompt: 'You help.', temperature: 0.7, ...over },
    messages: [{ role: 'user', content: 'Do it' }],
    tools,
    toolContext: { workspaceId: 'ws', workflowId: 'wf', executionId: 'ex', blockId: 'agent', requestId: 'r' },
    ...extra,
  };
}

describe('the provider tool loop (001 §4, 000 §8)', () => {
  it('forces the force tools one after another, then returns to auto; a none tool is never offered', async () => {
    const { ops, modelCalls, toolCalls } = scripted((_i, n) => (n === 1 ? answer('', [{ name: 'first', arguments: { q: 'a' } }]) : n === 2 ? answer('', [{ name: 'second', arguments: { q: 'b' } }]) : answer('All done.')));
    const out = await runToolLoop(loopInput([tool('first', 'force'), tool('hidden', 'none'), tool('second', 'force'), tool('free')]), ops);
    expect(modelCalls.map((c) => c.toolChoice)).toEqual([{ name: 'first' }, { name: 'second' }, 'auto']);
    for (const c of modelCalls) expect(c.tools?.map((t) => t.name)).toEqual(['first', 'second', 'free']);
    expect(toolCalls.map((c) => c.toolId)).toEqual(['first_id', 'second_id']);
    expect(out).toMatchObject({ content: 'All done.', modelCalls: 3, timing: { iterations: 2 } });
    expect(out.toolCalls.map((c) => [c.name, c.success])).toEqual([['first', true], ['second', true]]);
  });

  it('providers without usage control (Groq, Cerebras) are never forced', async () => {
    const { ops, modelCalls } = scripted(() => answer('fine'));
    await runToolLoop(loopInput([tool('first', 'force')], { model: 'groq/qwen-qwq-32b' }), ops);
    expect(modelCalls[0]?.toolChoice).toBe('auto');
  });

  it('runs the calls of one answer concurrently and sends each result back as a tool message; user values win over the model', async () => {
    let inFlight = 0;
    let most = 0;
    const { ops, modelCalls, toolCalls } = scripted(
      (_i, n) => (n === 1 ? answer('Looking.', [{ name: 'search', arguments: { q: 'cats', channel: 'model' } }, { name: 'search', arguments: { q: 'dogs' }, id: 'c2' }]) : answer('Cats and dogs.')),
      async (input) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight -= 1;
        return { success: true, output: { hits: String(input.params.q) }, timing };
      },
    );
    await runToolLoop(loopInput([tool('search', 'auto', { channel: '#general', empty: '' })]), ops);
    expect(most).toBe(2);
    expect(toolCalls[0]?.params).toEqual({ q: 'cats', channel: '#general' });
    expect(toolCalls[0]?.context).toMatchObject({ executionId: 'ex', blockId: 'agent' });
    expect(modelCalls[1]?.messages).toEqual([
      { role: 'user', content: 'Do it' },
      { role: 'assistant', content: 'Looking.', toolCalls: [{ id: 'call_search_0', name: 'search', arguments: { q: 'cats', channel: 'model' } }, { id: 'c2', name: 'search', arguments: { q: 'dogs' } }] },
      { role: 'tool', toolCallId: 'call_search_0', name: 'search', content: '{"hits":"cats"}' },
      { role: 'tool', toolCallId: 'c2', name: 'search', content: '{"hits":"dogs"}' },
    ]);
  });

  it('tells each tool run which call it is: the name the model called and its place in the output toolCalls, across iterations', async () => {
    const { ops } = scripted((_i, n) =>
      n === 1 ? answer('', [{ name: 'search', arguments: { q: 'a' } }, { name: 'ghost', arguments: {} }, { name: 'search', arguments: { q: 'b' } }]) : n === 2 ? answer('', [{ name: 'search', arguments: { q: 'c' } }]) : answer('Done.'),
    );
    const places: Array<[string, LoopToolCall]> = [];
    const execute = ops.executeTool.bind(ops);
    ops.executeTool = (input, call) => {
      places.push([String(input.params.q), call]);
      return execute(input, call);
    };
    const out = await runToolLoop(loopInput([tool('search')]), ops);
    // The unknown tool is never run but keeps its place.
    expect(out.toolCalls.map((c) => c.name)).toEqual(['search', 'ghost', 'search', 'search']);
    expect(places).toEqual([
      ['a', { name: 'search', number: 1 }],
      ['b', { name: 'search', number: 3 }],
      ['c', { name: 'search', number: 4 }],
    ]);
  });

  it("a failing tool goes back to the model as {error: true, message, tool} and the loop goes on", async () => {
    const { ops, modelCalls } = scripted(
      (_i, n) => (n === 1 ? answer('', [{ name: 'broken', arguments: {} }, { name: 'silent', arguments: {} }, { name: 'thrower', arguments: {} }, { name: 'ghost', arguments: {} }]) : answer('Sorry, the tools failed.')),
      (input) => {
        if (input.toolId === 'broken_id') return { success: false, output: null, error: 'Slack API error', timing };
        if (input.toolId === 'silent_id') return { success: false, output: null, timing };
        throw new Error('activity lost');
      },
    );
    const out = await runToolLoop(loopInput([tool('broken'), tool('silent'), tool('thrower')]), ops);
    const sent = modelCalls[1]?.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content) as unknown);
    expect(sent).toEqual([
      { error: true, message: 'Slack API error', tool: 'broken' },
      { error: true, message: 'Tool execution failed', tool: 'silent' },
      { error: true, message: 'activity lost', tool: 'thrower' },
      { error: true, message: 'Tool not found: ghost', tool: 'ghost' },
    ]);
    expect(out.content).toBe('Sorry, the tools failed.');
    expect(out.toolCalls.map((c) => [c.name, c.success, c.error])).toEqual([
      ['broken', false, 'Slack API error'],
      ['silent', false, 'Tool execution failed'],
      ['thrower', false, 'activity lost'],
      ['ghost', false, 'Tool not found: ghost'],
    ]);
  });

  it(`stops after ${MAX_TOOL_ITERATIONS} iterations with the last answer`, async () => {
    const { ops, modelCalls, toolCalls } = scripted((_i, n) => answer(`round ${n}`, [{ name: 'again', arguments: { q: String(n) } }]));
    const out = await runToolLoop(loopInput([tool('again')]), ops);
    expect(toolCalls).toHaveLength(MAX_TOOL_ITERATIONS);
    expect(modelCalls).toHaveLength(MAX_TOOL_ITERATIONS + 1);
    expect(out).toMatchObject({ content: `round ${MAX_TOOL_ITERATIONS + 1}`, modelCalls: MAX_TOOL_ITERATIONS + 1, timing: { iterations: MAX_TOOL_ITERATIONS } });
  });

  it('Cerebras: a repeated identical call is skipped and the final answer is asked with tool choice none', async () => {
    const same = { name: 'lookup', arguments: { q: 'x' } };
    const { ops, modelCalls, toolCalls } = scripted((_i, n) => (n <= 2 ? answer('', [same]) : answer('Final.')));
    const out = await runToolLoop(loopInput([tool('lookup')], { model: 'cerebras/llama-3.3-70b' }), ops);
    expect(toolCalls).toHaveLength(1);
    expect(modelCalls.map((c) => c.toolChoice)).toEqual(['auto', 'auto', 'none']);
    expect(out.content).toBe('Final.');
    // Another provider repeating itself keeps calling the tool.
    const other = scripted((_i, n) => (n <= 2 ? answer('', [same]) : answer('Final.')));
    await runToolLoop(loopInput([tool('lookup')]), other.ops);
    expect(other.toolCalls).toHaveLength(2);
  });

  it('a provider error is rethrown with the timing of the loop', async () => {
    const { ops } = scripted((_i, n) => {
      if (n === 2) throw Object.assign(new Error('Activity task failed'), { cause: new Error('Incorrect API key provided') });
      return answer('', [{ name: 'lookup', arguments: {} }]);
    });
    const err = await runToolLoop(loopInput([tool('lookup')]), ops).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelLoopError);
    expect((err as ModelLoopError).message).toBe('Incorrect API key provided');
    const t = (err as ModelLoopError).timing;
    expect(t.startTime).toBe('2026-01-01T00:00:00.005Z');
    expect(t.duration).toBe(Date.parse(t.endTime) - Date.parse(t.startTime));
    expect(t.duration).toBeGreaterThan(0);
  });

  it('sums tokens and cost over every call; streams continue numbering and carry the finished tools states', async () => {
    const { ops, modelCalls } = scripted((_i, n) => (n === 1 ? answer('Checking.', [{ name: 'ok', arguments: {} }, { name: 'bad', arguments: {} }], 4) : answer('Done.', [], 3)), (input) =>
      input.toolId === 'bad_id' ? { success: false, output: null, error: 'nope', timing } : { success: true, output: 1, timing },
    );
    const out = await runToolLoop(loopInput([tool('ok'), tool('bad')], {}, { stream: { executionId: 'ex', blockId: 'agent' } }), ops);
    expect(out.tokens).toEqual({ prompt: 200, completion: 20, total: 220 });
    expect(out.cost).toEqual({ input: 0.0005, output: 0.0002, total: 0.0007 });
    expect(modelCalls[0]?.stream).toEqual({ executionId: 'ex', blockId: 'agent', seqStart: 0 });
    expect(modelCalls[1]?.stream).toEqual({
      executionId: 'ex',
      blockId: 'agent',
      seqStart: 4,
      toolStates: [
        { id: 'call_ok_0', name: 'ok', state: 'completed' },
        { id: 'call_bad_1', name: 'bad', state: 'error' },
      ],
    });
  });

  describe('tool call states streamed by the loop (toolState)', () => {
    const stream = { stream: { executionId: 'ex', blockId: 'agent' } };
    /** Ops that record each state the loop streams, with its number. */
    function withStates(...args: Parameters<typeof scripted>) {
      const s = scripted(...args);
      const states: Array<{ seq: number; id: string; state: string }> = [];
      s.ops.toolState = (seq, st) => states.push({ seq, id: st.id, state: st.state });
      return { ...s, states };
    }

    it("each tool's end is streamed when it finishes, while the others still run; numbers follow the model's chunks", async () => {
      let releaseSlow: (r: ToolResult) => void = () => undefined;
      const slow = new Promise<ToolResult>((r) => (releaseSlow = r));
      const { ops, modelCalls, states } = withStates(
        (_i, n) => (n === 1 ? answer('Checking.', [{ name: 'fast', arguments: {} }, { name: 'slow', arguments: {} }], 4) : answer('Done.', [], 3)),
        (input) => (input.toolId === 'slow_id' ? slow : { success: true, output: 1, timing }),
      );
      const done = runToolLoop(loopInput([tool('fast'), tool('slow')], {}, stream), ops);
      await expect.poll(() => states.map((s) => `${s.id} ${s.state}`)).toEqual(['call_fast_0 executing', 'call_slow_1 executing', 'call_fast_0 completed']);
      expect(modelCalls).toHaveLength(1);
      releaseSlow({ success: false, output: null, error: 'down', timing });
      await done;
      expect(states).toEqual([
        { seq: 4, id: 'call_fast_0', state: 'executing' },
        { seq: 5, id: 'call_slow_1', state: 'executing' },
        { seq: 6, id: 'call_fast_0', state: 'completed' },
        { seq: 7, id: 'call_slow_1', state: 'error' },
      ]);
      // The model call sends no tool states itself and numbers its chunks after them.
      expect(modelCalls[0]?.stream).toEqual({ executionId: 'ex', blockId: 'agent', seqStart: 0, callerSendsToolStates: true });
      expect(modelCalls[1]?.stream).toEqual({ executionId: 'ex', blockId: 'agent', seqStart: 8, callerSendsToolStates: true });
    });

    it('the finished tools are streamed even when the follow-up model call fails', async () => {
      const { ops, states } = withStates((_i, n) => {
        if (n === 2) throw new Error('Service unavailable');
        return answer('', [{ name: 'lookup', arguments: {} }]);
      });
      await expect(runToolLoop(loopInput([tool('lookup')], {}, stream), ops)).rejects.toThrow('Service unavailable');
      expect(states.map((s) => s.state)).toEqual(['executing', 'completed']);
    });

    it('a Cerebras repeat the loop skips is never executing; nothing is streamed without a stream', async () => {
      const same = { name: 'lookup', arguments: { q: 'x' } };
      const { ops, states } = withStates((_i, n) => (n <= 2 ? answer('', [{ ...same, id: `call_${n}` }]) : answer('Final.')));
      await runToolLoop(loopInput([tool('lookup')], { model: 'cerebras/llama-3.3-70b' }, stream), ops);
      expect(states.map((s) => `${s.id} ${s.state}`)).toEqual(['call_1 executing', 'call_1 completed']);
      const quiet = withStates((_i, n) => (n === 1 ? answer('', [same]) : answer('Final.')));
      await runToolLoop(loopInput([tool('lookup')]), quiet.ops);
      expect(quiet.states).toEqual([]);
      expect(quiet.modelCalls[1]).not.toHaveProperty('stream');
    });
  });

  it('without tools no tool choice is sent', async () => {
    const { ops, modelCalls } = scripted(() => answer('plain'));
    const out = await runToolLoop(loopInput([]), ops);
    expect(modelCalls[0]).not.toHaveProperty('tools');
    expect(modelCalls[0]).not.toHaveProperty('toolChoice');
    expect(out).toMatchObject({ content: 'plain', toolCalls: [], modelCalls: 1 });
  });

  it("keeps the final answer's warning (cut off at the max tokens limit) for the agent's output, and no earlier answer's", async () => {
    const warning = 'The answer was cut off at the max tokens limit (openai finish_reason length): it is incomplete';
    const cut = scripted((_i, n) => (n === 1 ? answer('', [{ name: 'lookup', arguments: { q: 'a' } }]) : { ...answer('Half an ans'), warning }));
    expect(await runToolLoop(loopInput([tool('lookup')]), cut.ops)).toMatchObject({ content: 'Half an ans', warning });
    const whole = scripted((_i, n) => (n === 1 ? { ...answer('', [{ name: 'lookup', arguments: { q: 'a' } }]), warning } : answer('All done.')));
    expect(await runToolLoop(loopInput([tool('lookup')]), whole.ops)).not.toHaveProperty('warning');
  });
});

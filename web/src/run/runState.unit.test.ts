import { describe, expect, it } from 'vitest';
import { applyMessage, attemptKey, attemptLabel, blockStatuses, emptyRun, fromExecution, inputFields, inputFromFields, outputWarning, parseSse, totals, type RunView, type SseMessage } from './runState';

const msg = (event: string, data: unknown, id?: number): SseMessage => ({ event, data: JSON.stringify(data), ...(id !== undefined ? { id: String(id) } : {}) });
const fold = (messages: SseMessage[]): RunView => messages.reduce(applyMessage, emptyRun());

describe('the run console state', () => {
  it('splits an SSE stream into messages across pieces, skipping comments and keeping ids', () => {
    const first = parseSse('retry: 2000\n\nid: 1\nevent: execution:started\ndata: {"executionId":"x"}\n\n: keep-alive\n\nid: 2\nevent: block:sta');
    expect(first.messages).toEqual([{ event: 'execution:started', data: '{"executionId":"x"}', id: '1' }]);
    const second = parseSse(`${first.rest}rted\r\ndata: {"blockId":"a"}\r\n\r\n`);
    expect(second.messages).toEqual([{ event: 'block:started', data: '{"blockId":"a"}', id: '2' }]);
    expect(second.rest).toBe('');
  });

  it('keeps each try of a retried block, from the live events and from a stored execution alike', () => {
    const tries = [
      { attempt: 1, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 12, error: 'HTTP error 503: Service Unavailable' },
      { attempt: 2, startedAt: '2026-01-01T00:00:01.000Z', durationMs: 8 },
    ];
    const live = fold([
      msg('block:started', { blockId: 'api', blockName: 'API 1', blockType: 'api' }, 1),
      msg('block:completed', { blockId: 'api', blockName: 'API 1', blockType: 'api', success: true, durationMs: 1030, attempts: 2, attemptLog: tries }, 2),
      msg('block:completed', { blockId: 'f', blockName: 'F', blockType: 'function', success: true, durationMs: 3, attempts: 1 }, 3),
    ]);
    expect(live.entries[0]).toMatchObject({ attempts: 2, attemptLog: tries });
    expect(live.entries[1]).toMatchObject({ attempts: 1, attemptLog: undefined });
    const stored = fromExecution({ executionId: 'x', status: 'succeeded', logs: [{ blockId: 'api', blockName: 'API 1', blockType: 'api', success: true, attempts: 2, attemptLog: [...tries, 'junk'] }] });
    expect(stored.entries[0]).toMatchObject({ attempts: 2, attemptLog: tries });
    // An agent's tries name the model call they belong to.
    const agentTries = [{ call: 1, attempt: 1, error: 'HTTP error 503' }, { call: 1, attempt: 2 }, { call: 3, attempt: 1, error: 'HTTP error 429' }, { call: 3, attempt: 2 }];
    const agent = fromExecution({ executionId: 'y', status: 'succeeded', logs: [{ blockId: 'a', blockName: 'Agent 1', blockType: 'agent', success: true, attempts: 2, attemptLog: agentTries }] });
    expect(agent.entries[0]?.attemptLog).toEqual(agentTries);
  });

  it("keeps a block output's warning (an answer cut off at the max tokens limit), live and stored; nothing else is one", () => {
    const warning = 'The answer was cut off at the max tokens limit (openai finish_reason length): it is incomplete';
    const live = fold([
      msg('block:completed', { blockId: 'a', blockName: 'Agent 1', blockType: 'agent', success: true, output: { content: 'The first half', warning } }, 1),
      msg('block:completed', { blockId: 'b', blockName: 'Agent 2', blockType: 'agent', success: true, output: { content: 'Whole' } }, 2),
    ]);
    expect(live.entries.map((e) => e.warning)).toEqual([warning, undefined]);
    const stored = fromExecution({ executionId: 'x', status: 'succeeded', logs: [{ blockId: 'a', blockName: 'Agent 1', blockType: 'agent', success: true, output: { content: 'The first half', warning } }] });
    expect(stored.entries[0]?.warning).toBe(warning);
    expect(outputWarning({ warning: '' })).toBeUndefined();
    expect(outputWarning({ warning: { text: 'x' } })).toBeUndefined();
    expect(outputWarning(['warning'])).toBeUndefined();
    expect(outputWarning('warning')).toBeUndefined();
    expect(outputWarning(null)).toBeUndefined();
    expect(outputWarning(Object.create({ warning: 'inherited' }))).toBeUndefined();
  });

  it("names each try as the console lists it: an agent's model calls by number, its tool calls by the tool's name (and number when one tool has several)", () => {
    const tries = [
      { call: 1, attempt: 1, error: 'HTTP error 503' },
      { call: 1, attempt: 2 },
      { tool: 'search_web', toolCall: 2, attempt: 1, error: 'HTTP error 502: Bad Gateway' },
      { tool: 'search_web', toolCall: 2, attempt: 2 },
      { tool: 'slack_message', toolCall: 3, attempt: 1, error: 'socket hang up' },
      { tool: 'slack_message', toolCall: 3, attempt: 2 },
      { tool: 'search_web', toolCall: 4, attempt: 2 },
    ];
    const agent = fromExecution({ executionId: 'y', status: 'succeeded', logs: [{ blockId: 'a', blockName: 'Agent 1', blockType: 'agent', success: true, attempts: 2, attemptLog: tries }] });
    const listed = agent.entries[0]?.attemptLog ?? [];
    expect(listed).toEqual(tries);
    expect(listed.map((t) => attemptLabel(t, listed))).toEqual([
      'Model call 1, try 1',
      'Model call 1, try 2',
      'Tool call search_web #2, try 1',
      'Tool call search_web #2, try 2',
      'Tool call slack_message, try 1',
      'Tool call slack_message, try 2',
      'Tool call search_web #4, try 2',
    ]);
    expect(new Set(listed.map(attemptKey)).size).toBe(listed.length);
    const api = [{ attempt: 1, error: 'HTTP error 503' }, { attempt: 2 }];
    expect(api.map((t) => attemptLabel(t, api))).toEqual(['Try 1', 'Try 2']);
  });

  it('folds a run: blocks start, stream tokens, finish or fail; the run ends with its status', () => {
    const view = fold([
      msg('execution:started', { executionId: 'x' }, 1),
      msg('block:started', { blockId: 'a', blockName: 'Agent 1', blockType: 'agent' }, 2),
      msg('stream:chunk', { blockId: 'a', seq: 0, chunk: 'Hel' }),
      msg('stream:chunk', { blockId: 'a', seq: 1, chunk: 'lo', toolCall: undefined }),
      msg('stream:chunk', { blockId: 'a', seq: 2, chunk: '', toolCall: { id: 't1', name: 'search', state: 'executing' } }),
      msg('block:completed', { blockId: 'a', blockName: 'Agent 1', blockType: 'agent', success: true, durationMs: 120, output: { content: 'Hello' }, tokens: { prompt: 3, completion: 2, total: 5 }, cost: { total: 0.01 } }, 3),
      msg('block:started', { blockId: 'f', blockName: 'Function 1', blockType: 'function' }, 4),
      msg('block:error', { blockId: 'f', blockName: 'Function 1', blockType: 'function', success: false, durationMs: 4, error: 'boom' }, 5),
      msg('execution:failed', { executionId: 'x', error: 'boom', metadata: { duration: 200 } }, 6),
    ]);
    expect(view.status).toBe('failed');
    expect(view.error).toBe('boom');
    expect(view.durationMs).toBe(200);
    expect(view.entries.map((e) => [e.blockId, e.status, e.durationMs])).toEqual([
      ['a', 'done', 120],
      ['f', 'failed', 4],
    ]);
    expect(view.entries[0]?.streamed).toBe('Hello');
    expect(view.entries[0]?.toolCalls).toEqual([{ id: 't1', name: 'search', state: 'executing' }]);
    expect(totals(view)).toEqual({ tokens: 5, cost: 0.01 });
    expect([...blockStatuses(view)]).toEqual([
      ['a', 'done'],
      ['f', 'failed'],
    ]);
  });

  it("shows a tool call the agent's loop never ran (still detecting) as not run once its block or the run has ended, not as waiting forever", () => {
    const tool = (id: string, state: string) => msg('stream:chunk', { blockId: 'a', chunk: '', toolCall: { id, name: 'search', state } });
    const start = [msg('execution:started', { executionId: 'x' }, 1), msg('block:started', { blockId: 'a', blockName: 'Agent 1', blockType: 'agent' }, 2)];
    const calls = [tool('t1', 'detecting'), tool('t1', 'executing'), tool('t1', 'completed'), tool('t2', 'detecting'), tool('t3', 'detecting'), tool('t3', 'executing')];
    const running = fold([...start, ...calls]);
    expect(running.entries[0]?.toolCalls.map((c) => c.state)).toEqual(['completed', 'detecting', 'executing']);
    for (const end of [
      msg('block:completed', { blockId: 'a', success: true }, 3),
      msg('block:error', { blockId: 'a', success: false, error: 'boom' }, 3),
      msg('execution:failed', { executionId: 'x', error: 'boom' }, 3),
      msg('execution:cancelled', { executionId: 'x' }, 3),
    ]) {
      expect(fold([...start, ...calls, end]).entries[0]?.toolCalls.map((c) => c.state), end.event).toEqual(['completed', 'not run', 'executing']);
    }
    // A detecting state that arrives after the block's end (chunks and block events travel apart) is not run too.
    const late = fold([...start, tool('t1', 'completed'), msg('block:completed', { blockId: 'a', success: true }, 3), tool('t2', 'detecting')]);
    expect(late.entries[0]?.toolCalls).toEqual([
      { id: 't1', name: 'search', state: 'completed' },
      { id: 't2', name: 'search', state: 'not run' },
    ]);
    // A stored execution's block still going keeps its calls as they are.
    expect(fold([...start, tool('t2', 'detecting'), msg('block:completed', { blockId: 'a', running: true }, 3)]).entries[0]?.toolCalls[0]?.state).toBe('detecting');
  });

  it('keeps loop iterations apart, ignores repeated numbered events and bad data', () => {
    const started = msg('block:started', { blockId: 'a', blockName: 'A', loopIteration: [0] }, 2);
    const view = fold([
      msg('execution:started', { executionId: 'x' }, 1),
      started,
      started,
      { event: 'block:completed', data: 'not json' },
      msg('block:completed', { blockId: 'a', success: true, loopIteration: [0] }, 3),
      msg('block:completed', { blockId: 'a', success: true, loopIteration: [1], skipped: true }, 4),
    ]);
    expect(view.entries.map((e) => [e.key, e.status, e.iteration])).toEqual([
      ['a@i0', 'done', 'iteration 1'],
      ['a@i1', 'skipped', 'iteration 2'],
    ]);
    expect(view.lastSeq).toBe(4);
    expect(blockStatuses(view).get('a')).toBe('skipped');
  });

  it('drops a repeated chunk and replaces the text a retried model call restarts', () => {
    const chunk = (seq: number, text: string, extra: object = {}) => msg('stream:chunk', { blockId: 'a', seq, chunk: text, ...extra });
    const streamed = (messages: SseMessage[]) => fold([msg('block:started', { blockId: 'a' }, 1), ...messages]).entries[0]?.streamed;
    // An earlier model call of the loop (seq 0-1), then a call from seq 10 whose try failed after "The ans".
    const before = [chunk(0, 'Looking. '), chunk(1, 'Done. '), chunk(10, 'The '), chunk(11, 'ans'), chunk(11, 'ans')];
    expect(streamed(before)).toBe('Looking. Done. The ans');
    // Its retry answered differently: its whole text so far replaces what the call had sent.
    expect(streamed([...before, chunk(100_010, 'An answer', { restart: { fromSeq: 10 } }), chunk(100_011, '!')])).toBe('Looking. Done. An answer!');
    // A restart of a call of which nothing arrived only adds; a tool state chunk carries no text.
    expect(streamed([chunk(0, 'x'), chunk(1, '', { toolCall: { id: 't', name: 'n', state: 'executing' } }), chunk(200_005, 'y', { restart: { fromSeq: 5 } })])).toBe('xy');
    // Chunks without a number (older servers) are appended.
    expect(streamed([msg('stream:chunk', { blockId: 'a', chunk: 'p' }), msg('stream:chunk', { blockId: 'a', chunk: 'q' })])).toBe('pq');
  });

  it('shows blocks cut short by a cancelled run as cancelled, not failed: reported so, or still running at the end', () => {
    const view = fold([
      msg('block:started', { blockId: 'a' }, 1),
      msg('block:started', { blockId: 'b' }, 2),
      msg('block:started', { blockId: 'c' }, 3),
      msg('stream:chunk', { blockId: 'b', seq: 0, chunk: 'Half an ans' }),
      msg('block:completed', { blockId: 'a', success: true, output: { result: 1 } }, 4),
      msg('block:error', { blockId: 'b', success: false, cancelled: true }, 5),
      msg('execution:cancelled', { executionId: 'x' }, 6),
    ]);
    expect(view.status).toBe('cancelled');
    expect(view.entries.map((e) => [e.blockId, e.status])).toEqual([
      ['a', 'done'],
      ['b', 'cancelled'],
      ['c', 'cancelled'],
    ]);
    expect(view.entries[0]?.output).toEqual({ result: 1 });
    // What a cut-short block streamed stays (the console shows it under the Cancelled badge).
    expect(view.entries[1]?.streamed).toBe('Half an ans');
    const stored = fromExecution({ executionId: 'x', status: 'cancelled', logs: [{ blockId: 'b', blockName: 'B', status: 'cancelled', success: false, error: 'Run cancelled' }] });
    expect(stored.entries.map((e) => [e.blockId, e.status, e.error])).toEqual([['b', 'cancelled', 'Run cancelled']]);
  });

  it('shows the blocks of a stored execution still going as running, not failed (its log has no success yet)', () => {
    const stored = fromExecution({
      executionId: 'x',
      status: 'running',
      logs: [
        { blockId: 's', blockName: 'Start', blockType: 'starter', status: 'succeeded', success: true, durationMs: 1 },
        { blockId: 'f', blockName: 'Slow', blockType: 'function', status: 'running', running: true, startedAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    expect(stored.status).toBe('running');
    expect(stored.entries.map((e) => [e.blockId, e.status])).toEqual([['s', 'done'], ['f', 'running']]);
    expect(blockStatuses(stored).get('f')).toBe('running');
    // Once the run ends the stored log gives the outcome.
    const ended = fromExecution({ executionId: 'x', status: 'failed', logs: [{ blockId: 'f', blockName: 'Slow', status: 'failed', success: false, error: 'boom' }] });
    expect(ended.entries.map((e) => [e.blockId, e.status])).toEqual([['f', 'failed']]);
  });

  it("marks a rerun's reused blocks as reused and done (or failed, reused as failed), live and stored alike; a block that ran is not marked", () => {
    const live = fold([
      msg('execution:started', { executionId: 'r' }, 1),
      msg('block:completed', { blockId: 'compute', blockName: 'Compute', blockType: 'function', success: true, durationMs: 0, output: { answer: 42 }, reused: true }, 2),
      msg('block:error', { blockId: 'risky', blockName: 'Risky', blockType: 'function', success: false, error: 'out of stock', reused: true }, 3),
      msg('block:started', { blockId: 'double', blockName: 'Double', blockType: 'function' }, 4),
      msg('block:completed', { blockId: 'double', blockName: 'Double', blockType: 'function', success: true, durationMs: 4, output: 84 }, 5),
    ]);
    expect(live.entries.map((e) => [e.blockId, e.status, e.reused])).toEqual([
      ['compute', 'done', true],
      ['risky', 'failed', true],
      ['double', 'done', undefined],
    ]);
    expect(Object.fromEntries(blockStatuses(live))).toEqual({ compute: 'done', risky: 'failed', double: 'done' });
    const stored = fromExecution({
      executionId: 'r',
      status: 'succeeded',
      logs: [
        { blockId: 'compute', blockName: 'Compute', blockType: 'function', status: 'succeeded', success: true, durationMs: 0, reused: true },
        { blockId: 'body', blockName: 'Body', blockType: 'function', status: 'succeeded', success: true, loopIteration: [0], reused: true },
        { blockId: 'double', blockName: 'Double', blockType: 'function', status: 'succeeded', success: true, durationMs: 4 },
      ],
    });
    expect(stored.entries.map((e) => [e.key, e.status, e.reused])).toEqual([
      ['compute', 'done', true],
      ['body@i0', 'done', true],
      ['double', 'done', undefined],
    ]);
  });

  it('shows a stored execution with its logs', () => {
    const view = fromExecution({ executionId: 'x', status: 'succeeded', output: 1, durationMs: 9, logs: [{ blockId: 's', blockName: 'Start', blockType: 'starter', success: true, durationMs: 1 }, { nope: true }] });
    expect(view.entries.map((e) => [e.blockName, e.status])).toEqual([['Start', 'done']]);
    expect(view.status).toBe('succeeded');
    expect(view.output).toBe(1);
  });

  it('gives a failed or cancelled run no workflow output: the runner keeps an earlier block’s output there (the starter’s {input: {}})', () => {
    const stored = (status: string) => fromExecution({ executionId: 'x', status, output: { input: {} }, error: 'Agent 1: API key is required for OpenAI', logs: [{ blockId: 's', blockName: 'Start', blockType: 'starter', success: true, output: { input: {} } }] });
    expect(stored('failed').output).toBeUndefined();
    expect(stored('failed').error).toBe('Agent 1: API key is required for OpenAI');
    expect(stored('cancelled').output).toBeUndefined();
    expect(stored('succeeded').output).toEqual({ input: {} });
    // The same when the run's end arrives as an event; a block's own output stays in its log entry.
    const live = (event: string) => fold([msg('block:completed', { blockId: 's', blockName: 'Start', blockType: 'starter', success: true, output: { input: {} } }, 1), msg(event, { executionId: 'x', output: { input: {} }, error: 'boom' }, 2)]);
    expect(live('execution:failed').output).toBeUndefined();
    expect(live('execution:failed').entries[0]?.output).toEqual({ input: {} });
    expect(live('execution:cancelled').output).toBeUndefined();
    expect(live('execution:completed').output).toEqual({ input: {} });
  });

  it('asks for the starter’s input fields and checks their types, naming the field', () => {
    const fields = inputFields(JSON.stringify([{ id: '1', name: 'city', type: 'string' }, { id: '2', name: 'days', type: 'number' }, { id: '3', name: ' ', type: 'string' }, { id: '4', name: 'tags', type: 'array' }]));
    expect(fields).toEqual([
      { name: 'city', type: 'string' },
      { name: 'days', type: 'number' },
      { name: 'tags', type: 'array' },
    ]);
    expect(inputFromFields(fields, { city: 'Oslo', days: '3', tags: '["a"]' })).toEqual({ input: { city: 'Oslo', days: 3, tags: ['a'] } });
    expect(inputFromFields(fields, { days: 'three' })).toEqual({ error: 'days must be a number' });
    expect(inputFromFields(fields, { tags: '{"a":1}' })).toEqual({ error: 'tags must be a JSON array' });
    expect(inputFields('nonsense')).toEqual([]);
  });
});

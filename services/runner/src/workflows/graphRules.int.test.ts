import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FUNCTION_TIMEOUT_MS } from '@weft/catalog';
import { createEngineHarness, graphOf, ran, type EngineHarness } from '../testing/engineHarness.js';

const S = { type: 'starter', name: 'Start' };

describe('graph semantics of a run (real Temporal server, fake activities)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it('runs starter → function → response: references reach the code as values, {{KEY}} from the environment, the response is the output', async () => {
    h.setEnvironment({ API_KEY: 'sk-secret', UNUSED_SECRET: 'never-sent' });
    const state = graphOf(
      {
        s: S,
        f: { name: 'Add', code: 'return <start.input.x> + 41 + "" + "{{API_KEY}}".length' },
        r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"sum": <add.result>, "label": "got <add.result>"}', status: 201, headers: [{ id: 'h1', cells: { Key: 'X-Run', Value: '{{API_KEY}}' } }] } },
      },
      [['s', 'f'], ['f', 'r']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.success).toBe(true);
    expect(result.response).toEqual({ status: 201, headers: { 'X-Run': 'sk-secret' }, data: { sum: '429', label: 'got 429' } });
    expect(result.output).toEqual({ sum: '429', label: 'got 429' });
    const call = h.rec.functionCalls[0];
    expect(call?.code).toContain('params["<start.input.x>"]');
    expect(call?.code.replaceAll('params["<start.input.x>"]', '')).not.toContain('<start.input.x>');
    expect(call?.code).not.toContain('sk-secret');
    expect(call?.params['<start.input.x>']).toBe(1);
    expect(call?.timeoutMs).toBe(FUNCTION_TIMEOUT_MS);
    expect(FUNCTION_TIMEOUT_MS).toBe(10_000);
    // Only what the code reads reaches the sandbox (and the activity's input in Temporal's history).
    expect(call?.envVars).toEqual({ API_KEY: 'sk-secret' });
    const fnLog = result.logs.find((l) => l.blockId === 'f');
    expect(JSON.stringify(fnLog?.input)).not.toContain('sk-secret');
    const resLog = result.logs.find((l) => l.blockId === 'r');
    expect(JSON.stringify(resLog?.input)).toContain('{{API_KEY}}');
    expect(JSON.stringify(resLog?.input)).not.toContain('sk-secret');
    // Events are numbered in the order they happened (their recording may race); runCompleted comes last.
    const byOrdinal = [...h.rec.events].sort((a, b) => (a.ordinal ?? 0) - (b.ordinal ?? 0));
    expect(byOrdinal.map((e) => e.ordinal)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(byOrdinal.map((e) => e.type)).toEqual(['runStarted', 'blockStarted', 'blockCompleted', 'blockStarted', 'blockCompleted', 'blockStarted', 'blockCompleted', 'runCompleted']);
    expect(h.rec.events.at(-1)).toMatchObject({ type: 'runCompleted', ordinal: 8 });
    await h.keepHistory(handle, 'function-response');
  });

  it('fails a run whose environment cannot be loaded with that error, its start and end recorded, no block run', async () => {
    h.setEnvironment(new Error('Environment service unavailable'));
    const state = graphOf({ s: S, f: { name: 'Add', code: 'return 1' } }, [['s', 'f']]);
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toContain('Environment service unavailable');
    expect(h.rec.functionCalls).toHaveLength(0);
    expect(h.rec.events.map((e) => e.type)).toEqual(['runStarted', 'runCompleted']);
    expect(h.rec.events.map((e) => e.ordinal)).toEqual([1, 2]);
  });

  it('a run whose start the API recorded loads no environment when no block can read it: no local activity before its first block', async () => {
    h.setEnvironment({ API_KEY: 'sk-secret' });
    const plain = graphOf({ s: S, f: { name: 'Add', code: 'return 40 + 2' }, r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"n": <add.result>}' } } }, [['s', 'f'], ['f', 'r']]);
    const handle = await h.start(plain, { startRecorded: true });
    const result = await handle.result();
    expect(result.output).toEqual({ n: 42 });
    expect(h.rec.events.map((e) => e.type)).not.toContain('runStarted');
    expect(h.rec.events.at(-1)).toMatchObject({ type: 'runCompleted', ordinal: 8 });
    const { events } = await handle.fetchHistory();
    const firstActivity = (events ?? []).findIndex((e) => e.activityTaskScheduledEventAttributes);
    const localBefore = (events ?? []).slice(0, firstActivity).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(localBefore).toHaveLength(0);
    await h.keepHistory(handle, 'api-start');

    // A {{KEY}} reference: the environment is loaded (the start's event with it).
    h.reset();
    h.setEnvironment({ API_KEY: 'sk-secret' });
    const reading = graphOf({ s: S, f: { name: 'Key', code: 'return "{{API_KEY}}".length' } }, [['s', 'f']]);
    const withKey = await h.run(reading, { startRecorded: true });
    expect(withKey.output).toMatchObject({ result: 9 });
    expect(h.rec.events[0]).toMatchObject({ type: 'runStarted' });
  });

  it('runs both arms of a diamond at once and the join after both, with both outputs', async () => {
    const state = graphOf(
      {
        s: S,
        a: { name: 'Arm A', code: '// barrier:diamond:2\nreturn 1' },
        b: { name: 'Arm B', code: '// barrier:diamond:2\nreturn 2' },
        j: { name: 'Join', code: 'return <arma.result> + <armb.result>' },
      },
      [['s', 'a'], ['s', 'b'], ['a', 'j'], ['b', 'j']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ result: 3, stdout: '' });
    expect(ran(result).slice(-1)).toEqual(['j']);
    await h.keepHistory(handle, 'diamond');
  });

  it('skips a disabled block and what only it feeds; a join reached another way still runs', async () => {
    const state = graphOf(
      {
        s: S,
        off: { name: 'Off', code: 'return 1', enabled: false },
        after: { name: 'After Off', code: 'return 2' },
        on: { name: 'On', code: 'return 3' },
        j: { name: 'Join', code: 'return <on.result>' },
      },
      [['s', 'off'], ['off', 'after'], ['s', 'on'], ['on', 'j'], ['after', 'j']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(true);
    expect(ran(result).sort()).toEqual(['j', 'on', 's']);
    expect(result.logs.filter((l) => l.skipped).map((l) => l.blockId).sort()).toEqual(['after', 'off']);
    expect(result.output).toEqual({ result: 3, stdout: '' });
  });

  it('condition: an expression ending in a semicolon is tested as without it (as Sim reads `return <expression>;`)', async () => {
    const conditions = JSON.stringify([
      { id: 'c1', title: 'if', value: '<start.input.answer> === "yes";' },
      { id: 'c2', title: 'else', value: '' },
    ]);
    const state = graphOf(
      { s: S, c: { type: 'condition', name: 'Check', values: { conditions } }, yes: { name: 'Yes', code: 'return "took yes"' }, no: { name: 'No', code: 'return "took no"' } },
      [['s', 'c'], ['c', 'yes', 'condition-c1'], ['c', 'no', 'condition-c2']],
    );
    const yes = await h.run(state, { input: { answer: 'yes' } });
    expect(yes.error).toBeUndefined();
    expect(yes.output).toEqual({ result: 'took yes', stdout: '' });
    expect((await h.run(state, { input: { answer: 'no' } })).output).toEqual({ result: 'took no', stdout: '' });
  });

  it('condition: the first truthy branch wins, only its edge fires, the branch not taken is skipped and the join does not wait for it', async () => {
    const conditions = JSON.stringify([
      { id: 'c1', title: 'if', value: '<start.input.x> > 5' },
      { id: 'c2', title: 'else if', value: '<start.input.x> === 1' },
      { id: 'c3', title: 'else', value: '' },
    ]);
    const state = graphOf(
      {
        s: S,
        c: { type: 'condition', name: 'Check', values: { conditions } },
        big: { name: 'Big', code: 'return "big"' },
        one: { name: 'One', code: 'return "one"' },
        other: { name: 'Other', code: 'return "other"' },
        j: { name: 'Join', code: 'return "joined"' },
      },
      [['s', 'c'], ['c', 'big', 'condition-c1'], ['c', 'one', 'condition-c2'], ['c', 'other', 'condition-c3'], ['big', 'j'], ['one', 'j'], ['other', 'j']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(ran(result)).toEqual(['s', 'c', 'one', 'j']);
    const cond = result.logs.find((l) => l.blockId === 'c');
    expect(cond?.output).toEqual({
      content: '{"input":{"x":1}}',
      conditionResult: true,
      selectedConditionId: 'c2',
      selectedPath: { blockId: 'one', blockType: 'function', blockTitle: 'One' },
    });
    // References reach the expressions as values.
    expect(h.rec.functionCalls[0]?.code.replaceAll('params["<start.input.x>"]', '')).not.toContain('<start.input.x>');
    await h.keepHistory(handle, 'condition');

    const elseRun = await h.run(state, { input: { x: 3 } });
    expect(ran(elseRun)).toEqual(['s', 'c', 'other', 'j']);
  });

  it('condition with no match and no else ends that path; the run still succeeds', async () => {
    const conditions = [{ id: 'only', title: 'if', value: 'false' }];
    const state = graphOf({ s: S, c: { type: 'condition', name: 'Check', values: { conditions } }, t: { code: 'return 1' } }, [['s', 'c'], ['c', 't', 'condition-only']]);
    const result = await h.run(state);
    expect(result.success).toBe(true);
    expect(ran(result)).toEqual(['s', 'c']);
    expect(result.output).toEqual({ content: '{"input":{"x":1}}', conditionResult: false, selectedConditionId: null, selectedPath: null });
  });

  it('condition content passes on the text answer of the block that leads into it (001 §2 outputs)', async () => {
    h.setModel(() => 'It is sunny');
    const conditions = [{ id: 'sun', title: 'if', value: '<agent.content>.includes("sunny")' }];
    const state = graphOf(
      {
        s: S,
        a: { type: 'agent', name: 'Agent', values: { model: 'gpt-4o', userPrompt: 'Weather?' } },
        c: { type: 'condition', name: 'Check', values: { conditions } },
        t: { name: 'Then', code: 'return <check.content>' },
      },
      [['s', 'a'], ['a', 'c'], ['c', 't', 'condition-sun']],
    );
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    expect(result.logs.find((l) => l.blockId === 'c')?.output).toMatchObject({ content: 'It is sunny', conditionResult: true, selectedConditionId: 'sun' });
    expect(result.output).toEqual({ result: 'It is sunny', stdout: '' });
  });

  it('a failed block with an error edge continues down it with {error} as its output', async () => {
    const state = graphOf(
      {
        s: S,
        f: { name: 'Fails', code: 'throw new Error("boom")' },
        ok: { name: 'Ok Path', code: 'return 1' },
        h: { name: 'Handler', code: 'return "handled " + <fails.error>' },
      },
      [['s', 'f'], ['f', 'ok'], ['f', 'h', 'error']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(ran(result)).toEqual(['s', 'f', 'h']);
    expect(result.output).toEqual({ result: 'handled Line 1:1 - boom', stdout: '' });
    const failed = result.logs.find((l) => l.blockId === 'f');
    expect(failed?.success).toBe(false);
    expect(failed?.error).toBe('Line 1:1 - boom');
    expect(failed?.output).toMatchObject({ error: 'Line 1:1 - boom', debug: { line: 1, column: 1 } });
    await h.keepHistory(handle, 'error-edge');
  });

  it('a failure without an error edge fails the run with that block\'s message, starts nothing new and cancels what is in flight', async () => {
    const state = graphOf(
      {
        s: S,
        f: { name: 'Function 1', code: 'throw new Error("boom")' },
        after: { name: 'After', code: 'return 1' },
        slow: { name: 'Slow', code: '// sleep:120000\nreturn 1' },
        afterSlow: { name: 'After Slow', code: 'return 2' },
      },
      [['s', 'f'], ['f', 'after'], ['s', 'slow'], ['slow', 'afterSlow']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toBe('Function 1: Line 1:1 - boom');
    expect(ran(result)).not.toContain('after');
    expect(ran(result)).not.toContain('afterSlow');
    // Cut short, not failed: the run's error stays the block that failed.
    expect(result.logs.find((l) => l.blockId === 'slow')).toMatchObject({ success: false, cancelled: true });
    expect(result.logs.find((l) => l.blockId === 'slow')).not.toHaveProperty('error');
  });

  it('a Response block ends the run: its status, headers and data are the answer, nothing new starts, what is in flight is cancelled', async () => {
    const state = graphOf(
      {
        s: S,
        r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '<start.input>' } },
        slow: { name: 'Slow', code: '// sleep:120000\nreturn 1' },
        later: { name: 'Later', code: 'return 2' },
      },
      [['s', 'r'], ['s', 'slow'], ['slow', 'later']],
    );
    const handle = await h.start(state, { input: { hello: 'world' } });
    const result = await handle.result();
    expect(result.success).toBe(true);
    expect(result.response).toEqual({ status: 200, headers: {}, data: { hello: 'world' } });
    expect(result.output).toEqual({ hello: 'world' });
    expect(ran(result)).not.toContain('later');
    await h.keepHistory(handle, 'response');
  });

  it('Response in builder mode: rows become the data, each read by its type; references keep their values', async () => {
    const builderData = [
      { id: 'r1', name: 'count', type: 'number', value: '<start.input.x>' },
      { id: 'r2', name: 'ratio', type: 'number', value: '2.5' },
      { id: 'r3', name: 'ok', type: 'boolean', value: 'true' },
      { id: 'r4', name: 'tags', type: 'array', value: '["a", "b"]' },
      { id: 'r5', name: 'label', type: 'string', value: 'x is <start.input.x>' },
      { id: 'r6', name: '', type: 'string', value: 'dropped' },
    ];
    const state = graphOf({ s: S, r: { type: 'response', name: 'Response', values: { dataMode: 'structured', builderData, status: '202' } } }, [['s', 'r']]);
    const result = await h.run(state, { input: { x: 7 } });
    expect(result.error).toBeUndefined();
    expect(result.response).toEqual({ status: 202, headers: {}, data: { count: 7, ratio: 2.5, ok: true, tags: ['a', 'b'], label: 'x is 7' } });
  });

  it('refuses a reference to a block that is not upstream, naming the reference', async () => {
    const state = graphOf({ s: S, a: { name: 'A', code: 'return <b.result>' }, b: { name: 'B', code: 'return 1' } }, [['s', 'a'], ['s', 'b']]);
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toBe('A: Reference <b.result> cannot be resolved: block "B" is not upstream of "A"');
  });

  it('code naming a block the workflow does not have fails the block with the deploy check\'s message, before any sandbox call; comparisons stay code', async () => {
    const state = graphOf(
      {
        s: S,
        ok: { name: 'Compare', code: 'const a = 1, b = 2;\nreturn a <b && b> a' },
        f: { name: 'Fn', code: 'return <nosuch.result> + 1' },
        h: { name: 'Handler', code: 'return <fn.error>' },
      },
      [['s', 'ok'], ['ok', 'f'], ['f', 'h', 'error']],
    );
    const result = await h.run(state);
    expect(result.logs.find((l) => l.blockId === 'ok')?.output).toEqual({ result: true, stdout: '' });
    expect(result.logs.find((l) => l.blockId === 'f')).toMatchObject({ success: false, error: 'Reference <nosuch.result> names no block', input: { code: 'return <nosuch.result> + 1' } });
    expect(result.output).toEqual({ result: 'Reference <nosuch.result> names no block', stdout: '' });
    expect(h.rec.functionCalls.map((c) => c.code)).toEqual(['const a = 1, b = 2;\nreturn a <b && b> a', 'return params["<fn.error>"]']);

    const cond = graphOf(
      { s: S, c: { type: 'condition', name: 'Check', values: { conditions: JSON.stringify([{ id: 'c-if', title: 'if', value: '<gone.count> > 1' }, { id: 'c-else', title: 'else', value: '' }]) } } },
      [['s', 'c']],
    );
    const failed = await h.run(cond);
    expect(failed).toMatchObject({ success: false, error: 'Check: Reference <gone.count> names no block' });
  });

  it('text in a string literal that reads like a reference to no block stays text: the code runs as written (patch code-string-reference-as-text)', async () => {
    const state = graphOf(
      {
        s: S,
        f: { name: 'Fn', code: 'return "List<java.lang.String>"' },
        r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"failed": true}' } },
      },
      [['s', 'f'], ['f', 'r', 'error']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    // code-string-reference.json was recorded by the code before (the block failed, the Response answered); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'code-string-reference');
    expect(result.output).toEqual({ result: 'List<java.lang.String>', stdout: '' });
    expect(h.rec.functionCalls.map((c) => c.code)).toEqual(['return "List<java.lang.String>"']);
  });

  it('runs only what the starter reaches: a block with no path from the starter never runs', async () => {
    const state = graphOf(
      { s: S, a: { name: 'A', code: 'return 1' }, island: { name: 'Island', code: '// started:island\nreturn 2' }, after: { name: 'After Island', code: 'return 3' } },
      [['s', 'a'], ['island', 'after']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(true);
    expect(result.logs.map((l) => l.blockId)).toEqual(['s', 'a']);
    expect(h.rec.started).not.toContain('island');
    expect(result.output).toEqual({ result: 1, stdout: '' });
  });

  it('a join waits for every active incoming edge: a slow arm holds it back, then it reads both arms', async () => {
    const state = graphOf(
      {
        s: S,
        fast: { name: 'Fast', code: 'return "f"' },
        slow: { name: 'Slow', code: '// sleep:300\nreturn "s"' },
        mid: { name: 'Mid', code: 'return <fast.result> + "m"' },
        j: { name: 'Join', code: 'return <mid.result> + <slow.result>' },
      },
      [['s', 'fast'], ['s', 'slow'], ['fast', 'mid'], ['mid', 'j'], ['slow', 'j']],
    );
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ result: 'fms', stdout: '' });
    const order = ran(result);
    expect(order.indexOf('j')).toBeGreaterThan(order.indexOf('slow'));
    expect(order.indexOf('j')).toBeGreaterThan(order.indexOf('mid'));
    expect(order.filter((id) => id === 'j')).toHaveLength(1);
  });

  it('keeps only the first error when two blocks fail; the second is cancelled before its message can count', async () => {
    const state = graphOf(
      {
        s: S,
        a: { name: 'First', code: '// barrier:two:2\nthrow new Error("first")' },
        b: { name: 'Second', code: '// barrier:two:2\n// sleep:5000\nthrow new Error("second")' },
      },
      [['s', 'a'], ['s', 'b']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toBe('First: Line 1:1 - first');
    expect(result.logs.filter((l) => l.success === false && !l.cancelled).map((l) => l.blockId)).toEqual(['a']);
    expect(result.logs.find((l) => l.blockId === 'b')).toMatchObject({ success: false, cancelled: true });
  });

  it('a failure cancels what is in flight inside containers too, and nothing after them starts', async () => {
    const state = graphOf(
      {
        s: S,
        f: { name: 'Fails', code: '// barrier:inflight:2\nthrow new Error("stop")' },
        l: { type: 'loop', name: 'Loop', data: { loopType: 'for', count: 3 } },
        body: { name: 'Body', parent: 'l', code: '// barrier:inflight:2\n// sleep:120000\nreturn 1' },
        after: { name: 'After Loop', code: 'return 2' },
      },
      [['s', 'f'], ['s', 'l'], ['l', 'body', 'loop-start-source'], ['l', 'after', 'loop-end-source']],
    );
    const result = await h.run(state);
    expect(result).toMatchObject({ success: false, error: 'Fails: Line 1:1 - stop' });
    expect(result.logs.filter((l) => l.blockId === 'body')).toEqual([expect.objectContaining({ success: false, cancelled: true, loopIteration: [0] })]);
    expect(ran(result)).not.toContain('after');
    expect(h.rec.functionCalls.filter((c) => c.code.includes('sleep:120000'))).toHaveLength(1);
  });

  it('a reference to a block on a branch not taken fails with a message naming the reference', async () => {
    const conditions = [
      { id: 'yes', title: 'if', value: '<start.input.x> > 5' },
      { id: 'no', title: 'else', value: '' },
    ];
    const state = graphOf(
      {
        s: S,
        c: { type: 'condition', name: 'Check', values: { conditions } },
        big: { name: 'Big', code: 'return "big"' },
        small: { name: 'Small', code: 'return "small"' },
        j: { name: 'Join', code: 'return <big.result>' },
      },
      [['s', 'c'], ['c', 'big', 'condition-yes'], ['c', 'small', 'condition-no'], ['big', 'j'], ['small', 'j']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toBe('Join: Reference <big.result> cannot be resolved: block "Big" has not run');
    expect(result.logs.find((l) => l.blockId === 'big')?.skipped).toBe(true);
  });

  it('router: the model picks one connected block (temperature 0.1 by default); only that edge fires; output content, model, tokens, cost, selectedPath', async () => {
    h.setModel(() => 'support');
    const state = graphOf(
      {
        s: S,
        r: { type: 'router', name: 'Route', values: { userPrompt: 'Where does <start.input.q> go?', model: 'gpt-4o' } },
        sales: { name: 'Sales', code: 'return "sales"' },
        support: { name: 'Support', code: 'return "support"' },
        j: { name: 'Join', code: 'return "joined after " + <route.selectedPath.blockTitle>' },
      },
      [['s', 'r'], ['r', 'sales', 'router-sales'], ['r', 'support', 'router-support'], ['sales', 'j'], ['support', 'j']],
    );
    const handle = await h.start(state, { input: { q: 'a refund' } });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(ran(result)).toEqual(['s', 'r', 'support', 'j']);
    expect(result.logs.find((l) => l.blockId === 'sales')?.skipped).toBe(true);
    expect(result.logs.find((l) => l.blockId === 'r')?.output).toEqual({
      content: 'support',
      model: 'gpt-4o',
      tokens: { prompt: 10, completion: 2, total: 12 },
      cost: { input: 0.001, output: 0.002, total: 0.003 },
      selectedPath: { blockId: 'support', blockType: 'function', blockTitle: 'Support' },
    });
    expect(result.output).toEqual({ result: 'joined after Support', stdout: '' });
    expect(h.rec.modelCalls[0]?.temperature).toBe(0.1);
    expect(JSON.stringify(h.rec.modelCalls[0]?.messages)).toContain('a refund');
    expect(result.cost).toEqual({ input: 0.001, output: 0.002, total: 0.003 });
    await h.keepHistory(handle, 'router');
  });

  it('router: an answer that names no connected block fails the block with a clear message', async () => {
    h.setModel(() => 'billing');
    const state = graphOf(
      {
        s: S,
        r: { type: 'router', name: 'Route', values: { userPrompt: 'Pick one', model: 'gpt-4o' } },
        sales: { name: 'Sales', code: 'return "sales"' },
        support: { name: 'Support', code: 'return "support"' },
      },
      [['s', 'r'], ['r', 'sales', 'router-sales'], ['r', 'support', 'router-support']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toBe('Route: Router chose "billing", which is not a block connected to it (connected: Sales (sales), Support (support))');
    expect(ran(result)).toEqual(['s', 'r']);
  });

  it('uses the workflow id as execution id when none is given (schedules start runs with generated ids)', async () => {
    const state = graphOf({ s: S, a: { code: 'return 1' } }, [['s', 'a']]);
    const handle = await h.start(state, { executionId: '' });
    await handle.result();
    expect(h.rec.events[0]).toMatchObject({ type: 'runStarted', executionId: handle.workflowId });
  });

  it('starts at the trigger block that started the run when the starter does not lead to it; at the starter otherwise', async () => {
    const hooked = { method: 'POST', headers: {}, query: {}, body: { n: 4 } };
    const state = graphOf(
      {
        s: S,
        manual: { name: 'Manual', code: 'return "manual"' },
        hook: { type: 'webhook', name: 'Hook', values: { webhookProvider: 'generic' } },
        // `<start.…>` in a run a trigger block started reads that block's input, as a starter's.
        twice: { name: 'Twice', code: 'return <hook.input.body.n> * 2 + <start.body.n>' },
        sched: { type: 'schedule', name: 'Every Minute' },
        tick: { name: 'Tick', code: 'return "tick"' },
      },
      [['s', 'manual'], ['hook', 'twice'], ['sched', 'tick']],
    );
    const handle = await h.start(state, { input: hooked, triggerBlockId: 'hook' });
    const byHook = await handle.result();
    expect(byHook.error).toBeUndefined();
    expect(ran(byHook)).toEqual(['hook', 'twice']);
    expect(byHook.logs.find((l) => l.blockId === 'hook')?.output).toEqual({ input: hooked });
    expect(byHook.output).toEqual({ result: 12, stdout: '' });
    await h.keepHistory(handle, 'trigger-entry');

    expect(ran(await h.run(state, { input: {}, triggerBlockId: 'sched' }))).toEqual(['sched', 'tick']);
    // No trigger block, the starter itself, an unknown block: the run starts at the starter, as before.
    for (const triggerBlockId of [undefined, 's', 'nosuch']) {
      expect(ran(await h.run(state, triggerBlockId === undefined ? {} : { triggerBlockId }))).toEqual(['s', 'manual']);
    }
    // A trigger block the starter leads to runs after the starter: the run starts at the starter.
    const chained = graphOf({ s: S, hook: { type: 'webhook', name: 'Hook' }, echo: { name: 'Echo', code: 'return <start.body.n> + <hook.input.body.n>' } }, [['s', 'hook'], ['hook', 'echo']]);
    const viaStarter = await h.run(chained, { input: hooked, triggerBlockId: 'hook' });
    expect(ran(viaStarter)).toEqual(['s', 'hook', 'echo']);
    expect(viaStarter.output).toEqual({ result: 8, stdout: '' });
  });

  it('a workflow without a starter fails with a clear message', async () => {
    const result = await h.run(graphOf({ a: { code: 'return 1' } }, []));
    expect(result).toMatchObject({ success: false, error: 'The workflow has no starter block' });
  });

  it('a cycle outside a loop fails the run before any block runs, naming its blocks as the deploy check does', async () => {
    const result = await h.run(graphOf({ s: S, a: { name: 'Fetch', code: 'return 1' }, b: { name: 'Parse', code: 'return 2' } }, [['s', 'a'], ['a', 'b'], ['b', 'a']]));
    expect(result).toMatchObject({ success: false, error: 'The workflow has a cycle outside a loop block: Fetch → Parse → Fetch' });
    expect(h.rec.functionCalls).toEqual([]);
  });
});

import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, type EngineHarness } from '../testing/engineHarness.js';
import { patchesOf } from '../testing/patches.js';

const S = { type: 'starter', name: 'Start' };

const timing = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 };

describe('tool, workflow and run-level behaviour (real Temporal server, fake activities)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it('API block: the catalogue picks http_request; resolved params, tables and the call context reach the tool runtime; its output is the block output', async () => {
    h.setEnvironment({ TOKEN: 't-1' });
    h.setTools((input) => ({ success: true, output: { data: { echoed: input.params.url }, status: 200, headers: {} }, timing }));
    const state = graphOf(
      {
        s: S,
        api: {
          type: 'api',
          name: 'API 1',
          values: { url: 'https://example.test/users/<start.input.x>', method: 'GET', headers: [{ id: 'h', cells: { Key: 'Authorization', Value: 'Bearer {{TOKEN}}' } }] },
        },
      },
      [['s', 'api']],
    );
    const handle = await h.start(state, { actorId: 'user-9' });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ data: { echoed: 'https://example.test/users/1' }, status: 200, headers: {} });
    const call = h.rec.toolCalls[0];
    expect(call?.toolId).toBe('http_request');
    expect(call?.params).toMatchObject({ url: 'https://example.test/users/1', method: 'GET', headers: [{ id: 'h', cells: { Key: 'Authorization', Value: 'Bearer t-1' } }] });
    expect(call?.context).toEqual({ workspaceId: 'ws-1', workflowId: 'wf-main', executionId: handle.workflowId, blockId: 'api', requestId: 'req-1', actorId: 'user-9' });
    const log = result.logs.find((l) => l.blockId === 'api');
    expect(JSON.stringify(log?.input)).toContain('Bearer {{TOKEN}}');
    expect(JSON.stringify(log?.input)).not.toContain('t-1');
    expect(log?.attempts).toBe(1);
    await h.keepHistory(handle, 'api-tool');
  });

  it('a §5 parameter error fails the block word for word before any tool runs', async () => {
    const state = graphOf({ s: S, sl: { type: 'slack', name: 'Slack 1', values: { operation: 'send', text: 'hi' } } }, [['s', 'sl']]);
    const result = await h.run(state);
    expect(result).toMatchObject({ success: false, error: 'Slack 1: Channel is required. Please select a channel or enter a channel ID manually.' });
    expect(h.rec.toolCalls).toHaveLength(0);
  });

  it('retries a transient tool failure with backoff (attempts in the log), not an answered one', async () => {
    h.setTools((input, attempt) => {
      if (input.params.url === 'https://flaky.test' && attempt < 3) throw ApplicationFailure.retryable('HTTP error 503: Service Unavailable');
      if (input.params.url === 'https://bad.test') throw ApplicationFailure.nonRetryable('HTTP error 400: Bad Request');
      if (input.params.url === 'https://answered.test') return { success: false, output: null, error: 'HTTP error 404: Not Found', timing };
      return { success: true, output: { data: 'fine', status: 200, headers: {} }, timing };
    });
    const api = (url: string, extra: Record<string, unknown> = {}) => graphOf({ s: S, api: { type: 'api', name: 'API', values: { url, method: 'GET' }, ...extra } }, [['s', 'api']]);
    const handle = await h.start(api('https://flaky.test'));
    const flaky = await handle.result();
    expect(flaky.success).toBe(true);
    expect(flaky.logs.find((l) => l.blockId === 'api')?.attempts).toBe(3);
    // The log shows each attempt: two failed tries with their error, then the one that answered.
    const tries = flaky.logs.find((l) => l.blockId === 'api')?.attemptLog ?? [];
    expect(tries.map((t) => [t.attempt, t.error ?? null])).toEqual([[1, 'HTTP error 503: Service Unavailable'], [2, 'HTTP error 503: Service Unavailable'], [3, null]]);
    for (const t of tries) expect(Date.parse(t.startedAt)).not.toBeNaN();
    expect(tries.every((t, i) => i === 0 || Date.parse(t.startedAt) >= Date.parse(tries[i - 1]?.startedAt ?? ''))).toBe(true);
    await h.keepHistory(handle, 'tool-retries');

    const bad = await h.run(api('https://bad.test'));
    expect(bad).toMatchObject({ success: false, error: 'API: HTTP error 400: Bad Request' });
    expect(bad.logs.find((l) => l.blockId === 'api')?.attempts).toBe(1);
    expect(bad.logs.find((l) => l.blockId === 'api')).not.toHaveProperty('attemptLog');

    const answered = await h.run(api('https://answered.test'));
    expect(answered).toMatchObject({ success: false, error: 'API: HTTP error 404: Not Found' });
    expect(answered.logs.find((l) => l.blockId === 'api')?.attempts).toBe(1);

    // Advanced mode: retries 0 means a single try.
    h.reset();
    h.setTools((_input, attempt) => {
      if (attempt < 3) throw ApplicationFailure.retryable('HTTP error 503: Service Unavailable');
      return { success: true, output: null, timing };
    });
    const once = await h.run(api('https://flaky.test', { advancedMode: true, values: { url: 'https://flaky.test', method: 'GET', retries: 0 } }));
    expect(once).toMatchObject({ success: false, error: 'API: HTTP error 503: Service Unavailable' });
    expect(once.logs.find((l) => l.blockId === 'api')?.attempts).toBe(1);
  });

  it('a 4xx answer fails the API block with the HTTP error and keeps the response (data, status, headers) for its error path to read', async () => {
    const answer = { data: { message: 'no such order' }, status: 404, headers: { 'content-type': 'application/json' } };
    h.setTools(() => ({ success: false, output: answer, error: 'HTTP error 404: Not Found', timing }));
    const state = graphOf(
      {
        s: S,
        api: { type: 'api', name: 'API', values: { url: 'https://orders.example/1', method: 'GET' } },
        h: { name: 'Handler', code: 'return [<api.status>, <api.data.message>, <api.headers>, <api.error>]' },
      },
      [['s', 'api'], ['api', 'h', 'error']],
    );
    const result = await h.run(state);
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ result: [404, 'no such order', { 'content-type': 'application/json' }, 'HTTP error 404: Not Found'], stdout: '' });
    expect(result.logs.find((l) => l.blockId === 'api')).toMatchObject({ success: false, error: 'HTTP error 404: Not Found', output: { error: 'HTTP error 404: Not Found', ...answer } });
    // Without an error path the run fails as before, naming the block and the HTTP error.
    const alone = await h.run(graphOf({ s: S, api: { type: 'api', name: 'API', values: { url: 'https://orders.example/1', method: 'GET' } } }, [['s', 'api']]));
    expect(alone).toMatchObject({ success: false, error: 'API: HTTP error 404: Not Found' });
  });

  it('a 429 or 5xx after the last try fails the API block and keeps that try’s response (data, status, headers) for its error path, as a 4xx does', async () => {
    const answerOf = (attempt: number) => ({ data: { message: `busy ${attempt}` }, status: 503, headers: { 'retry-after': String(attempt) } });
    h.setTools((input, attempt) => {
      // What the integrations worker throws: a retryable failure with the try's answer in its details.
      if (input.params.url === 'https://busy.example') throw ApplicationFailure.create({ message: 'HTTP error 503: Service Unavailable', type: 'TransientToolError', details: [{ output: answerOf(attempt) }] });
      throw ApplicationFailure.retryable('fetch failed', 'TransientToolError');
    });
    const state = (url: string) =>
      graphOf(
        {
          s: S,
          api: { type: 'api', name: 'API', values: { url, method: 'GET' } },
          h: { name: 'Handler', code: 'return [<api.status>, <api.data.message>, <api.headers>, <api.error>]' },
        },
        [['s', 'api'], ['api', 'h', 'error']],
      );
    const result = await h.run(state('https://busy.example'));
    expect(result.success).toBe(true);
    // The last (third) try's answer, not the first's.
    expect(result.output).toEqual({ result: [503, 'busy 3', { 'retry-after': '3' }, 'HTTP error 503: Service Unavailable'], stdout: '' });
    const api = result.logs.find((l) => l.blockId === 'api');
    expect(api).toMatchObject({ success: false, error: 'HTTP error 503: Service Unavailable', attempts: 3, output: { error: 'HTTP error 503: Service Unavailable', ...answerOf(3) } });
    expect(api?.attemptLog?.map((t) => t.error)).toEqual(['HTTP error 503: Service Unavailable', 'HTTP error 503: Service Unavailable', 'HTTP error 503: Service Unavailable']);
    // A failure with no answer (the network) keeps only its error.
    const down = await h.run(state('https://down.example'));
    expect(down.logs.find((l) => l.blockId === 'api')).toMatchObject({ success: false, attempts: 3, output: { error: 'fetch failed' } });
    expect(down.logs.find((l) => l.blockId === 'api')?.output).toEqual({ error: 'fetch failed' });
  });

  it('the kept answer is behind patch http-error-answer, asked only when a failed request has an answer: the marker is recorded then, not for a failure without one', async () => {
    // A long body comes back kept aside (the tool runtime's storeLargeOutput): reading it loads it, an activity of the run
    // (the stand-in body is short, to keep the stored history small).
    h.rec.blobs.set('tool-output/1', { message: 'no such order' });
    const answer = { data: { $blobRef: 'tool-output/1', bytes: 300 * 1024 }, status: 404, headers: {} };
    h.setTools((input) =>
      input.params.url === 'https://orders.example/1' ? { success: false, output: answer, error: 'HTTP error 404: Not Found', timing } : { success: false, output: null, error: 'fetch failed', timing },
    );
    // An error path that branches on the answer: runs recorded before the patch saw no status nor data here (nothing to load) and ended after the condition.
    const conditions = JSON.stringify([{ id: 'c1', title: 'if', value: "<api.status> === 404 && <api.data.message> === 'no such order'" }]);
    const state = (url: string) =>
      graphOf(
        {
          s: S,
          api: { type: 'api', name: 'API', values: { url, method: 'GET' } },
          c: { type: 'condition', name: 'Check', values: { conditions } },
          gone: { name: 'Gone', code: 'return "order gone"' },
        },
        [['s', 'api'], ['api', 'c', 'error'], ['c', 'gone', 'condition-c1']],
      );
    const handle = await h.start(state('https://orders.example/1'));
    const result = await handle.result();
    // api-error-answer.json was recorded by the code before the patch (its run ended after the condition); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'api-error-answer');
    expect(result.output).toEqual({ result: 'order gone', stdout: '' });
    expect(result.logs.find((l) => l.blockId === 'api')?.output).toEqual({ error: 'HTTP error 404: Not Found', ...answer });
    expect(patchesOf(await handle.fetchHistory())).toContain('http-error-answer');

    const down = await h.start(state('https://down.example'));
    const downResult = await down.result();
    expect(downResult.logs.find((l) => l.blockId === 'api')?.output).toEqual({ error: 'fetch failed' });
    expect(patchesOf(await down.fetchHistory())).not.toContain('http-error-answer');
  });

  it('the run log masks an environment value in every encoded form behind patch secret-forms: a failed block\'s {error} output shows {{KEY}} for the key a URL carried percent-encoded', async () => {
    const key = 'Key/With+Slash-9';
    h.setEnvironment({ API_KEY: key });
    h.setTools(() => ({ success: false, output: null, error: `GET https://keys.example/x?key=${encodeURIComponent(key)} failed: 401`, timing }));
    // An error path that branches on the error text: runs recorded before the patch kept the encoded key in {error} and went on to Leak.
    const conditions = JSON.stringify([{ id: 'c1', title: 'if', value: "<api.error>.includes('%2F')" }]);
    const state = graphOf(
      {
        s: S,
        api: { type: 'api', name: 'API', values: { url: 'https://keys.example/x?key={{API_KEY}}', method: 'GET' } },
        c: { type: 'condition', name: 'Check', values: { conditions } },
        leak: { name: 'Leak', code: 'return "encoded key seen"' },
      },
      [['s', 'api'], ['api', 'c', 'error'], ['c', 'leak', 'condition-c1']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    // secret-forms.json was recorded by the code before the patch (exact texts only); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'secret-forms');
    expect(result.logs.find((l) => l.blockId === 'api')?.output).toEqual({ error: 'GET https://keys.example/x?key={{API_KEY}} failed: 401' });
    expect(result.logs.find((l) => l.blockId === 'c')?.output).toMatchObject({ conditionResult: false });
    expect(result.logs.find((l) => l.blockId === 'leak')).toMatchObject({ skipped: true });
    expect(patchesOf(await handle.fetchHistory())).toContain('secret-forms');
  });

  it('the run log masks environment values that overlap as one stretch behind patch secret-overlap: a failed block\'s {error} output shows {{KEY_A}}{{KEY_B}} where the keys overlap', async () => {
    h.setEnvironment({ KEY_A: 'abcdef12345', KEY_B: '12345XYZ-secret' });
    h.setTools(() => ({ success: false, output: null, error: 'GET https://keys.example/x?k=abcdef12345XYZ-secret failed: 401', timing }));
    const state = graphOf({ s: S, api: { type: 'api', name: 'API', values: { url: 'https://keys.example/x?a={{KEY_A}}&b={{KEY_B}}', method: 'GET' } } }, [['s', 'api']]);
    const handle = await h.start(state);
    const result = await handle.result();
    // secret-overlap.json was recorded by the code before the patch (the head of KEY_A kept: abcdef{{KEY_B}}); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'secret-overlap');
    expect(result.logs.find((l) => l.blockId === 'api')?.output).toEqual({ error: 'GET https://keys.example/x?k={{KEY_A}}{{KEY_B}} failed: 401' });
    expect(patchesOf(await handle.fetchHistory())).toContain('secret-overlap');
  });

  it("honours the block's retry setting (advanced mode): 5 retries make 6 tries, the setting never reaches the tool, 9 is refused naming the field", async () => {
    h.setTools((_input, attempt) => {
      if (attempt < 6) throw ApplicationFailure.retryable('HTTP error 503: Service Unavailable');
      return { success: true, output: { data: 'ok', status: 200, headers: {} }, timing };
    });
    const api = (retries: unknown) => graphOf({ s: S, api: { type: 'api', name: 'API', advancedMode: true, values: { url: 'https://flaky.test', method: 'GET', retries } } }, [['s', 'api']]);
    const five = await h.run(api('5'));
    expect(five.error).toBeUndefined();
    expect(five.logs.find((l) => l.blockId === 'api')?.attempts).toBe(6);
    expect(h.rec.toolCalls).toHaveLength(6);
    expect(h.rec.toolCalls.some((c) => 'retries' in c.params)).toBe(false);
    h.reset();
    const tooMany = await h.run(api(9));
    expect(tooMany).toMatchObject({ success: false, error: 'API: Retries must be a whole number between 0 and 5' });
    expect(h.rec.toolCalls).toHaveLength(0);
    // Out of tries: the block fails with the last error and its log shows both.
    h.reset();
    const exhausted = await h.run(api(1));
    expect(exhausted).toMatchObject({ success: false, error: 'API: HTTP error 503: Service Unavailable' });
    expect(exhausted.logs.find((l) => l.blockId === 'api')).toMatchObject({ attempts: 2, attemptLog: [{ attempt: 1, error: 'HTTP error 503: Service Unavailable' }, { attempt: 2, error: 'HTTP error 503: Service Unavailable' }] });
  });

  it("reads a reference in the retry setting (advanced mode) as its validation does: <start.input.retries> of 0 makes one try (patch retries-reference)", async () => {
    h.setTools(() => {
      throw ApplicationFailure.retryable('HTTP error 503: Service Unavailable');
    });
    const state = graphOf({ s: S, api: { type: 'api', name: 'API', advancedMode: true, values: { url: 'https://flaky.test', method: 'GET', retries: '<start.input.retries>' } } }, [['s', 'api']]);
    const handle = await h.start(state, { input: { retries: 0 } });
    const result = await handle.result();
    // retries-reference.json was recorded by the code before the patch (the reference read as no setting: 3 tries); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'retries-reference');
    expect(result).toMatchObject({ success: false, error: 'API: HTTP error 503: Service Unavailable' });
    expect(h.rec.toolCalls).toHaveLength(1);
    expect(patchesOf(await handle.fetchHistory())).toContain('retries-reference');
  });

  it('agent block: the model layer answers through its activity; what follows reads <agent.content>, cost adds up in the run', async () => {
    h.setModel((input) => `echo: ${JSON.stringify(input.messages.at(-1)?.content)}`);
    const state = graphOf(
      {
        s: S,
        a: { type: 'agent', name: 'Agent 1', values: { model: 'gpt-4o', systemPrompt: 'Be brief', userPrompt: 'Hello <start.input.name>' } },
        f: { name: 'Shout', code: 'return <agent1.content>.toUpperCase()' },
      },
      [['s', 'a'], ['a', 'f']],
    );
    const handle = await h.start(state, { input: { name: 'Ada' } });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ result: 'ECHO: "HELLO ADA"', stdout: '' });
    expect(result.logs.find((l) => l.blockId === 'a')).toMatchObject({ output: { content: 'echo: "Hello Ada"', model: 'gpt-4o' }, cost: { total: 0.003 } });
    expect(result.cost?.total).toBeCloseTo(0.003, 6);
    expect(h.rec.modelCalls[0]).toMatchObject({ model: 'gpt-4o', systemPrompt: 'Be brief' });
    await h.keepHistory(handle, 'agent');
  });

  it("agent block: Max Tokens not a positive whole number fails the block with validation's message and calls no model (patch agent-params-checked); a reference resolving to one is sent", async () => {
    h.setModel(() => 'ok');
    const agent = (maxTokens: string) => graphOf({ s: S, a: { type: 'agent', name: 'Agent 1', values: { model: 'gpt-4o', userPrompt: 'Hi', maxTokens } } }, [['s', 'a']]);
    const handle = await h.start(agent('lots'));
    const result = await handle.result();
    // agent-max-tokens.json was recorded by the code before the patch (the model called, Max Tokens dropped); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'agent-max-tokens');
    expect(result).toMatchObject({ success: false, error: 'Agent 1: Max Tokens must be a positive whole number (got lots)' });
    expect(h.rec.modelCalls).toHaveLength(0);
    expect(patchesOf(await handle.fetchHistory())).toContain('agent-params-checked');
    h.reset();
    h.setModel(() => 'ok');
    const fits = await h.start(agent('<start.input.n>'), { input: { n: 64 } });
    expect((await fits.result()).error).toBeUndefined();
    expect(h.rec.modelCalls[0]).toMatchObject({ maxTokens: 64 });
    expect(patchesOf(await fits.fetchHistory())).not.toContain('agent-params-checked');
  });

  it('workflow block: runs another workflow as a child with its input; output {success, childWorkflowName, result, error}', async () => {
    h.setChildWorkflows({
      'wf-child': { name: 'Child', state: graphOf({ s: S, f: { name: 'Double', code: 'return <start.input> * 2' } }, [['s', 'f']]) },
    });
    const state = graphOf(
      { s: S, w: { type: 'workflow', name: 'Workflow 1', values: { workflowId: 'wf-child', input: '<start.input.x>' } }, after: { code: 'return <workflow1.result.result>' } },
      [['s', 'w'], ['w', 'after']],
    );
    const handle = await h.start(state, { input: { x: 21 } });
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.logs.find((l) => l.blockId === 'w')?.output).toEqual({ success: true, childWorkflowName: 'Child', result: { result: 42, stdout: '' }, error: null });
    expect(result.output).toEqual({ result: 42, stdout: '' });
    await h.keepHistory(handle, 'child-workflow');
  });

  it('workflow block: a failed child fails the block with the child\'s message; an error edge takes it on', async () => {
    h.setChildWorkflows({ 'wf-child': { name: 'Child', state: graphOf({ s: S, f: { name: 'Boom', code: 'throw new Error("child broke")' } }, [['s', 'f']]) } });
    const state = graphOf(
      { s: S, w: { type: 'workflow', name: 'Workflow 1', values: { workflowId: 'wf-child' } }, h: { name: 'Handler', code: 'return <workflow1.error>' } },
      [['s', 'w'], ['w', 'h', 'error']],
    );
    const handled = await h.run(state);
    expect(handled.error).toBeUndefined();
    expect(handled.output).toEqual({ result: 'Boom: Line 1:1 - child broke', stdout: '' });
    expect(handled.logs.find((l) => l.blockId === 'w')).toMatchObject({ success: false, error: 'Boom: Line 1:1 - child broke' });

    const unhandled = await h.run({ ...state, edges: state.edges.filter((e) => e.target === 'w') });
    expect(unhandled).toMatchObject({ success: false, error: 'Workflow 1: Boom: Line 1:1 - child broke' });
  });

  it('workflow block: a cycle (A runs B runs A) is refused before it starts', async () => {
    const runs = (target: string) => graphOf({ s: S, w: { type: 'workflow', name: 'Call', values: { workflowId: target } } }, [['s', 'w']]);
    h.setChildWorkflows({ 'wf-b': { name: 'B', state: runs('wf-main') } });
    const result = await h.run(runs('wf-b'));
    expect(result.success).toBe(false);
    expect(result.error).toBe('Call: Workflow cycle refused: wf-main → wf-b → wf-main');
    // Refused before the child starts: only the top-level run started.
    expect(h.rec.events.filter((e) => e.type === 'runStarted')).toHaveLength(1);

    // Started the way the API, a rerun and a schedule start it (its own id as the chain), the path
    // names each workflow once — not 'wf-main → wf-main → wf-b → wf-main'.
    h.reset();
    h.setChildWorkflows({ 'wf-b': { name: 'B', state: runs('wf-main') } });
    expect(await h.run(runs('wf-b'), { callChain: ['wf-main'] })).toMatchObject({ success: false, error: 'Call: Workflow cycle refused: wf-main → wf-b → wf-main' });
    // A child given the chain above it with its own id last refuses a way back as the top level does.
    h.reset();
    h.setChildWorkflows({ 'wf-main': { name: 'Main', state: runs('wf-b') } });
    expect(await h.run(runs('wf-main'), { workflowId: 'wf-b', callChain: ['wf-main', 'wf-b'], depth: 1, nestingChecked: true })).toMatchObject({
      success: false,
      error: 'Call: Workflow cycle refused: wf-main → wf-b → wf-main',
    });

    // A cycle further down (main → b → c → b) is refused before b starts, too.
    h.reset();
    h.setChildWorkflows({ 'wf-b': { name: 'B', state: runs('wf-c') }, 'wf-c': { name: 'C', state: runs('wf-b') } });
    const deeper = await h.run(runs('wf-b'));
    expect(deeper).toMatchObject({ success: false, error: 'Call: Workflow cycle refused: wf-main → wf-b → wf-c → wf-b' });
    expect(h.rec.events.filter((e) => e.type === 'runStarted')).toHaveLength(1);
  });

  it('workflow block: nesting deeper than 10 levels is refused', async () => {
    const state = graphOf({ s: S, w: { type: 'workflow', name: 'Call', values: { workflowId: 'wf-x' } } }, [['s', 'w']]);
    const result = await h.run(state, { depth: 10, callChain: ['a', 'b'] });
    expect(result).toMatchObject({ success: false, error: 'Call: Workflow nesting deeper than 10 levels refused' });

    // A chain 11 levels deep is refused before the first child starts; one 10 levels deep runs.
    const chainOf = (n: number) => {
      const children: Record<string, { name: string; state: ReturnType<typeof graphOf> }> = {};
      for (let i = 1; i <= n; i++) {
        const last = i === n;
        children[`wf-${i}`] = {
          name: `W${i}`,
          state: last ? graphOf({ s: S, f: { name: 'Leaf', code: 'return "leaf"' } }, [['s', 'f']]) : graphOf({ s: S, w: { type: 'workflow', name: 'Call', values: { workflowId: `wf-${i + 1}` } } }, [['s', 'w']]),
        };
      }
      return children;
    };
    const top = graphOf({ s: S, w: { type: 'workflow', name: 'Call', values: { workflowId: 'wf-1' } } }, [['s', 'w']]);
    h.reset();
    h.setChildWorkflows(chainOf(11));
    const tooDeep = await h.run(top);
    expect(tooDeep.success).toBe(false);
    expect(tooDeep.error).toMatch(/^Call: Workflow nesting deeper than 10 levels refused: wf-main → wf-1 → .* → wf-11$/);
    expect(h.rec.events.filter((e) => e.type === 'runStarted')).toHaveLength(1);

    h.reset();
    h.setChildWorkflows(chainOf(10));
    const deepest = await h.run(top);
    expect(deepest.error).toBeUndefined();
    expect(h.rec.events.filter((e) => e.type === 'runStarted')).toHaveLength(11);
    expect(JSON.stringify(deepest.output)).toContain('"result":"leaf"');
  }, 120_000);

  it('<variable.name> reads a workflow variable typed by its type', async () => {
    const state = graphOf({ s: S, f: { code: 'return [<variable.limit> + 1, <variable.on> === true, <variable.cfg>.a]' } }, [['s', 'f']], {
      variables: {
        v1: { id: 'v1', name: 'limit', type: 'number', value: '41' },
        v2: { id: 'v2', name: 'on', type: 'boolean', value: 'true' },
        v3: { id: 'v3', name: 'cfg', type: 'object', value: '{"a": "x"}' },
      },
    });
    const result = await h.run(state);
    expect(result.output).toEqual({ result: [42, true, 'x'], stdout: '' });
  });

  it('keeps outputs over 256 KB out of the history: stored as a blob, read back by references', async () => {
    const state = graphOf(
      { s: S, big: { name: 'Big', code: 'return "x".repeat(300 * 1024)' }, len: { name: 'Len', code: 'return <big.result>.length' } },
      [['s', 'big'], ['big', 'len']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    expect(result.output).toEqual({ result: 300 * 1024, stdout: '' });
    const bigLog = result.logs.find((l) => l.blockId === 'big');
    expect(bigLog?.output).toMatchObject({ $blobRef: expect.any(String) });
    expect(h.rec.blobs.size).toBeGreaterThan(0);
    const completed = h.rec.events.find((e) => e.type === 'blockCompleted' && e.log.blockId === 'big');
    expect(JSON.stringify(completed).length).toBeLessThan(10_000);
  });

  it("a condition's content after a block whose output was kept aside (over 256 KB) is that output's text, not its reference (patch condition-content-blob)", async () => {
    // The tool runtime kept the long answer aside and answered its reference (the stand-in value is short, to keep the stored history small).
    const answer = { data: { message: 'a long page' }, status: 200, headers: {} };
    h.rec.blobs.set('tool-output/1', answer);
    h.setTools(() => ({ success: true, output: { $blobRef: 'tool-output/1', bytes: 300 * 1024 }, timing }));
    const conditions = JSON.stringify([{ id: 'c1', title: 'if', value: 'true' }]);
    const state = graphOf(
      {
        s: S,
        api: { type: 'api', name: 'API', values: { url: 'https://pages.example/long', method: 'GET' } },
        c: { type: 'condition', name: 'Check', values: { conditions } },
        after: { name: 'After', code: 'return <check.content>' },
      },
      [['s', 'api'], ['api', 'c'], ['c', 'after', 'condition-c1']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    // condition-content-blob.json was recorded by the code before the patch (content: the reference's JSON); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'condition-content-blob');
    expect(result.output).toEqual({ result: JSON.stringify(answer), stdout: '' });
    expect(patchesOf(await handle.fetchHistory())).toContain('condition-content-blob');
  });

  it('rerun from a block: blocks before it take their earlier outputs without running; it and what follows run', async () => {
    const state = graphOf(
      { s: S, a: { name: 'A', code: 'return 1' }, b: { name: 'B', code: 'return <a.result> + 100' }, c: { name: 'C', code: 'return <b.result> + 1' } },
      [['s', 'a'], ['a', 'b'], ['b', 'c']],
    );
    const handle = await h.start(state, { rerun: { fromBlockId: 'b', outputs: { s: { input: { x: 1 } }, a: { result: 5, stdout: '' }, b: { result: 0, stdout: '' } } } });
    const result = await handle.result();
    expect(result.output).toEqual({ result: 106, stdout: '' });
    expect(h.rec.functionCalls.map((c) => c.code)).toEqual(['return params["<a.result>"] + 100', 'return params["<b.result>"] + 1']);
    expect(result.logs.filter((l) => l.reused).map((l) => l.blockId)).toEqual(['s', 'a']);
    await h.keepHistory(handle, 'rerun');
  });

  it('a cancelled run ends at once with its partial logs and cancelled set', async () => {
    const state = graphOf({ s: S, a: { name: 'A', code: 'return 1' }, slow: { name: 'Slow', code: '// started:slow\n// sleep:120000\nreturn 1' } }, [['s', 'a'], ['a', 'slow']]);
    const handle = await h.start(state);
    await expect.poll(() => h.rec.started.includes('slow'), { timeout: 20_000 }).toBe(true);
    await handle.cancel();
    const result = await handle.result();
    await h.keepHistory(handle, 'cancelled');
    expect(result).toMatchObject({ success: false, cancelled: true, error: 'Run cancelled' });
    // The block in flight is logged cancelled (not failed); what finished before keeps its log.
    expect(result.logs.map((l) => [l.blockId, l.success, l.cancelled ?? false])).toEqual([
      ['s', true, false],
      ['a', true, false],
      ['slow', false, true],
    ]);
    expect(result.logs.find((l) => l.blockId === 'a')?.output).toEqual({ result: 1, stdout: '' });
    expect(result.logs.find((l) => l.blockId === 'slow')).not.toHaveProperty('error');
    expect(h.rec.events.filter((e) => e.type === 'blockError').map((e) => e.type === 'blockError' && [e.log.blockId, e.log.cancelled])).toEqual([['slow', true]]);
    // This harness's sink may hand the last activation's events over after the end's local activity recorded it (the runner's sink writes them first).
    expect(h.rec.events.filter((e) => e.type === 'runCompleted')).toEqual([expect.objectContaining({ result: expect.objectContaining({ cancelled: true }) })]);
  });
});

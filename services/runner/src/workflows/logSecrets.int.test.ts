import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, type EngineHarness } from '../testing/engineHarness.js';
import { SECRET_MASK } from './engine/logMasking.js';
import type { RunResult } from './types.js';

const S = { type: 'starter', name: 'Start' };
const timing = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 };
const secret = (label: string) => `${label}-${randomBytes(10).toString('hex')}`;

describe('secrets never show in the run log (issues 10/11): password fields, environment values in child inputs, loop items and outputs', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  /**
   * Everything a run leaves to be read: its result (logs, error, output) and every event recorded or
   * streamed, but for the state a run's start event keeps for reruns (the workflow as saved, whose
   * password fields hold what was typed, as the editor's copy does).
   */
  const logged = (result: RunResult) =>
    JSON.stringify({ logs: result.logs, error: result.error, output: result.output, events: h.rec.events.map((e) => (e.type === 'runStarted' ? { ...e, state: undefined } : e)) });

  it('a password field typed in directly shows as [REDACTED] in the log; the tool gets the value; a {{KEY}} password shows as written', async () => {
    const typed = secret('serper-typed');
    const fromEnv = secret('serper-env');
    h.setEnvironment({ SERPER_KEY: fromEnv });
    h.setTools(() => ({ success: true, output: { searchResults: [] }, timing }));
    const state = graphOf(
      {
        s: S,
        a: { type: 'serper', name: 'Typed', values: { query: 'weft', apiKey: typed } },
        b: { type: 'serper', name: 'From env', values: { query: 'weft', apiKey: '{{SERPER_KEY}}' } },
      },
      [['s', 'a'], ['a', 'b']],
    );
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    expect(h.rec.toolCalls.map((c) => c.params.apiKey)).toEqual([typed, fromEnv]);
    const inputs = Object.fromEntries(result.logs.map((l) => [l.blockId, l.input]));
    expect(inputs.a).toMatchObject({ toolId: 'serper_search', params: { query: 'weft', apiKey: SECRET_MASK } });
    expect(inputs.b).toMatchObject({ params: { apiKey: '{{SERPER_KEY}}' } });
    const text = logged(result);
    expect(text).not.toContain(typed);
    expect(text).not.toContain(fromEnv);
  });

  it('an error quoting a typed key shows [REDACTED] in the log, each try and the run error, whether answered or thrown after retries', async () => {
    const typed = secret('serper-bad');
    h.setTools((input, attempt) => {
      if (input.params.query === 'answered') return { success: false, output: {}, error: `Invalid API key ${String(input.params.apiKey)}`, timing };
      if (attempt < 2) throw ApplicationFailure.retryable(`HTTP error 503 for key ${String(input.params.apiKey)}`);
      throw ApplicationFailure.nonRetryable(`HTTP error 401 for key ${String(input.params.apiKey)}`);
    });
    for (const query of ['answered', 'thrown']) {
      h.reset();
      const result = await h.run(graphOf({ s: S, a: { type: 'serper', name: 'Search', values: { query, apiKey: typed } } }, [['s', 'a']]));
      expect(result.success).toBe(false);
      expect(h.rec.toolCalls[0]?.params.apiKey).toBe(typed);
      expect(result.error).toContain(SECRET_MASK);
      const log = result.logs.find((l) => l.blockId === 'a');
      expect(log?.error).toContain(SECRET_MASK);
      if (query === 'thrown') expect(log?.attemptLog?.map((t) => t.error)).toEqual([`HTTP error 503 for key ${SECRET_MASK}`, `HTTP error 401 for key ${SECRET_MASK}`]);
      expect(logged(result)).not.toContain(typed);
    }
  });

  it("a webhook's secret in the trigger's input (its Authorization header) shows [REDACTED] in every log; the blocks read it", async () => {
    const hookSecret = secret('whsec');
    const state = graphOf(
      {
        s: { type: 'starter', name: 'Start', values: { startWorkflow: 'webhook', webhookPath: 'hook', webhookSecret: hookSecret } },
        f: { name: 'Auth', code: 'return { auth: <start.input.headers.authorization>, len: <start.input.headers.authorization>.length }' },
      },
      [['s', 'f']],
    );
    const result = await h.run(state, { input: { method: 'POST', headers: { authorization: `Bearer ${hookSecret}` }, body: {} }, trigger: 'webhook' });
    expect(result.error).toBeUndefined();
    expect(result.logs.find((l) => l.blockId === 'f')?.output).toMatchObject({ result: { auth: `Bearer ${SECRET_MASK}`, len: `Bearer ${hookSecret}`.length } });
    expect(result.logs.find((l) => l.blockId === 's')?.input).toMatchObject({ headers: { authorization: `Bearer ${SECRET_MASK}` } });
    // The run's output is its answer (not masked); the logs and events are.
    expect(JSON.stringify({ logs: result.logs, error: result.error, events: h.rec.events.filter((e) => e.type !== 'runStarted' && e.type !== 'runCompleted') })).not.toContain(hookSecret);
  });

  it("an agent's own API key and its tools' typed keys are masked in its log; the model call gets the key", async () => {
    const agentKey = secret('sk-agent');
    const toolKey = secret('tool-key');
    h.setModel(() => 'done');
    const state = graphOf(
      {
        s: S,
        a: {
          type: 'agent',
          name: 'Agent',
          values: { model: 'gpt-4o', userPrompt: 'hi', apiKey: agentKey, tools: [{ type: 'serper', title: 'Search', params: { apiKey: toolKey, query: '' } }] },
        },
      },
      [['s', 'a']],
    );
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    expect(h.rec.modelCalls[0]?.apiKey).toBe(agentKey);
    const input = result.logs.find((l) => l.blockId === 'a')?.input;
    expect(input).toMatchObject({ apiKey: SECRET_MASK, tools: [{ type: 'serper', params: { apiKey: SECRET_MASK } }] });
    const text = logged(result);
    expect(text).not.toContain(agentKey);
    expect(text).not.toContain(toolKey);
  });

  it("a workflow block's child input with {{KEY}}: the child computes with the value, its record, starter log and outputs show {{KEY}}", async () => {
    const value = secret('child-token');
    h.setEnvironment({ CHILD_TOKEN: value });
    h.setChildWorkflows({
      'wf-child': { name: 'Child', state: graphOf({ s: S, f: { name: 'Measure', code: 'return <start.input.token>.length' } }, [['s', 'f']]) },
    });
    const state = graphOf({ s: S, w: { type: 'workflow', name: 'Run child', values: { workflowId: 'wf-child', input: { token: '{{CHILD_TOKEN}}' } } } }, [['s', 'w']]);
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    // The child ran with the real value (its function got it and measured it).
    expect(h.rec.functionCalls[0]?.params['<start.input.token>']).toBe(value);
    expect(result.output).toMatchObject({ success: true, result: { result: value.length } });
    // The child's run record (its runStarted) and its starter's log.
    const childStart = h.rec.events.find((e) => e.type === 'runStarted' && e.workflowId === 'wf-child');
    expect(childStart).toMatchObject({ input: { token: '{{CHILD_TOKEN}}' } });
    const childStarter = h.rec.events.flatMap((e) => (e.type === 'blockCompleted' && e.executionId === childStart?.executionId && e.log.blockType === 'starter' ? [e.log] : []));
    expect(childStarter[0]).toMatchObject({ input: { token: '{{CHILD_TOKEN}}' }, output: { input: { token: '{{CHILD_TOKEN}}' } } });
    expect(result.logs.find((l) => l.blockId === 'w')?.input).toMatchObject({ input: { token: '{{CHILD_TOKEN}}' } });
    expect(logged(result)).not.toContain(value);
  });

  it('a forEach over {{KEY}} items logs the collection and the body as {{KEY}}; the body reads the value', async () => {
    const value = secret('loop-item');
    h.setEnvironment({ ITEM_KEY: value });
    const state = graphOf(
      {
        s: S,
        loop: { type: 'loop', name: 'Loop', data: { loopType: 'forEach', collection: '["{{ITEM_KEY}}", "plain"]' } },
        f: { name: 'Body', parent: 'loop', code: 'return <loop.currentItem>' },
        after: { name: 'After', code: 'return "done"' },
      },
      [['s', 'loop'], ['loop', 'f', 'loop-start-source'], ['loop', 'after', 'loop-end-source']],
    );
    const result = await h.run(state);
    expect(result.error).toBeUndefined();
    expect(h.rec.functionCalls.slice(0, 2).map((c) => c.params['<loop.currentItem>'])).toEqual([value, 'plain']);
    expect(result.logs.find((l) => l.blockId === 'loop')?.input).toEqual({ count: 2, items: ['{{ITEM_KEY}}', 'plain'] });
    expect(result.logs.find((l) => l.blockId === 'f' && l.loopIteration?.[0] === 0)?.output).toMatchObject({ result: '{{ITEM_KEY}}' });
    expect(logged(result)).not.toContain(value);
  });

  it("an error text quoting an environment value shows {{KEY}} in the block's log and the run's error", async () => {
    const value = secret('err-key');
    h.setEnvironment({ ERR_KEY: value });
    const state = graphOf({ s: S, f: { name: 'Boom', code: 'throw new Error("bad key " + "{{ERR_KEY}}")' } }, [['s', 'f']]);
    const result = await h.run(state);
    expect(result.success).toBe(false);
    expect(result.error).toBe('Boom: Line 1:1 - bad key {{ERR_KEY}}');
    expect(h.rec.functionCalls[0]?.envVars).toEqual({ ERR_KEY: value });
    expect(logged(result)).not.toContain(value);
  });
});

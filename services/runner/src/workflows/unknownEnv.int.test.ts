import { fileURLToPath } from 'node:url';
import { keepHistory } from '@weft/testkit/histories';
import { afterAll, describe, expect, it } from 'vitest';
import { graphOf, historiesDir, ran, workflowBundle } from '../testing/engineHarness.js';
import { patchHarnesses } from '../testing/patchHarness.js';
import { patchStubs, replayOutcome } from '../testing/patchStub.js';
import { patchesOf } from '../testing/patches.js';
import { UNKNOWN_ENV_PATCH } from './engine/unknownEnvPatch.js';

/**
 * A `{{KEY}}` whose key is a well-formed name the run's environment lacks fails its block before any
 * call, naming the key and the field (patch unknown-env-var): a typo no longer reaches a model, an API
 * or the sandbox as the literal text. Other `{{…}}` text stays as written.
 */
const S = { type: 'starter', name: 'Start' };
const stubs = patchStubs(fileURLToPath(new URL('./engine/unknownEnvPatch.ts', import.meta.url)), UNKNOWN_ENV_PATCH, 'UNKNOWN_ENV_PATCH', 'unknownEnvPatched');

/** Greet reads {{GREETING}} (not defined) in a string. */
const typoState = graphOf({ s: S, greet: { name: 'Greet', code: "return 'Hello {{GREETING}}'" } }, [['s', 'greet']]);

const { h, historyBefore } = patchHarnesses();
afterAll(() => {
  stubs.close();
});

describe('unknown environment variables (real Temporal server, fake activities)', () => {
  it('function code reading an unknown key, in a string or outside one, fails naming the key and Code, before any sandbox call', async () => {
    h().setEnvironment({ GREETNG: 'hi' });
    for (const code of ["return 'Hello {{GREETING}}'", 'return {{GREETING}}', 'return `${1} {{GREETING}}`']) {
      const handle = await h().start(graphOf({ s: S, fn: { name: 'Fn', code } }, [['s', 'fn']]));
      const result = await handle.result();
      expect(result).toMatchObject({ success: false, error: 'Fn: Environment variable "GREETING" was not found in Code (code)' });
      expect(result.logs.find((l) => l.blockId === 'fn')).toMatchObject({ success: false, error: 'Environment variable "GREETING" was not found in Code (code)' });
      expect(patchesOf(await handle.fetchHistory())).toContain(UNKNOWN_ENV_PATCH);
    }
    expect(h().rec.functionCalls).toEqual([]);
  });

  it("an agent's system prompt reading an unknown key fails naming System Prompt, before any model call", async () => {
    h().setEnvironment({ OPENAI_KEY: 'sk-test' });
    const state = graphOf(
      { s: S, a: { type: 'agent', name: 'Agent 1', values: { model: 'gpt-4o', systemPrompt: 'Say {{GREETING}} first.', userPrompt: 'hi', apiKey: '{{OPENAI_KEY}}' } } },
      [['s', 'a']],
    );
    const result = await h().run(state);
    expect(result).toMatchObject({ success: false, error: 'Agent 1: Environment variable "GREETING" was not found in System Prompt (systemPrompt)' });
    expect(h().rec.modelCalls).toEqual([]);
  });

  it("an API block's header reading an unknown key fails naming Headers, before the request; the log shows no environment value", async () => {
    h().setEnvironment({ TOKEN: 't-secret-1' });
    h().setTools(() => ({ success: true, output: { data: 'sent', status: 200, headers: {} }, timing: { startTime: '', endTime: '', duration: 0 } }));
    const headers = [
      { id: 'h1', cells: { Key: 'Authorization', Value: 'Bearer {{TOKEN}}' } },
      { id: 'h2', cells: { Key: 'X-Greeting', Value: '{{GREETING}}' } },
    ];
    const result = await h().run(graphOf({ s: S, api: { type: 'api', name: 'API 1', values: { url: 'http://127.0.0.1:9/x', method: 'GET', headers } } }, [['s', 'api']]));
    expect(result).toMatchObject({ success: false, error: 'API 1: Environment variable "GREETING" was not found in Headers (headers)' });
    expect(h().rec.toolCalls).toEqual([]);
    expect(JSON.stringify(result.logs)).not.toContain('t-secret-1');
  });

  it('text that is no well-formed key ({{ }}, {{a b}}, {{a-b}}, {{x.y}}, {{1X}}) stays as written; known keys resolve; no patch asked', async () => {
    h().setEnvironment({ NAME: 'Ada' });
    const code = "return ['{{NAME}}', '{{ }}', '{{a b}}', '{{a-b}}', '{{x.y}}', '{{1X}}'].join('|')";
    h().setTools((input) => ({ success: true, output: { data: input.params.url, status: 200, headers: {} }, timing: { startTime: '', endTime: '', duration: 0 } }));
    const handle = await h().start(graphOf({ s: S, fn: { name: 'Fn', code }, api: { type: 'api', name: 'API 1', values: { url: 'http://127.0.0.1:9/{{a-b}}', method: 'GET' } } }, [['s', 'fn'], ['fn', 'api']]));
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    expect(result.logs.find((l) => l.blockId === 'fn')?.output).toEqual({ result: 'Ada|{{ }}|{{a b}}|{{a-b}}|{{x.y}}|{{1X}}', stdout: '' });
    expect(result.output).toMatchObject({ data: 'http://127.0.0.1:9/{{a-b}}' });
    expect(patchesOf(await handle.fetchHistory())).not.toContain(UNKNOWN_ENV_PATCH);
  });

  it("a run of the code before patch unknown-env-var (the literal {{GREETING}} ran) replays with today's code, and would not with the patch unguarded", async () => {
    const history = await historyBefore(await stubs.bundleWith(false), async (before) => {
      const handle = await before.start(typoState);
      const result = await handle.result();
      // The old code: Greet ran with the literal text and succeeded.
      expect(result.success).toBe(true);
      expect(ran(result)).toEqual(['s', 'greet']);
      expect(result.output).toEqual({ result: 'Hello {{GREETING}}', stdout: '' });
      await keepHistory(handle, historiesDir, 'unknown-env-var');
      return handle.fetchHistory();
    });
    expect(patchesOf(history)).not.toContain(UNKNOWN_ENV_PATCH);
    expect(await replayOutcome(await workflowBundle(), history, 'unknown-env-var')).toBeUndefined();
    // Unguarded, today's code fails Greet before its sandbox call: no activity where the old run scheduled one.
    expect((await replayOutcome(await stubs.bundleWith(true), history, 'unknown-env-var'))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);

    const handle = await h().start(typoState);
    const result = await handle.result();
    expect(result).toMatchObject({ success: false, error: 'Greet: Environment variable "GREETING" was not found in Code (code)' });
    expect(ran(result)).toEqual(['s', 'greet']);
    expect(h().rec.functionCalls).toEqual([]);
    expect(patchesOf(await handle.fetchHistory())).toContain(UNKNOWN_ENV_PATCH);
    await h().keepHistory(handle, 'unknown-env-var.fails');
  }, 240_000);
});

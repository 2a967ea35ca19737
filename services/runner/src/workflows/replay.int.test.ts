import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { Runtime } from '@temporalio/worker';
import { listBlocks } from '@weft/catalog';
import { createLogger, temporalLogger } from '@weft/platform';
import { forEachObject, historyPayloads, replayFailures, storedHistories, type StoredHistory } from '@weft/testkit/histories';
import { beforeAll, describe, expect, it } from 'vitest';
import { historiesDir, workflowBundle } from '../testing/engineHarness.js';
import { unguardedBundle } from '../testing/patchStub.js';
import { blockKind, CONTROL_BLOCK_TYPES } from './engine/blocks.js';
import { MODEL_BLOCK_TYPES } from './models/index.js';

/**
 * Histories recorded from the engine's workflow-level tests (WEFT_WRITE_HISTORIES=1 while running
 * graphRules/blocks/containers.int.test.ts and models/modelBlocks.int.test.ts writes them). Replaying
 * them with today's workflow code fails when a change to that code is not deterministic: such a
 * change needs a patch() guard, or the histories recorded anew when no run of the old code can still be open.
 */
const EXPECTED = [
  'function-response',
  'diamond',
  'condition',
  'error-edge',
  'response',
  'router',
  'agent',
  'api-tool',
  'tool-retries',
  'child-workflow',
  'rerun',
  'cancelled',
  'loop-for',
  'loop-in-loop',
  'parallel-count',
  'parallel-error',
  'nested',
  'trigger-entry',
  'evaluator',
  'translate-vision-huggingface',
  'embeddings-images',
  'api-start',
  'model-retries',
  'loop-error',
  'api-error-answer',
  'api-error-answer.answer',
  'code-string-reference',
  'code-string-reference.text',
  'secret-forms',
  'secret-forms.forms',
  'inline-bytes',
  'inline-bytes.budget',
  'rerun-reuse',
  'rerun-reuse.reused',
  'workflow-failure-output',
  'workflow-failure-output.kept',
  'workflow-depth-rechecked',
  'workflow-depth-rechecked.rechecked',
  'condition-content-blob',
  'condition-content-blob.loaded',
  'retries-reference',
  'retries-reference.resolved',
  'secret-overlap',
  'secret-overlap.whole',
  'agent-max-tokens',
  'agent-max-tokens.checked',
  'response-interim-status',
  'response-interim-status.checked',
  'function-timeout',
  'function-timeout.checked',
  'chat-starter',
  'chat-starter.message',
  'own-block-ids',
  'own-block-ids.own',
  'unknown-env-var',
  'unknown-env-var.fails',
  'own-value-paths',
  'own-value-paths.own',
];

/**
 * Pairs of histories around a patch: `<name>.json` recorded by the code before it, `<name>.<suffix>.json`
 * with it, and what each recorded run did differently (the test beside each names it). `unguarded`:
 * why the run recorded before replays even with the change unguarded, and where the guard is shown to
 * matter instead; without it, that run fails to replay unguarded (the test below).
 */
const PATCH_PAIRS: ReadonlyArray<{ name: string; suffix: string; patches: string[]; before: string; unguarded?: string }> = [
  { name: 'rerun-reuse', suffix: 'reused', patches: ['rerun-body-outputs', 'rerun-error-outputs'], before: 'the failed API block ran again and After failed: <work.result> had not run (rerun.int.test.ts)' },
  {
    name: 'workflow-failure-output',
    suffix: 'kept',
    patches: ['workflow-failure-output'],
    before: 'the failed workflow block gave {error} only (workflowBlock.int.test.ts)',
    unguarded: 'the kept output changes what Handler is given, not which commands the run makes: the guard keeps the output of a run open across the deploy as it began',
  },
  { name: 'workflow-depth-rechecked', suffix: 'rechecked', patches: ['workflow-depth-rechecked'], before: 'ten nested runs started before the 11th level was refused (workflowBlock.int.test.ts)' },
  { name: 'condition-content-blob', suffix: 'loaded', patches: ['condition-content-blob'], before: "the condition's content was the reference's JSON, no loadBlob (blocks.int.test.ts)" },
  { name: 'retries-reference', suffix: 'resolved', patches: ['retries-reference'], before: 'a reference in the retry setting meant 3 tries (blocks.int.test.ts)' },
  {
    name: 'secret-overlap',
    suffix: 'whole',
    patches: ['secret-overlap'],
    before: 'the failed API block\'s {error} showed abcdef{{KEY_B}} (blocks.int.test.ts)',
    unguarded: 'the masks change the error text only; secretOverlapPatch.int.test.ts shows a run whose commands they decide (a 256 KB error kept aside or not) failing unguarded',
  },
  { name: 'agent-max-tokens', suffix: 'checked', patches: ['agent-params-checked'], before: 'the agent with Max Tokens "lots" called the model, the value dropped (blocks.int.test.ts)' },
  // Unguarded, today's code would fail the Response and run its error path (an activity) where the old run answered 150 and ended.
  { name: 'response-interim-status', suffix: 'checked', patches: ['response-status-interim'], before: 'the Response answered with status 150, its error handler never ran (responseStatus.int.test.ts)' },
  // Unguarded, today's code would fail the function before its sandbox call: an activity the old run scheduled.
  { name: 'function-timeout', suffix: 'checked', patches: ['function-timeout-checked'], before: 'the function ran with a 400000 ms timeout (functionTimeout.int.test.ts)' },
  // Unguarded, today's code would loop over the message's three items where the old run looped once, over the input's one entry.
  { name: 'chat-starter', suffix: 'message', patches: ['chat-starter-message'], before: "a chat-mode starter's <start.input> was the run input {input: message} (chatStarter.int.test.ts)" },
  // Unguarded, today's code would load the kept-aside body for the condition: an activity the old run never scheduled.
  { name: 'api-error-answer', suffix: 'answer', patches: ['http-error-answer'], before: 'the failed API request gave {error} only (blocks.int.test.ts)' },
  // Unguarded, today's code would run the block (an activity) where the old run failed it and answered with the Response.
  { name: 'code-string-reference', suffix: 'text', patches: ['code-string-reference-as-text'], before: 'code failed for text like <java.lang.String> in a string (graphRules.int.test.ts)' },
  {
    name: 'secret-forms',
    suffix: 'forms',
    patches: ['secret-forms'],
    before: "the failed API block's {error} showed the percent-encoded environment value (blocks.int.test.ts)",
    unguarded: 'the condition ran as an activity and the masks change the error text only; secretFormsPatch.int.test.ts shows a run whose commands they decide (a 256 KB error kept aside or not) failing unguarded',
  },
  // Unguarded, today's code would keep the loop's results aside once the (lowered) budget is spent: a storeBlob the old run never scheduled.
  { name: 'inline-bytes', suffix: 'budget', patches: ['inline-bytes'], before: "a loop's second 9 KB output and its results stayed inline past a spent budget (inlineBudget.int.test.ts)" },
  // Unguarded, today's code would run Fn (an activity) and fail Vars before its sandbox call: other commands than the old run made.
  { name: 'own-block-ids', suffix: 'own', patches: ['own-block-ids'], before: 'dangling edges from constructor and toString held Fn (it never ran) and <variable.constructor> read as empty (ownIds.int.test.ts)' },
  // Unguarded, today's code would fail Greet before its sandbox call: no activity where the old run scheduled one.
  { name: 'unknown-env-var', suffix: 'fails', patches: ['unknown-env-var'], before: 'function code reading {{GREETING}}, not defined, ran with the literal text and succeeded (unknownEnv.int.test.ts)' },
  // Unguarded, today's code would run the forEach empty and After (an activity) where the old run failed the loop: other commands.
  { name: 'own-value-paths', suffix: 'own', patches: ['own-value-paths'], before: "a forEach over <start.input.constructor> read Object's constructor and failed the run (ownIds.int.test.ts)" },
];

/** Each patch of a pair on its own, with the run recorded before it. */
const UNGUARDED = PATCH_PAIRS.flatMap((pair) => pair.patches.map((patch) => ({ ...pair, patch, outcome: pair.unguarded === undefined ? 'fails to replay' : 'replays all the same' })));

/**
 * What a history proves about a block type: the engine's way of running it (`blockKind`), each model
 * block type on its own (each has its own runner in the model layer).
 */
const coverageKey = (type: string): string => {
  const kind = blockKind(type);
  return kind === 'model' ? `model:${type}` : kind;
};

/** Block types a history ran: every block (an object with a string `type` and `subBlocks`) in its payloads, child workflows' included. */
function blockTypesIn(history: StoredHistory): Set<string> {
  const types = new Set<string>();
  forEachObject(historyPayloads(history.json), (record) => {
    if (typeof record.type === 'string' && record.subBlocks && typeof record.subBlocks === 'object') types.add(record.type);
  });
  return types;
}

/** A history recorded by the code before a patch (`<name>.json`) and one recorded with it (`<name>.<suffix>.json`). */
function storedPair(name: string, suffix: string): [StoredHistory, StoredHistory] {
  const byName = new Map(storedHistories(historiesDir).map((h) => [h.name, h]));
  const before = byName.get(name);
  const after = byName.get(`${name}.${suffix}`);
  if (!before || !after) throw new Error(`${name} histories missing`);
  return [before, after];
}

/** The patches a history recorded (its `core_patch` markers' ids). */
const patchIds = (h: StoredHistory): unknown[] => historyPayloads(h.json).flatMap((p) => (p !== null && typeof p === 'object' && 'id' in p && 'deprecated' in p ? [p.id] : []));

/** A block's output in the run's result (the history's last payload with logs). */
function blockOutput(h: StoredHistory, blockId: string): unknown {
  const results = historyPayloads(h.json).filter((p): p is { logs: Array<{ blockId: string; output?: unknown }> } => p !== null && typeof p === 'object' && 'logs' in p && Array.isArray(p.logs));
  return results.at(-1)?.logs.find((l) => l.blockId === blockId)?.output;
}

const replay = async (histories: StoredHistory[]) => replayFailures({ workflowBundle: await workflowBundle() }, histories);

describe('replay of recorded run histories', () => {
  beforeAll(() => {
    try {
      Runtime.install({ logger: temporalLogger(createLogger('temporal-replay', 'silent')), shutdownSignals: [] });
    } catch {
      // Installed already in this process.
    }
  });

  it('replays each history with the current workflow code', async () => {
    const histories = storedHistories(historiesDir);
    expect(histories.map((h) => h.name)).toEqual(expect.arrayContaining(EXPECTED));
    expect(await replay(histories)).toEqual([]);
  }, 120_000);

  it('covers every way the engine runs a block: each control and model block type of the engine and catalogue, a trigger and a tool block', () => {
    const covered = new Set(storedHistories(historiesDir).flatMap((h) => [...blockTypesIn(h)].map(coverageKey)));
    const kinds = new Set([...listBlocks().map((b) => b.type), ...CONTROL_BLOCK_TYPES, ...MODEL_BLOCK_TYPES].map(coverageKey));
    // A block type the engine runs in a way no stored history shows is listed here: record a history with it.
    expect([...kinds].filter((k) => !covered.has(k)).sort()).toEqual([]);
    expect([...kinds]).toEqual(expect.arrayContaining(['tool', 'trigger', 'model:agent', 'loop']));
  });

  it('a failed API request recorded before patch http-error-answer gave {error} only, no marker; one recorded with it its status too', () => {
    const [before, after] = storedPair('api-error-answer', 'answer');
    expect(patchIds(before)).not.toContain('http-error-answer');
    expect(blockOutput(before, 'api')).toEqual({ error: 'HTTP error 404: Not Found' });
    expect(patchIds(after)).toContain('http-error-answer');
    expect(blockOutput(after, 'api')).toMatchObject({ error: 'HTTP error 404: Not Found', status: 404 });
    // Replayed, guarded and unguarded, with PATCH_PAIRS below.
  });

  it('code failed for text like <java.lang.String> in a string before patch code-string-reference-as-text, and ran with it', () => {
    const [before, after] = storedPair('code-string-reference', 'text');
    expect(patchIds(before)).toContain('code-unknown-block-reference');
    expect(patchIds(before)).not.toContain('code-string-reference-as-text');
    expect(blockOutput(before, 'f')).toEqual({ error: 'Reference <java.lang.String> names no block' });
    expect(patchIds(after)).toContain('code-string-reference-as-text');
    expect(blockOutput(after, 'f')).toEqual({ result: 'List<java.lang.String>', stdout: '' });
    // Replayed, guarded and unguarded, with PATCH_PAIRS below.
  });

  it('a failed block whose error carried an environment value percent-encoded kept it before patch secret-forms (exact masks only), masked with it', () => {
    const [before, after] = storedPair('secret-forms', 'forms');
    expect(patchIds(before)).not.toContain('secret-forms');
    expect(blockOutput(before, 'api')).toEqual({ error: 'GET https://keys.example/x?key=Key%2FWith%2BSlash-9 failed: 401' });
    expect(patchIds(after)).toContain('secret-forms');
    expect(blockOutput(after, 'api')).toEqual({ error: 'GET https://keys.example/x?key={{API_KEY}} failed: 401' });
    // Replayed, guarded and unguarded, with PATCH_PAIRS below.
  });

  it.each(PATCH_PAIRS)('$name: the run recorded before patch $patches ($before) replays as it ran, beside one recorded with it', async ({ name, suffix, patches }) => {
    const [before, after] = storedPair(name, suffix);
    for (const id of patches) {
      expect(patchIds(before)).not.toContain(id);
      expect(patchIds(after)).toContain(id);
    }
    expect(await replay([before, after])).toEqual([]);
  }, 120_000);

  it.each(UNGUARDED)('$patch unguarded (answered true without a marker): the run recorded before it ($name) $outcome', async ({ name, suffix, patch, unguarded }) => {
    const [before] = storedPair(name, suffix);
    const failures = await replayFailures({ workflowBundle: await unguardedBundle([patch]) }, [before]);
    if (unguarded !== undefined) {
      expect(failures).toEqual([]);
      return;
    }
    // Today's code with the change unguarded takes another path through the old run: the guard is what lets it replay.
    expect(failures).toHaveLength(1);
    expect(failures[0]?.error).toMatch(/Nondeterminism|DeterminismViolation/i);
  }, 120_000);

  it('detects a run that would go differently: a history replayed with another graph fails as non-deterministic', async () => {
    const diamond = storedHistories(historiesDir).find((h) => h.name === 'diamond');
    if (!diamond) throw new Error('diamond history missing');
    // Rewrite the recorded start input: the arm blocks' edges removed, so the code schedules other work.
    const history = historyFromJSON(diamond.json);
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const payload = started?.input?.payloads?.[0];
    if (!payload?.data) throw new Error('diamond history has no start input');
    const args = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { state: { edges: Array<{ source: string; target: string }> } };
    args.state.edges = args.state.edges.filter((e) => e.source === 's' && e.target === 'a');
    payload.data = Buffer.from(JSON.stringify(args));
    const failures = await replay([{ name: 'diamond-altered', workflowId: diamond.workflowId, json: JSON.parse(historyToJSON(history)) as unknown }]);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.error).toMatch(/Nondeterminism|DeterminismViolation/i);
  }, 120_000);
});

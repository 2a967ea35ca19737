import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, type EngineHarness } from '../testing/engineHarness.js';
import { patchesOf } from '../testing/patches.js';
import type { RunnableState } from './types.js';

const S = { type: 'starter', name: 'Start' };
/** A workflow whose only block after the starter runs the workflow `target`. */
const calls = (...targets: string[]): RunnableState =>
  graphOf(
    { s: S, ...Object.fromEntries(targets.map((t, i) => [`w${i}`, { type: 'workflow', name: `Call ${t}`, values: { workflowId: t } }])) },
    targets.map((_, i) => ['s', `w${i}`] as [string, string]),
  );
const leaf = (): RunnableState => graphOf({ s: S, f: { name: 'Leaf', code: 'return "leaf"' } }, [['s', 'f']]);

describe('workflow block (real Temporal server, fake activities)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it('a failed child keeps the output {success, childWorkflowName, result, error} on the error path and in the log (patch workflow-failure-output)', async () => {
    h.setChildWorkflows({
      'wf-child': { name: 'Child', state: graphOf({ s: S, a: { name: 'Partial', code: 'return "half done"' }, b: { name: 'Boom', code: 'throw new Error("child broke")' } }, [['s', 'a'], ['a', 'b']]) },
    });
    const state = graphOf(
      { s: S, w: { type: 'workflow', name: 'Workflow 1', values: { workflowId: 'wf-child' } }, h: { name: 'Handler', code: 'return [<workflow1.success>, <workflow1.childWorkflowName>, <workflow1.result>, <workflow1.error>]' } },
      [['s', 'w'], ['w', 'h', 'error']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    // workflow-failure-output.json was recorded by the code before the patch (output {error} only: Handler failed reading <workflow1.success>); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'workflow-failure-output');
    expect(result.error).toBeUndefined();
    const error = 'Boom: Line 1:1 - child broke';
    expect(result.output).toEqual({ result: [false, 'Child', { result: 'half done', stdout: '' }, error], stdout: '' });
    expect(result.logs.find((l) => l.blockId === 'w')).toMatchObject({ success: false, error, output: { success: false, childWorkflowName: 'Child', result: { result: 'half done', stdout: '' }, error } });
    expect(patchesOf(await handle.fetchHistory())).toContain('workflow-failure-output');
  });

  it('a workflow met again deeper on a longer path is looked through again: a diamond whose long arm ends deeper than 10 levels is refused before any child starts (patch workflow-depth-rechecked)', async () => {
    // Main calls D, which calls A and B. A calls W at depth 3; B reaches W at depth 9 through C3..C8; W calls X calls Y: Y is at depth 11 on B's arm.
    const children: Record<string, { name: string; state: RunnableState }> = {
      'wf-d': { name: 'D', state: calls('wf-a', 'wf-b') },
      'wf-a': { name: 'A', state: calls('wf-w') },
      'wf-b': { name: 'B', state: calls('wf-c3') },
      'wf-w': { name: 'W', state: calls('wf-x') },
      'wf-x': { name: 'X', state: calls('wf-y') },
      'wf-y': { name: 'Y', state: leaf() },
    };
    for (let i = 3; i <= 8; i++) children[`wf-c${i}`] = { name: `C${i}`, state: calls(i === 8 ? 'wf-w' : `wf-c${i + 1}`) };
    h.setChildWorkflows(children);
    const handle = await h.start(calls('wf-d'));
    const result = await handle.result();
    // workflow-depth-rechecked.json was recorded by the code before the patch (W skipped on the long arm: ten nested runs, then the 11th level refused); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'workflow-depth-rechecked');
    expect(result.success).toBe(false);
    expect(result.error).toBe('Call wf-d: Workflow nesting deeper than 10 levels refused: wf-main → wf-d → wf-b → wf-c3 → wf-c4 → wf-c5 → wf-c6 → wf-c7 → wf-c8 → wf-w → wf-x → wf-y');
    // Refused before the first child starts: only the top-level run started.
    expect(h.rec.events.filter((e) => e.type === 'runStarted')).toHaveLength(1);
    expect(patchesOf(await handle.fetchHistory())).toContain('workflow-depth-rechecked');

    // The same diamond with X calling nothing: W at 9 and X at 10 on the long arm are within the limit and run.
    h.reset();
    h.setChildWorkflows({ ...children, 'wf-x': { name: 'X', state: leaf() } });
    const fits = await h.run(calls('wf-d'));
    expect(fits.error).toBeUndefined();
    // main, D, A → W → X, and B → C3..C8 → W → X.
    expect(h.rec.events.filter((e) => e.type === 'runStarted')).toHaveLength(1 + 1 + 3 + 9);
  }, 180_000);
});

import { fileURLToPath } from 'node:url';
import { keepHistory } from '@weft/testkit/histories';
import { afterAll, describe, expect, it } from 'vitest';
import { graphOf, historiesDir, workflowBundle } from '../testing/engineHarness.js';
import { patchHarnesses } from '../testing/patchHarness.js';
import { patchStubs, replayOutcome } from '../testing/patchStub.js';
import { patchesOf } from '../testing/patches.js';
import { INLINE_BUDGET_BYTES } from './engine/inlineBudget.js';
import { INLINE_BYTES_PATCH } from './engine/inlineBytesPatch.js';
import { isBlobRef } from './engine/run.js';
import type { BlockLog, RunnableState, RunResult } from './types.js';

/**
 * What a run keeps inline in its history (patch inline-bytes): values measured in UTF-8 bytes, and a
 * budget per run past which outputs over 8 KB are kept aside too. The fake integrations worker keeps
 * outputs aside as the real one does (`keepAside`), so the history holds what a real run's would.
 */
const S = { type: 'starter', name: 'Start' };
const MB = 1024 * 1024;
const timing = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 };
const stubs = patchStubs(fileURLToPath(new URL('./engine/inlineBytesPatch.ts', import.meta.url)), INLINE_BYTES_PATCH, 'INLINE_BYTES_PATCH', 'inlineBytesPatched');

const loopOf = (count: number, code: string): RunnableState =>
  graphOf({ s: S, l: { type: 'loop', name: 'Loop', data: { loopType: 'for', count } }, body: { name: 'Body', parent: 'l', code } }, [
    ['s', 'l'],
    ['l', 'body', 'loop-start-source'],
  ]);

const { h, historyBefore } = patchHarnesses({ keepAside: true });
afterAll(() => {
  stubs.close();
});

/** A value with every kept-aside reference read back from the harness's store (as the run's API reads them). */
function load(value: unknown): unknown {
  if (isBlobRef(value)) return load(h().rec.blobs.get(value.$blobRef));
  if (Array.isArray(value)) return value.map(load);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, load(v)]));
  return value;
}

/** The run's logs as stored (their own kept-aside references left as they are). */
const logsOf = (result: RunResult): BlockLog[] => (result.logsRef ? (h().rec.blobs.get(result.logsRef.$blobRef) as BlockLog[]) : result.logs);

describe('what a run keeps inline in its history', () => {
  it('a loop of 40 outputs of 200 KB (8 MB, each under 256 KB) keeps its history far under 10 MB: past the 1 MB budget they are kept aside, and every one reads back', async () => {
    const bytes = 200 * 1024;
    const handle = await h().start(loopOf(40, `return String(<loop.index>).padEnd(${bytes}, 'x')`));
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    const { workflowExecutionInfo } = await h().client.workflowService.describeWorkflowExecution({ namespace: h().client.options.namespace, execution: { workflowId: handle.workflowId } });
    const historyBytes = Number(workflowExecutionInfo?.historySizeBytes ?? 0);
    // The outputs before the budget was spent are in it (once as the activity's answer, again in the
    // loop's results and the logs, each stored by the run); the other 7 MB are not. Before the budget
    // the history held every output three times over (about 24 MB).
    expect(historyBytes).toBeGreaterThan(INLINE_BUDGET_BYTES);
    expect(historyBytes).toBeLessThan(6 * MB);
    const bodies = logsOf(result).filter((l) => l.blockId === 'body');
    expect(bodies.map((l) => l.loopIteration)).toEqual(Array.from({ length: 40 }, (_, i) => [i]));
    expect(isBlobRef(bodies[0]?.output)).toBe(false);
    expect(bodies.slice(10).every((l) => isBlobRef(l.output))).toBe(true);
    const expected = Array.from({ length: 40 }, (_, i) => ({ result: String(i).padEnd(bytes, 'x'), stdout: '' }));
    expect(bodies.map((l) => load(l.output))).toEqual(expected);
    expect(load(result.output)).toEqual({ results: expected });
    const history = await handle.fetchHistory();
    expect(patchesOf(history)).toContain(INLINE_BYTES_PATCH);
    expect(await replayOutcome(await workflowBundle(), history, 'inline-budget')).toBeUndefined();
  }, 300_000);

  it('an output of 100,000 CJK characters (300 KB in UTF-8, 100,000 UTF-16 units) is kept aside, not inline', async () => {
    const data = '字'.repeat(100_000);
    expect(JSON.stringify({ data }).length).toBeLessThan(256 * 1024);
    h().setTools(() => ({ success: true, output: { data, status: 200, headers: {} }, timing }));
    const state = graphOf({ s: S, api: { type: 'api', name: 'API', values: { url: 'https://api.example.invalid/page', method: 'GET' } } }, [['s', 'api']]);
    const handle = await h().start(state);
    const result = await handle.result();
    expect(result.error).toBeUndefined();
    const output = result.logs.find((l) => l.blockId === 'api')?.output;
    expect(output).toMatchObject({ $blobRef: expect.any(String) });
    expect(load(output)).toEqual({ data, status: 200, headers: {} });
    const history = await handle.fetchHistory();
    expect(patchesOf(history)).toContain(INLINE_BYTES_PATCH);
    expect(await replayOutcome(await workflowBundle(), history, 'inline-utf8')).toBeUndefined();
  }, 120_000);

  it("a run of the code before patch inline-bytes (budget spent, a 9 KB output and the loop's results kept inline) replays with today's code, and would not with the patch unguarded", async () => {
    const state = loopOf(2, `return String(<loop.index>).padEnd(9 * 1024, 'x')`);
    const expected = [0, 1].map((i) => ({ result: String(i).padEnd(9 * 1024, 'x'), stdout: '' }));
    // A budget the first output spends: the second (9 KB, over 8 KB) is kept aside from then on.
    const budget = { inlineBudgetBytes: 1_000 };
    const history = await historyBefore(await stubs.bundleWith(false), async (before) => {
      const handle = await before.start(state, budget);
      const result = await handle.result();
      expect(result.output).toEqual({ results: expected });
      await keepHistory(handle, historiesDir, 'inline-bytes');
      return handle.fetchHistory();
    });
    expect(patchesOf(history)).not.toContain(INLINE_BYTES_PATCH);
    expect(await replayOutcome(await workflowBundle(), history, 'inline-bytes')).toBeUndefined();
    // Unguarded, today's code keeps the loop's results aside: a storeBlob the old run never scheduled.
    expect((await replayOutcome(await stubs.bundleWith(true), history, 'inline-bytes'))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);

    const handle = await h().start(state, budget);
    const result = await handle.result();
    expect(isBlobRef(result.output)).toBe(true);
    expect(load(result.output)).toEqual({ results: expected });
    const [first, second] = logsOf(result).filter((l) => l.blockId === 'body');
    expect(isBlobRef(first?.output)).toBe(false);
    expect(isBlobRef(second?.output)).toBe(true);
    expect(patchesOf(await handle.fetchHistory())).toContain(INLINE_BYTES_PATCH);
    await h().keepHistory(handle, 'inline-bytes.budget');
  }, 240_000);
});

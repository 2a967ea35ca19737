import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import type { Database } from '@weft/platform';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createExecution, getExecution, getExecutionState, getExecutionValue, listExecutions, readRunEvents, recordRunEvent, recordRunEvents, withBlobs, type RunLogDeps } from './executionsStore.js';
import { createRunResourceActivities } from './activities/runResources.js';
import type { BlockLog } from './workflows/types.js';

function log(blockId: string, extra: Partial<BlockLog> = {}): BlockLog {
  return { blockId, blockName: blockId.toUpperCase(), blockType: 'function', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:00.010Z', durationMs: 10, success: true, output: { result: blockId }, ...extra };
}

describe('the run log (Postgres)', () => {
  let database: Database<RunnerDB> & { drop(): Promise<void> };
  let deps: RunLogDeps;
  const kicks: number[] = [];
  const notified: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase<RunnerDB>('runlog', migrations);
    deps = { db: database.db, instance: 'ti', kick: () => kicks.push(1), notify: (id) => notified.push(id) };
  });
  afterAll(async () => {
    await database?.drop();
  });

  const outbox = async (executionId: string) =>
    (await sql<{ subject: string; type: string }>`select subject, envelope->>'type' as type from outbox where subject = ${`ti.runner.run.${executionId}`} order by seq`.execute(database.db)).rows;

  it('creates the execution on runStarted when Temporal started the run itself, with the state it runs (for a rerun), and records each event once', async () => {
    const id = `sched-${uniqueSuffix()}`;
    const state = { blocks: { s: { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: {} } }, edges: [], loops: {}, parallels: {} };
    const started = { type: 'runStarted' as const, executionId: id, workflowId: 'wf-1', at: '2026-01-01T00:00:00.000Z', workspaceId: 'ws-1', input: { a: 1 }, state };
    expect(await recordRunEvent(deps, started)).toBe(true);
    expect(await recordRunEvent(deps, started)).toBe(false);
    expect(await getExecutionState(database.db, id)).toEqual(state);
    const view = await getExecution(database.db, id);
    expect(view).toMatchObject({ workflowId: 'wf-1', workspaceId: 'ws-1', trigger: 'schedule', status: 'running', input: { a: 1 }, lastSeq: 1 });
    expect(await outbox(id)).toEqual([{ subject: `ti.runner.run.${id}`, type: 'runStarted' }]);
    expect(notified).toContain(id);
  });

  it('keeps each try of a retried block (start, duration, error) in its log', async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-3', trigger: 'manual', input: null });
    const tries = [
      { attempt: 1, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 4, error: 'HTTP error 503: Service Unavailable' },
      { attempt: 2, startedAt: '2026-01-01T00:00:01.000Z', durationMs: 5 },
    ];
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('api', { attempts: 2, attemptLog: tries }) });
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('once', { attempts: 1 }) });
    const view = await getExecution(database.db, id);
    expect(view.logs?.find((l) => l.blockId === 'api')).toMatchObject({ attempts: 2, attemptLog: tries });
    expect(view.logs?.find((l) => l.blockId === 'once')).not.toHaveProperty('attemptLog');
  });

  it('refuses (retryably) a block event before its run has a row', async () => {
    await expect(recordRunEvent(deps, { type: 'blockCompleted', executionId: `none-${uniqueSuffix()}`, log: log('a') })).rejects.toThrow(/has no row yet/);
  });

  it('keeps per-block logs in start order with loop iterations apart, and ends the run with its result', async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-2', trigger: 'manual', input: null });
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-2', at: new Date().toISOString() });
    await recordRunEvent(deps, { type: 'blockStarted', executionId: id, blockId: 'a', blockName: 'A', blockType: 'function', at: '2026-01-01T00:00:00.000Z' });
    await recordRunEvent(deps, { type: 'blockStarted', executionId: id, blockId: 'b', blockName: 'B', blockType: 'function', at: '2026-01-01T00:00:00.000Z', loopIteration: [0] });
    await recordRunEvent(deps, { type: 'blockStarted', executionId: id, blockId: 'b', blockName: 'B', blockType: 'function', at: '2026-01-01T00:00:00.000Z', loopIteration: [1] });
    let view = await getExecution(database.db, id);
    expect(view.logs?.map((l) => [l.blockId, l.status, l.loopIteration ?? null])).toEqual([
      ['a', 'running', null],
      ['b', 'running', [0]],
      ['b', 'running', [1]],
    ]);
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('b', { loopIteration: [1] }) });
    await recordRunEvent(deps, { type: 'blockError', executionId: id, log: log('a', { success: false, error: 'boom', output: null }) });
    // A retried activity delivers the same event again: nothing changes.
    await recordRunEvent(deps, { type: 'blockError', executionId: id, log: log('a', { success: false, error: 'other', output: null }) });
    await recordRunEvent(deps, {
      type: 'runCompleted',
      executionId: id,
      workflowId: 'wf-2',
      // The result also lists a block the workflow never reported on its own ('c'): it joins the log.
      result: { success: false, output: null, error: 'A: boom', logs: [log('a', { success: false, error: 'boom' }), log('c')], cost: { input: 0.1, output: 0.2, total: 0.3 } },
    });
    view = await getExecution(database.db, id);
    expect(view).toMatchObject({ status: 'failed', error: 'A: boom', cost: { total: 0.3 } });
    expect(view.endedAt).not.toBeNull();
    expect(view.logs?.map((l) => [l.blockId, l.status, l.error ?? null])).toEqual([
      ['a', 'failed', 'boom'],
      ['b', 'cancelled', 'Run ended'],
      ['b', 'succeeded', null],
      ['c', 'succeeded', null],
    ]);
    const events = await readRunEvents(database.db, id, 0, 100);
    expect(events.map((e) => e.type)).toEqual(['runStarted', 'blockStarted', 'blockStarted', 'blockStarted', 'blockCompleted', 'blockError', 'blockCompleted', 'runCompleted']);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.at(-1)?.data).not.toHaveProperty('logs');
    expect((await readRunEvents(database.db, id, 6, 100)).map((e) => e.seq)).toEqual([7, 8]);
    expect((await outbox(id)).map((r) => r.type)).toEqual(['runStarted', 'blockCompleted', 'blockCompleted', 'blockCompleted', 'runCompleted']);
  });

  it('records a batch of one run’s events in one transaction, in order, each once; a batch that cannot be recorded writes nothing', async () => {
    const id = `batch-${uniqueSuffix()}`;
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-b', at: new Date().toISOString(), trigger: 'manual' });
    const batch = [
      { type: 'blockStarted' as const, executionId: id, blockId: 'a', blockName: 'A', blockType: 'function', at: '2026-01-01T00:00:00.000Z', ordinal: 2 },
      { type: 'blockCompleted' as const, executionId: id, log: log('a'), ordinal: 3 },
      { type: 'blockStarted' as const, executionId: id, blockId: 'b', blockName: 'B', blockType: 'function', at: '2026-01-01T00:00:00.000Z', ordinal: 4 },
    ];
    const notifiedBefore = notified.length;
    expect(await recordRunEvents(deps, batch)).toEqual([true, true, true]);
    expect(notified.slice(notifiedBefore)).toEqual([id]);
    expect(await recordRunEvents(deps, batch)).toEqual([false, false, false]);
    expect((await readRunEvents(database.db, id, 0, 100)).map((e) => [e.seq, e.type])).toEqual([
      [1, 'runStarted'],
      [2, 'blockStarted'],
      [3, 'blockCompleted'],
      [4, 'blockStarted'],
    ]);
    expect((await getExecution(database.db, id))?.logs?.map((l) => [l.blockId, l.status])).toEqual([
      ['a', 'succeeded'],
      ['b', 'running'],
    ]);

    const orphan = `orphan-${uniqueSuffix()}`;
    await expect(
      recordRunEvents(deps, [
        { type: 'blockStarted', executionId: id, blockId: 'c', blockName: 'C', blockType: 'function', at: '2026-01-01T00:00:00.000Z' },
        { type: 'blockStarted', executionId: orphan, blockId: 'x', blockName: 'X', blockType: 'function', at: '2026-01-01T00:00:00.000Z' },
      ]),
    ).rejects.toThrow(/has no row yet/);
    expect((await readRunEvents(database.db, id, 0, 100)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  it('records a run’s last block events with its end in one batch: the end last, each block’s log once, the outbox as event by event', async () => {
    const id = `tail-${uniqueSuffix()}`;
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-t', at: new Date().toISOString(), trigger: 'api' });
    await recordRunEvents(deps, [
      { type: 'blockStarted', executionId: id, blockId: 'a', blockName: 'A', blockType: 'function', at: '2026-01-01T00:00:00.000Z', ordinal: 2 },
      { type: 'blockCompleted', executionId: id, log: log('a'), ordinal: 3 },
    ]);
    const tail = [
      { type: 'blockStarted' as const, executionId: id, blockId: 'r', blockName: 'R', blockType: 'response', at: '2026-01-01T00:00:00.000Z', ordinal: 4 },
      { type: 'blockCompleted' as const, executionId: id, log: log('r'), ordinal: 5 },
      { type: 'runCompleted' as const, executionId: id, workflowId: 'wf-t', result: { success: true, output: 1, logs: [log('a'), log('r')] }, ordinal: 6 },
    ];
    expect(await recordRunEvents(deps, tail)).toEqual([true, true, true]);
    // The activity retried after a commit it did not report: nothing twice.
    expect(await recordRunEvents(deps, tail)).toEqual([false, false, false]);
    expect((await readRunEvents(database.db, id, 0, 100)).map((e) => [e.seq, e.type])).toEqual([
      [1, 'runStarted'],
      [2, 'blockStarted'],
      [3, 'blockCompleted'],
      [4, 'blockStarted'],
      [5, 'blockCompleted'],
      [6, 'runCompleted'],
    ]);
    expect(await getExecution(database.db, id, { logs: true })).toMatchObject({ status: 'succeeded', output: 1, lastSeq: 6 });
    expect((await getExecution(database.db, id, { logs: true })).logs?.map((l) => [l.blockId, l.status])).toEqual([
      ['a', 'succeeded'],
      ['r', 'succeeded'],
    ]);
    expect((await outbox(id)).map((o) => o.type)).toEqual(['runStarted', 'blockCompleted', 'blockCompleted', 'runCompleted']);
  });

  it('keeps the first end of a run: a cancel recorded first is not overwritten by the workflow finishing later', async () => {
    const id = `cancel-${uniqueSuffix()}`;
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-3', at: new Date().toISOString(), trigger: 'manual' });
    await recordRunEvent(deps, { type: 'runCompleted', executionId: id, workflowId: 'wf-3', result: { success: false, cancelled: true, output: null, logs: [], error: 'Run cancelled' } });
    await recordRunEvent(deps, { type: 'runCompleted', executionId: id, workflowId: 'wf-3', result: { success: true, output: 42, logs: [] } });
    expect(await getExecution(database.db, id)).toMatchObject({ status: 'cancelled', error: 'Run cancelled', output: null });
  });

  it('ends a run’s events with its end: what the workflow reports after a cancel recorded without it (its last blocks, its own end) adds no event; a late block end still sets its log', async () => {
    const id = `late-${uniqueSuffix()}`;
    const at = '2026-01-01T00:00:00.000Z';
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-3', at, trigger: 'manual' });
    await recordRunEvent(deps, { type: 'blockStarted', executionId: id, blockId: 'wait', blockName: 'WAIT', blockType: 'api', at });
    // The cancel API gave up waiting for the workflow and ended the run itself.
    await recordRunEvent(deps, { type: 'runCompleted', executionId: id, workflowId: 'wf-3', result: { success: false, cancelled: true, output: null, logs: [], error: 'Run cancelled' } });
    const ended = await getExecution(database.db, id, { logs: true });
    expect(ended.logs?.map((l) => [l.blockId, l.status, l.error ?? null])).toEqual([['wait', 'cancelled', 'Run cancelled']]);
    // The workflow stops later: its sink's block events, then its end with the events held for it.
    expect(await recordRunEvents(deps, [{ type: 'blockStarted', executionId: id, blockId: 'after', blockName: 'AFTER', blockType: 'function', at }])).toEqual([false]);
    const cut = log('wait', { success: false, cancelled: true, output: undefined });
    expect(await recordRunEvents(deps, [{ type: 'blockError', executionId: id, log: cut }, { type: 'runCompleted', executionId: id, workflowId: 'wf-3', result: { success: false, cancelled: true, output: null, logs: [cut], error: 'Run cancelled' } }])).toEqual([false, false]);
    const events = await readRunEvents(database.db, id, 0, 100);
    expect(events.map((e) => e.type)).toEqual(['runStarted', 'blockStarted', 'runCompleted']);
    const after = await getExecution(database.db, id, { logs: true });
    expect({ ...after, logs: undefined }).toEqual({ ...ended, logs: undefined });
    // The block's own report replaces the end's sweep: its duration and input are known.
    expect(after.logs?.map((l) => [l.blockId, l.status, l.durationMs])).toEqual([['wait', 'cancelled', 10]]);
  });

  it('a block cut short by a cancelled run is logged cancelled, not failed: reported by the workflow or swept at the end; what finished keeps its log', async () => {
    const id = `cut-${uniqueSuffix()}`;
    const at = '2026-01-01T00:00:00.000Z';
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-3', at, trigger: 'manual' });
    for (const blockId of ['a', 'slow', 'lost']) await recordRunEvent(deps, { type: 'blockStarted', executionId: id, blockId, blockName: blockId.toUpperCase(), blockType: 'function', at });
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('a') });
    // The workflow reports the block it cut short; 'lost' had its report lost (a worker killed before writing it).
    await recordRunEvent(deps, { type: 'blockError', executionId: id, log: log('slow', { success: false, cancelled: true, output: undefined }) });
    await recordRunEvent(deps, { type: 'runCompleted', executionId: id, workflowId: 'wf-3', result: { success: false, cancelled: true, output: null, logs: [], error: 'Run cancelled' } });
    const view = await getExecution(database.db, id, { logs: true });
    expect(view.status).toBe('cancelled');
    expect(view.logs?.map((l) => [l.blockId, l.status, l.success, l.cancelled ?? false, l.error ?? null])).toEqual([
      ['a', 'succeeded', true, false, null],
      ['slow', 'cancelled', false, true, null],
      ['lost', 'cancelled', false, true, 'Run cancelled'],
    ]);
    expect(view.logs?.[0]?.output).toEqual({ result: 'a' });
  });

  it('shows a block of a run still going as running (no success, no end), not failed, and as its outcome once it ends', async () => {
    const id = `going-${uniqueSuffix()}`;
    const at = '2026-01-01T00:00:00.000Z';
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-3', at, trigger: 'manual' });
    for (const blockId of ['a', 'slow']) await recordRunEvent(deps, { type: 'blockStarted', executionId: id, blockId, blockName: blockId.toUpperCase(), blockType: 'function', at });
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('a') });
    const going = await getExecution(database.db, id, { logs: true });
    expect(going.status).toBe('running');
    expect(going.logs?.map((l) => [l.blockId, l.status, l.success ?? null])).toEqual([
      ['a', 'succeeded', true],
      ['slow', 'running', null],
    ]);
    expect(going.logs?.[1]).toEqual({ blockId: 'slow', blockName: 'SLOW', blockType: 'function', status: 'running', running: true, startedAt: at });
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('slow') });
    const done = await getExecution(database.db, id, { logs: true });
    expect(done.logs?.[1]).toMatchObject({ blockId: 'slow', status: 'succeeded', success: true, durationMs: 10 });
    expect(done.logs?.[1]).not.toHaveProperty('running');
  });

  it('lists a workflow’s executions newest first, filtered by status and trigger, page by page', async () => {
    const wf = `wf-list-${uniqueSuffix()}`;
    const base = Date.parse('2026-02-01T00:00:00.000Z');
    for (let i = 0; i < 5; i++) {
      await createExecution(database.db, { executionId: `${wf}-${i}`, workflowId: wf, trigger: i % 2 === 0 ? 'api' : 'manual', input: i, startedAt: new Date(base + i * 1000) });
    }
    // Two executions started in the same millisecond are both listed, once.
    await createExecution(database.db, { executionId: `${wf}-4b`, workflowId: wf, trigger: 'api', input: 5, startedAt: new Date(base + 4000) });
    await recordRunEvent(deps, { type: 'runCompleted', executionId: `${wf}-2`, workflowId: wf, result: { success: true, output: 1, logs: [] } });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listExecutions(database.db, { workflowId: wf, limit: 2, cursor });
      seen.push(...page.executions.map((e) => e.executionId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([`${wf}-4b`, `${wf}-4`, `${wf}-3`, `${wf}-2`, `${wf}-1`, `${wf}-0`]);
    expect((await listExecutions(database.db, { workflowId: wf, limit: 10, trigger: 'manual' })).executions.map((e) => e.executionId)).toEqual([`${wf}-3`, `${wf}-1`]);
    expect((await listExecutions(database.db, { workflowId: wf, limit: 10, status: 'succeeded' })).executions.map((e) => e.executionId)).toEqual([`${wf}-2`]);
    await expect(listExecutions(database.db, { workflowId: wf, limit: 10, cursor: 'nonsense' })).rejects.toThrow(/^cursor:/);
  });
  it('shows values the run kept outside the history (BlobRefs) as the stored values in an execution and its logs', async () => {
    const id = `blob-${uniqueSuffix()}`;
    const unused = () => Promise.reject(new Error('not used'));
    const blobs = createRunResourceActivities({ db: database.db, sources: { environment: unused, workflow: unused, deployedState: unused, draftState: unused } });
    const big = 'x'.repeat(300_000);
    const inner = await blobs.storeBlob(id, { result: big });
    const outer = await blobs.storeBlob(id, { nested: inner, n: 1 });
    expect(inner.bytes).toBeGreaterThan(300_000);
    await createExecution(database.db, { executionId: id, workflowId: 'wf-blob', trigger: 'manual', input: {} });
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: id, log: log('big', { output: inner }) });
    await recordRunEvent(deps, { type: 'runCompleted', executionId: id, workflowId: 'wf-blob', result: { success: true, output: outer, logs: [] } });
    const view = await getExecution(database.db, id);
    expect(view.output).toEqual({ nested: { result: big }, n: 1 });
    expect(view.logs?.[0]?.output).toEqual({ result: big });
    expect(await blobs.loadBlob(inner)).toEqual({ result: big });
    await expect(blobs.loadBlob({ $blobRef: `${id}/missing`, bytes: 1 })).rejects.toThrow(`Stored value ${id}/missing not found`);
  });

  it('puts stored values back while they fit the budget (each place counts), leaves the rest as references, and serves each to its run, its child runs and its reruns', async () => {
    const id = `budget-${uniqueSuffix()}`;
    const unused = () => Promise.reject(new Error('not used'));
    const blobs = createRunResourceActivities({ db: database.db, sources: { environment: unused, workflow: unused, deployedState: unused, draftState: unused } });
    const a = await blobs.storeBlob(id, 'a'.repeat(1000));
    const b = await blobs.storeBlob(id, 'b'.repeat(1000));
    // 2,500 bytes: `a` in two places fits (2 × 1,002), `b` after them does not.
    expect(await withBlobs(database.db, { first: a, again: a, then: b }, 2_500)).toEqual({ first: 'a'.repeat(1000), again: 'a'.repeat(1000), then: b });
    expect(await withBlobs(database.db, [b, a], 1_500)).toEqual(['b'.repeat(1000), a]);

    const child = await blobs.storeBlob(`${id}-workflowBlock-1`, 'child value');
    const rerunId = `rerun-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-budget', trigger: 'manual', input: {} });
    await createExecution(database.db, { executionId: rerunId, workflowId: 'wf-budget', trigger: 'manual', input: {}, rerunOf: id });
    expect(await getExecutionValue(database.db, id, a.$blobRef)).toBe('a'.repeat(1000));
    expect(await getExecutionValue(database.db, id, child.$blobRef)).toBe('child value');
    expect(await getExecutionValue(database.db, rerunId, b.$blobRef)).toBe('b'.repeat(1000));
    const other = `other-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: other, workflowId: 'wf-budget', trigger: 'manual', input: {} });
    await expect(getExecutionValue(database.db, other, a.$blobRef)).rejects.toThrow(`Value ${a.$blobRef} not found in execution ${other}`);
    await expect(getExecutionValue(database.db, id, `${id}/missing`)).rejects.toThrow(`Value ${id}/missing not found in execution ${id}`);
  });
});

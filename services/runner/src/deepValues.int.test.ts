import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/activity';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import type { Database } from '@weft/platform';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { UnrecordableRunEventError, createExecution, getExecution, recordRunEvent, storeValue, withBlobs, type RunLogDeps } from './executionsStore.js';
import { createRunLogActivities } from './activities/runLog.js';
import type { BlockLog } from './workflows/types.js';

/** Deeper than JSON.stringify (about 4,500 levels) or a recursive walk can go. */
const DEPTH = 5_000;

/** `{a: {a: … leaf …}}`, `depth` objects deep, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** The same as JSON text (JSON.stringify cannot write it). */
function nestedJson(depth: number, leaf: string): string {
  return `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
}

/** How deep `value` goes through `a`, and what it holds there. */
function bottom(value: unknown): { depth: number; leaf: unknown } {
  let depth = 0;
  let current = value;
  while (current !== null && typeof current === 'object' && 'a' in current) {
    current = current.a;
    depth++;
  }
  return { depth, leaf: current };
}

function log(blockId: string, output: unknown): BlockLog {
  return { blockId, blockName: blockId, blockType: 'function', startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:00.010Z', durationMs: 10, success: true, output };
}

describe('values nested thousands of levels deep (Postgres)', () => {
  let database: Database<RunnerDB> & { drop(): Promise<void> };
  let deps: RunLogDeps;

  beforeAll(async () => {
    database = await createTestDatabase<RunnerDB>('deepvalues', migrations);
    deps = { db: database.db, instance: 'ti', kick: () => undefined, notify: () => undefined };
  });
  afterAll(async () => {
    await database?.drop();
  });

  it(`puts stored values back into a value ${DEPTH} levels deep, and a stored value that deep back as it is`, async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-1', trigger: 'manual', input: null });
    const ref = await storeValue(database.db, id, JSON.stringify('kept aside'));
    expect(bottom(await withBlobs(database.db, nested(DEPTH, ref)))).toEqual({ depth: DEPTH, leaf: 'kept aside' });

    const deep = await storeValue(database.db, id, nestedJson(DEPTH, '"end"'));
    const answer = await withBlobs(database.db, { output: deep });
    expect(bottom((answer as { output: unknown }).output)).toEqual({ depth: DEPTH, leaf: 'end' });
  });

  it(`reads an execution whose block output is ${DEPTH} levels deep (was a 500)`, async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-1', trigger: 'manual', input: null });
    await database.db
      .insertInto('block_logs')
      .values({ execution_id: id, log_key: 'fn', position: 1, block_id: 'fn', block_name: 'Fn', block_type: 'function', status: 'succeeded', output: nestedJson(DEPTH, '1'), started_at: '2026-01-01T00:00:00.000Z', ended_at: '2026-01-01T00:00:00.010Z', duration_ms: 10 })
      .execute();
    const view = await getExecution(database.db, id);
    expect(bottom(view.logs?.[0]?.output)).toEqual({ depth: DEPTH, leaf: 1 });
  });

  it(`refuses for good an event holding a value ${DEPTH} levels deep: the activity fails non-retryably (was retried forever), nothing is written, and the run still ends`, async () => {
    const id = `run-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-1', trigger: 'manual', input: null });
    const deepEnd = { type: 'runCompleted' as const, executionId: id, workflowId: 'wf-1', result: { success: true, output: nested(DEPTH, 1), logs: [log('fn', nested(DEPTH, 1))] } };

    const refused = recordRunEvent(deps, deepEnd);
    await expect(refused).rejects.toBeInstanceOf(UnrecordableRunEventError);
    await expect(refused).rejects.toThrow(`Run events (runCompleted) of execution ${id} cannot be recorded: a value in them is nested too deeply to store`);

    const activity = createRunLogActivities(deps);
    const failure = await activity.recordRunEvent(deepEnd).then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ nonRetryable: true, type: 'UnrecordableRunEvent' });

    expect(await getExecution(database.db, id)).toMatchObject({ status: 'running', lastSeq: 0, logs: [] });
    // What the run's watcher records when the workflow has failed goes in.
    expect(await recordRunEvent(deps, { ...deepEnd, result: { success: false, output: null, logs: [], error: 'Run failed' } })).toBe(true);
    expect(await getExecution(database.db, id)).toMatchObject({ status: 'failed', error: 'Run failed' });
  });
});

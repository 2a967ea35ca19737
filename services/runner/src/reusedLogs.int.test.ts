import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import type { Database } from '@weft/platform';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createExecution, getExecution, readRunEvents, recordRunEvent, recordRunEvents, type RunLogDeps } from './executionsStore.js';
import type { BlockLog, RunEvent, RunnableState } from './workflows/types.js';

/** Start → Loop (Work inside, a parallel in it with Inner) → API (failed, took its error path) → After. */
const state: RunnableState = {
  blocks: {
    s: { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: {} },
    l: { id: 'l', type: 'loop', name: 'Loop', enabled: true, subBlocks: {}, data: { loopType: 'for', count: 2 } },
    work: { id: 'work', type: 'function', name: 'Work', enabled: true, subBlocks: {}, data: { parentId: 'l' } },
    p: { id: 'p', type: 'parallel', name: 'Par', enabled: true, subBlocks: {}, data: { parentId: 'l', parallelType: 'count', count: 2 } },
    inner: { id: 'inner', type: 'function', name: 'Inner', enabled: true, subBlocks: {}, data: { parentId: 'p' } },
    api: { id: 'api', type: 'api', name: 'API', enabled: true, subBlocks: {} },
    fix: { id: 'fix', type: 'function', name: 'Fix', enabled: true, subBlocks: {} },
    after: { id: 'after', type: 'function', name: 'After', enabled: true, subBlocks: {} },
  },
  edges: [
    { id: 'e1', source: 's', target: 'l' },
    { id: 'e2', source: 'l', target: 'work', sourceHandle: 'loop-start-source' },
    { id: 'e3', source: 'work', target: 'p' },
    { id: 'e4', source: 'p', target: 'inner', sourceHandle: 'parallel-start-source' },
    { id: 'e5', source: 'l', target: 'api', sourceHandle: 'loop-end-source' },
    { id: 'e6', source: 'api', target: 'fix', sourceHandle: 'error' },
    { id: 'e7', source: 'fix', target: 'after' },
  ],
};

const AT = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-02T00:00:00.000Z';
const TRIES = [
  { attempt: 1, startedAt: AT, durationMs: 4, error: 'HTTP error 503: Service Unavailable' },
  { attempt: 2, startedAt: AT, durationMs: 5, error: 'HTTP error 503: Service Unavailable' },
  { attempt: 3, startedAt: AT, durationMs: 6, error: 'HTTP error 503: Service Unavailable' },
];

function log(blockId: string, extra: Partial<BlockLog> = {}): BlockLog {
  const block = state.blocks[blockId];
  return { blockId, blockName: block?.name ?? blockId, blockType: block?.type ?? 'function', startedAt: AT, endedAt: AT, durationMs: 7, success: true, output: { result: blockId }, ...extra };
}

/** The earlier run's body logs, in the order they ran (two loop iterations, each with two parallel branches). */
const BODY: BlockLog[] = [0, 1].flatMap((i) => [
  log('work', { loopIteration: [i], output: { result: `work ${i}` }, attempts: 1 }),
  ...[0, 1].map((b) => log('inner', { loopIteration: [i], parallelBranch: [b], output: { result: `inner ${i}.${b}` }, tokens: { prompt: 1, completion: 1, total: 2 } })),
  log('p', { loopIteration: [i], output: { results: [] } }),
]);
BODY.splice(2, 0, log('inner', { loopIteration: [0], parallelBranch: [2], success: false, error: 'boom', output: { error: 'boom' }, attempts: 2, attemptLog: TRIES.slice(0, 2) }));

describe("a rerun's log of the blocks it reused (Postgres)", () => {
  let database: Database<RunnerDB> & { drop(): Promise<void> };
  let deps: RunLogDeps;

  beforeAll(async () => {
    database = await createTestDatabase<RunnerDB>('reusedlogs', migrations);
    deps = { db: database.db, instance: 'tu', kick: () => undefined, notify: () => undefined };
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function firstRun(): Promise<string> {
    const id = `first-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-r', trigger: 'manual', input: {}, state });
    const logs = [log('s'), ...BODY, log('l', { output: { results: [] } }), log('api', { success: false, error: 'HTTP error 503: Service Unavailable', output: { error: 'HTTP error 503: Service Unavailable', status: 503 }, attempts: 3, attemptLog: TRIES }), log('fix'), log('after')];
    for (const l of logs) await recordRunEvent(deps, { type: l.success ? 'blockCompleted' : 'blockError', executionId: id, log: l });
    return id;
  }

  /** What the rerun's workflow reports of the blocks it reuses (as `engine/rerun.ts` logs them: no tries, no body). */
  const reusedEvents = (id: string): RunEvent[] => [
    { type: 'blockCompleted', executionId: id, ordinal: 2, log: log('s', { startedAt: LATER, endedAt: LATER, durationMs: 0, reused: true }) },
    { type: 'blockCompleted', executionId: id, ordinal: 3, log: log('l', { startedAt: LATER, endedAt: LATER, durationMs: 0, output: { results: [] }, reused: true }) },
    { type: 'blockError', executionId: id, ordinal: 4, log: log('api', { startedAt: LATER, endedAt: LATER, durationMs: 0, success: false, error: 'HTTP error 503: Service Unavailable', output: { error: 'HTTP error 503: Service Unavailable', status: 503 }, reused: true }) },
    { type: 'blockStarted', executionId: id, ordinal: 5, blockId: 'fix', blockName: 'Fix', blockType: 'function', at: LATER },
  ];

  async function rerunOf(earlier: string, batch: 'one by one' | 'in one batch'): Promise<string> {
    const id = `rerun-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: id, workflowId: 'wf-r', trigger: 'manual', input: {}, state, rerunOf: earlier, fromBlockId: 'fix' });
    await recordRunEvent(deps, { type: 'runStarted', executionId: id, workflowId: 'wf-r', at: LATER });
    if (batch === 'in one batch') await recordRunEvents(deps, reusedEvents(id));
    else for (const e of reusedEvents(id)) await recordRunEvent(deps, e);
    return id;
  }

  const expectedBody = BODY.map((b) => [
    b.blockId,
    b.loopIteration ?? null,
    b.parallelBranch ?? null,
    b.success ? 'succeeded' : 'failed',
    b.output,
  ]);

  it("copies a reused loop's body logs (nested parallel included) right after it, marked reused, in the order they ran; and a reused failed block's tries", async () => {
    const first = await firstRun();
    const second = await rerunOf(first, 'one by one');
    const logs = (await getExecution(database.db, second)).logs ?? [];
    expect(logs.map((l) => l.blockId)).toEqual(['s', 'l', ...BODY.map((b) => b.blockId), 'api', 'fix']);
    const body = logs.slice(2, 2 + BODY.length);
    expect(body.map((l) => [l.blockId, l.loopIteration ?? null, l.parallelBranch ?? null, l.status, l.output])).toEqual(expectedBody);
    // Marked and timed as a reused block is: at the container's moment, taking no time, costing nothing in this run.
    for (const l of body) expect(l).toMatchObject({ reused: true, startedAt: LATER, endedAt: LATER, durationMs: 0 });
    expect(body.some((l) => 'tokens' in l)).toBe(false);
    // A failed body block keeps its tries as a failed reused block does; a succeeded one shows none, as reused blocks do.
    expect(body.find((l) => l.status === 'failed')).toMatchObject({ error: 'boom', attempts: 2, attemptLog: TRIES.slice(0, 2) });
    expect(body.find((l) => l.blockId === 'work')).not.toHaveProperty('attempts');
    expect(logs.find((l) => l.blockId === 'api')).toMatchObject({ status: 'failed', reused: true, attempts: 3, attemptLog: TRIES });
    expect(logs.find((l) => l.blockId === 's')).not.toHaveProperty('attempts');
    // The stream lists them too, after the loop's own event, once each.
    const events = (await readRunEvents(database.db, second, 0, 1000)).filter((e) => e.type === 'blockCompleted' || e.type === 'blockError');
    expect(events.map((e) => e.data.blockId)).toEqual(['s', 'l', ...BODY.map((b) => b.blockId), 'api']);
    expect(events.filter((e) => e.data.blockId === 'inner').every((e) => e.data.reused === true)).toBe(true);
  });

  it('writes the same when the reused blocks come in one batch, and once only when reported again (the end carrying them)', async () => {
    const first = await firstRun();
    const second = await rerunOf(first, 'in one batch');
    await recordRunEvent(deps, { type: 'runCompleted', executionId: second, workflowId: 'wf-r', result: { success: true, output: null, logs: reusedEvents(second).flatMap((e) => (e.type === 'blockStarted' || e.type === 'runStarted' || e.type === 'runCompleted' ? [] : [e.log])) } });
    const logs = (await getExecution(database.db, second)).logs ?? [];
    expect(logs.map((l) => l.blockId)).toEqual(['s', 'l', ...BODY.map((b) => b.blockId), 'api', 'fix']);
    expect(logs.find((l) => l.blockId === 'api')).toMatchObject({ attempts: 3, attemptLog: TRIES });
    const done = (await readRunEvents(database.db, second, 0, 1000)).filter((e) => e.type === 'blockCompleted' || e.type === 'blockError');
    expect(done).toHaveLength(3 + BODY.length);
  });

  it('a rerun of a rerun takes them from the rerun, and from the run before when that rerun was logged before the copies (no body, no tries)', async () => {
    const first = await firstRun();
    const second = await rerunOf(first, 'one by one');
    const third = await rerunOf(second, 'one by one');
    const thirdLogs = (await getExecution(database.db, third)).logs ?? [];
    expect(thirdLogs.slice(2, 2 + BODY.length).map((l) => [l.blockId, l.loopIteration ?? null, l.parallelBranch ?? null, l.status, l.output])).toEqual(expectedBody);
    expect(thirdLogs.find((l) => l.blockId === 'api')).toMatchObject({ attempts: 3, attemptLog: TRIES });
    // A rerun logged before: its reused loop has no body and its reused API no tries.
    const older = await firstRun();
    const legacy = `legacy-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: legacy, workflowId: 'wf-r', trigger: 'manual', input: {}, state, rerunOf: older, fromBlockId: 'fix' });
    for (const e of reusedEvents(legacy)) await recordRunEvent(deps, e);
    await sql`delete from block_logs where execution_id = ${legacy} and (loop_iteration is not null or parallel_branch is not null)`.execute(database.db);
    await sql`update block_logs set attempts = null, attempt_log = null where execution_id = ${legacy}`.execute(database.db);
    const fourth = await rerunOf(legacy, 'one by one');
    const fourthLogs = (await getExecution(database.db, fourth)).logs ?? [];
    expect(fourthLogs.slice(2, 2 + BODY.length).map((l) => [l.blockId, l.loopIteration ?? null, l.parallelBranch ?? null, l.status, l.output])).toEqual(expectedBody);
    expect(fourthLogs.find((l) => l.blockId === 'api')).toMatchObject({ attempts: 3, attemptLog: TRIES });
  });

  it("copies a big reused loop's body in statements that do not grow with it: 50 iterations of a 10-branch parallel, every row and event once", async () => {
    const bigState: RunnableState = {
      blocks: { ...state.blocks, l: { id: 'l', type: 'loop', name: 'Loop', enabled: true, subBlocks: {}, data: { loopType: 'for', count: 50 } } },
      edges: state.edges,
    };
    /** Body logs of `iterations` iterations, each Work, a parallel of `branches` Inner and Par. */
    const bodyOf = (iterations: number, branches: number): BlockLog[] =>
      Array.from({ length: iterations }, (_, i) => [
        log('work', { loopIteration: [i], output: { result: `work ${i}` } }),
        ...Array.from({ length: branches }, (_, b) => log('inner', { loopIteration: [i], parallelBranch: [b], output: { result: `inner ${i}.${b}` } })),
        log('p', { loopIteration: [i], output: { results: [] } }),
      ]).flat();
    // Every statement of the rerun's batch (the reused blocks reported at once, as the sink hands them over).
    let statements = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        statements += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    };
    const counted: RunLogDeps = { ...deps, db: deps.db.withPlugin(counter) };
    async function rerunOfLoop(body: BlockLog[]): Promise<{ id: string; statements: number }> {
      const first = `first-${uniqueSuffix()}`;
      await createExecution(database.db, { executionId: first, workflowId: 'wf-r', trigger: 'manual', input: {}, state: bigState });
      await recordRunEvents(deps, [log('s'), ...body, log('l', { output: { results: [] } })].map((l) => ({ type: 'blockCompleted', executionId: first, log: l })));
      const id = `rerun-${uniqueSuffix()}`;
      await createExecution(database.db, { executionId: id, workflowId: 'wf-r', trigger: 'manual', input: {}, state: bigState, rerunOf: first, fromBlockId: 'after' });
      statements = 0;
      await recordRunEvents(counted, [
        { type: 'blockCompleted', executionId: id, ordinal: 1, log: log('s', { startedAt: LATER, endedAt: LATER, durationMs: 0, reused: true }) },
        { type: 'blockCompleted', executionId: id, ordinal: 2, log: log('l', { startedAt: LATER, endedAt: LATER, durationMs: 0, output: { results: [] }, reused: true }) },
      ]);
      return { id, statements };
    }
    const big = bodyOf(50, 10);
    const small = await rerunOfLoop(bodyOf(2, 1));
    const large = await rerunOfLoop(big);
    expect(large.statements).toBe(small.statements);
    const logs = (await getExecution(database.db, large.id)).logs ?? [];
    expect(logs).toHaveLength(2 + big.length);
    expect(big.length).toBe(600);
    expect(logs.slice(2).map((l) => [l.blockId, l.loopIteration ?? null, l.parallelBranch ?? null, l.output])).toEqual(big.map((b) => [b.blockId, b.loopIteration ?? null, b.parallelBranch ?? null, b.output]));
    expect(logs.slice(2).every((l) => l.reused === true && l.startedAt === LATER && l.durationMs === 0)).toBe(true);
    // The console's stream gets each copied body block's end, once, after the loop's.
    const done = (await readRunEvents(database.db, large.id, 0, 10_000)).filter((e) => e.type === 'blockCompleted' || e.type === 'blockError');
    expect(done.map((e) => e.data.blockId)).toEqual(['s', 'l', ...big.map((b) => b.blockId)]);
    const outbox = await sql<{ n: string }>`select count(*) as n from outbox where subject = ${`tu.runner.run.${large.id}`}`.execute(database.db);
    expect(Number(outbox.rows[0]?.n)).toBe(2 + big.length);
  });

  it('a block that ran in the rerun (not reused) gets nothing copied', async () => {
    const first = await firstRun();
    const again = `again-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: again, workflowId: 'wf-r', trigger: 'manual', input: {}, state, rerunOf: first, fromBlockId: 's' });
    await recordRunEvent(deps, { type: 'blockCompleted', executionId: again, log: log('l', { output: { results: [] } }) });
    await recordRunEvent(deps, { type: 'blockError', executionId: again, log: log('api', { success: false, error: 'HTTP error 400: Bad Request' }) });
    const logs = (await getExecution(database.db, again)).logs ?? [];
    expect(logs.map((l) => l.blockId)).toEqual(['l', 'api']);
    expect(logs[1]).not.toHaveProperty('attempts');
  });
});

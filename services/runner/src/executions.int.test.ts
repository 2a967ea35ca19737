import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import { createLogger, type Database } from '@weft/platform';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createExecution, listBlockLogs, recordRunEvent } from './executionsStore.js';
import { createExecutions, type Executions } from './executions.js';
import type { RunInput, RunnableState } from './workflows/types.js';

const state = (code: string): RunnableState => ({
  blocks: {
    s: { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: {} },
    f: { id: 'f', type: 'function', name: 'F', enabled: true, subBlocks: { code: { id: 'code', type: 'code', value: code } } },
  },
  edges: [{ id: 'e', source: 's', target: 'f' }],
});

describe('rerun of a run Temporal started itself (Postgres, an engine that records what it is asked)', () => {
  let database: Database<RunnerDB> & { drop(): Promise<void> };
  let executions: Executions;
  const started: RunInput[] = [];
  const deployed = new Map<string, RunnableState>();

  beforeAll(async () => {
    database = await createTestDatabase<RunnerDB>('reruns', migrations);
    executions = createExecutions({
      db: database.db,
      instance: 'tr',
      kick: () => undefined,
      notify: () => undefined,
      live: { notify: () => undefined, watch: () => ({ next: async () => false, close: () => undefined }) },
      logger: createLogger('reruns', 'silent'),
      engine: {
        start: async (input) => void started.push(input),
        result: () => new Promise(() => undefined),
        cancel: async () => undefined,
      },
      loadDraft: async () => state('return "draft"'),
      async loadDeployed(workflowId, version) {
        const found = deployed.get(`${workflowId}@${version}`);
        if (!found) throw new Error(`Workflow ${workflowId} has no deployment version ${version}`);
        return found;
      },
    });
  });
  afterAll(async () => {
    await database?.drop();
  });

  const deps = () => ({ db: database.db, instance: 'tr', kick: () => undefined, notify: () => undefined });

  it('reruns a scheduled run with the state its start event carried', async () => {
    const id = `sched-${uniqueSuffix()}`;
    await recordRunEvent(deps(), { type: 'runStarted', executionId: id, workflowId: 'wf-s', at: new Date().toISOString(), trigger: 'schedule', deploymentVersion: 2, state: state('return "kept"') });
    await executions.rerun(id, 'f', { wait: false, stream: false, newExecutionId: `${id}-again` });
    expect(started.at(-1)).toMatchObject({ executionId: `${id}-again`, workflowId: 'wf-s', deploymentVersion: 2, rerun: { fromBlockId: 'f' }, state: state('return "kept"') });
  });

  it('reruns a deployed run recorded without its state with its deployment version’s state', async () => {
    const id = `old-${uniqueSuffix()}`;
    deployed.set('wf-old@3', state('return "v3"'));
    await createExecution(database.db, { executionId: id, workflowId: 'wf-old', trigger: 'schedule', input: null, deploymentVersion: 3 });
    await executions.rerun(id, 'f', { wait: false, stream: false, newExecutionId: `${id}-again` });
    expect(started.at(-1)).toMatchObject({ executionId: `${id}-again`, deploymentVersion: 3, state: state('return "v3"') });
  });

  it("a rerun of a rerun that reused a loop takes the loop's body outputs from the run before (the rerun ran no body block)", async () => {
    const looped: RunnableState = {
      blocks: {
        s: { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: {} },
        l: { id: 'l', type: 'loop', name: 'Loop', enabled: true, subBlocks: {}, data: { loopType: 'for', count: 2 } },
        work: { id: 'work', type: 'function', name: 'Work', enabled: true, subBlocks: {}, data: { parentId: 'l' } },
        after: { id: 'after', type: 'function', name: 'After', enabled: true, subBlocks: {} },
      },
      edges: [
        { id: 'e1', source: 's', target: 'l' },
        { id: 'e2', source: 'l', target: 'work', sourceHandle: 'loop-start-source' },
        { id: 'e3', source: 'l', target: 'after', sourceHandle: 'loop-end-source' },
      ],
    };
    const at = new Date().toISOString();
    const log = (blockId: string, output: unknown, extra: Record<string, unknown> = {}) => ({ blockId, blockName: blockId, blockType: looped.blocks[blockId]?.type ?? 'function', startedAt: at, endedAt: at, durationMs: 1, success: true, output, ...extra });
    const first = `first-${uniqueSuffix()}`;
    await recordRunEvent(deps(), { type: 'runStarted', executionId: first, workflowId: 'wf-loop', at, trigger: 'schedule', state: looped });
    for (const [blockId, output, extra] of [
      ['s', { input: {} }, {}],
      ['work', { result: 0 }, { loopIteration: [0] }],
      ['work', { result: 10 }, { loopIteration: [1] }],
      ['l', { results: [0, 10] }, {}],
    ] as const) {
      await recordRunEvent(deps(), { type: 'blockCompleted', executionId: first, log: log(blockId, output, extra) });
    }
    // The first rerun (from After) reused Start and the loop: its log has the body blocks' logs copied from the first run.
    const second = `second-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: second, workflowId: 'wf-loop', trigger: 'manual', input: {}, state: looped, rerunOf: first });
    for (const blockId of ['s', 'l']) await recordRunEvent(deps(), { type: 'blockCompleted', executionId: second, log: log(blockId, blockId === 's' ? { input: {} } : { results: [0, 10] }, { reused: true }) });
    const expected = { fromBlockId: 'after', outputs: { s: { input: {} }, l: { results: [0, 10] } }, bodyOutputs: { work: { result: 10 } } };
    await executions.rerun(second, 'after', { wait: false, stream: false, newExecutionId: `${second}-again` });
    expect(started.at(-1)?.rerun).toEqual(expected);
    expect((await listBlockLogs(database.db, second)).map((l) => [l.blockId, l.reused === true])).toEqual([['s', true], ['l', true], ['work', true], ['work', true]]);
    // A rerun logged before the copies has no body block: the outputs come from the run it reran.
    await sql`delete from block_logs where execution_id = ${second} and loop_iteration is not null`.execute(database.db);
    expect((await listBlockLogs(database.db, second)).map((l) => l.blockId)).toEqual(['s', 'l']);
    await executions.rerun(second, 'after', { wait: false, stream: false, newExecutionId: `${second}-legacy` });
    expect(started.at(-1)?.rerun).toEqual(expected);
  });

  it('a rerun from a loop, or from a block in its body, reruns the blocks the loop lists as its body (no data.parentId), as the run places them: none of their earlier outputs is reused', async () => {
    const fn = (id: string, name: string) => ({ id, type: 'function', name, enabled: true, subBlocks: {} });
    const listed: RunnableState = {
      blocks: {
        s: { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: {} },
        l: { id: 'l', type: 'loop', name: 'Loop', enabled: true, subBlocks: {}, data: { loopType: 'for', count: 1 } },
        work: fn('work', 'Work'),
        inner: { id: 'inner', type: 'loop', name: 'Inner', enabled: true, subBlocks: {}, data: { loopType: 'for', count: 1 } },
        deep: fn('deep', 'Deep'),
        after: fn('after', 'After'),
      },
      edges: [
        { id: 'e1', source: 's', target: 'l' },
        { id: 'e2', source: 'l', target: 'work', sourceHandle: 'loop-start-source' },
        { id: 'e3', source: 'work', target: 'inner' },
        { id: 'e4', source: 'inner', target: 'deep', sourceHandle: 'loop-start-source' },
        { id: 'e5', source: 'l', target: 'after', sourceHandle: 'loop-end-source' },
      ],
      // Membership by the lists alone, as a state written before data.parentId was kept.
      loops: { l: { id: 'l', nodes: ['work', 'inner'] }, inner: { id: 'inner', nodes: ['deep'] } },
    };
    const at = new Date().toISOString();
    const id = `listed-${uniqueSuffix()}`;
    await recordRunEvent(deps(), { type: 'runStarted', executionId: id, workflowId: 'wf-listed', at, trigger: 'schedule', state: listed });
    for (const [blockId, output, extra] of [
      ['s', { input: {} }, {}],
      ['work', { result: 1 }, { loopIteration: [0] }],
      ['deep', { result: 2 }, { loopIteration: [0, 0] }],
      ['inner', { results: [2] }, { loopIteration: [0] }],
      ['l', { results: [1] }, {}],
      ['after', { result: 3 }, {}],
    ] as Array<[string, unknown, { loopIteration?: number[] }]>) {
      const log = { blockId, blockName: blockId, blockType: listed.blocks[blockId]?.type ?? 'function', startedAt: at, endedAt: at, durationMs: 1, success: true, output, ...extra };
      await recordRunEvent(deps(), { type: 'blockCompleted', executionId: id, log });
    }
    // From the loop: its body (work, inner, deep) runs again; only Start is reused (was: work's and deep's outputs too).
    await executions.rerun(id, 'l', { wait: false, stream: false, newExecutionId: `${id}-loop` });
    expect(started.at(-1)?.rerun).toEqual({ fromBlockId: 'l', outputs: { s: { input: {} } } });
    // From Work: Inner follows it, and Deep is Inner's body by the list (was: Deep's output reused).
    await executions.rerun(id, 'work', { wait: false, stream: false, newExecutionId: `${id}-work` });
    expect(started.at(-1)?.rerun).toEqual({ fromBlockId: 'work', outputs: { s: { input: {} }, l: { results: [1] }, after: { result: 3 } } });
  });

  it('refuses, naming the run, a run without its state and no deployment version to recover it from', async () => {
    const gone = `gone-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: gone, workflowId: 'wf-gone', trigger: 'schedule', input: null, deploymentVersion: 9 });
    await expect(executions.rerun(gone, 'f', { wait: false, stream: false })).rejects.toThrow(`Execution ${gone} cannot be rerun: the state it ran was not kept`);
    const child = `child-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: child, workflowId: 'wf-child', trigger: 'workflow', input: null });
    await expect(executions.rerun(child, 'f', { wait: false, stream: false })).rejects.toThrow(`Execution ${child} cannot be rerun: the state it ran was not kept`);
  });

  it('refuses a rerun from constructor or toString when the run it reruns has no block so named (was taken as a block: the rerun ran nothing)', async () => {
    const id = `builtin-${uniqueSuffix()}`;
    await recordRunEvent(deps(), { type: 'runStarted', executionId: id, workflowId: 'wf-b', at: new Date().toISOString(), trigger: 'schedule', state: state('return 1') });
    const count = started.length;
    for (const fromBlockId of ['constructor', 'toString']) {
      await expect(executions.rerun(id, fromBlockId, { wait: false, stream: false })).rejects.toThrow(`fromBlockId: no block ${fromBlockId} in the workflow this execution ran`);
    }
    expect(started).toHaveLength(count);
  });
});

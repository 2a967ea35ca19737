import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, uniqueSuffix } from '@weft/testkit';
import { createLogger, type Database } from '@weft/platform';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createExecution, recordRunEvent } from './executionsStore.js';
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

  it('refuses, naming the run, a run without its state and no deployment version to recover it from', async () => {
    const gone = `gone-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: gone, workflowId: 'wf-gone', trigger: 'schedule', input: null, deploymentVersion: 9 });
    await expect(executions.rerun(gone, 'f', { wait: false, stream: false })).rejects.toThrow(`Execution ${gone} cannot be rerun: the state it ran was not kept`);
    const child = `child-${uniqueSuffix()}`;
    await createExecution(database.db, { executionId: child, workflowId: 'wf-child', trigger: 'workflow', input: null });
    await expect(executions.rerun(child, 'f', { wait: false, stream: false })).rejects.toThrow(`Execution ${child} cannot be rerun: the state it ran was not kept`);
  });
});

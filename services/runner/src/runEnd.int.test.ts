import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { backingEnv, createTestDatabase, uniqueSuffix } from '@weft/testkit';
import { createLogger, temporalLogger, type Database } from '@weft/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunEventQueue, createRunLogActivities, createRunStartActivity, runLogSinks } from './activities/runLog.js';
import { createTemporalEngine } from './adapters/temporal.js';
import type { RunnerDB } from './db.js';
import { createExecutions, type Executions } from './executions.js';
import { getExecution, recordRunEvents, type RunLogDeps } from './executionsStore.js';
import { migrations } from './migrations/index.js';
import { graphOf, workflowBundle } from './testing/engineHarness.js';
import { memoryActivities } from './testing/patchStub.js';
import type { RunEvent } from './workflows/types.js';

/** Deeper than JSON.stringify can walk (about 4,500 levels). */
const DEPTH = 5_000;

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/**
 * The run's own `runCompleted` carries an output too deep to store (given here to the real store,
 * as a block's output built that deep would reach it; deepValues.int.test.ts builds one): the
 * activity fails for good, the workflow fails, and the API's watcher records the run's end.
 */
const deepEnd = (deps: RunLogDeps, events: RunEvent[]) =>
  recordRunEvents(deps, events.map((e) => (e.type === 'runCompleted' && e.result.success ? { ...e, result: { ...e.result, output: nested(DEPTH) } } : e)));

describe('a run whose end cannot be recorded (real Temporal server and Postgres)', () => {
  let database: Database<RunnerDB> & { drop(): Promise<void> };
  let connection: Connection;
  let native: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  let executions: Executions;

  beforeAll(async () => {
    try {
      Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
    } catch {
      // Installed already by another test file of this process.
    }
    const { temporalAddress } = await backingEnv();
    database = await createTestDatabase<RunnerDB>('runend', migrations);
    const deps: RunLogDeps = { db: database.db, instance: 'te', kick: () => undefined, notify: () => undefined };
    const logger = createLogger('run-end', 'silent');
    connection = await Connection.connect({ address: temporalAddress });
    native = await NativeConnection.connect({ address: temporalAddress });
    const queue = `run-end-${uniqueSuffix()}`;
    const events = createRunEventQueue({ ...deps, logger });
    const runLog = createRunLogActivities(deps, events, deepEnd);
    const { activities } = memoryActivities({});
    worker = await Worker.create({
      connection: native,
      taskQueue: queue,
      workflowBundle: await workflowBundle(),
      activities: { ...activities, ...runLog, ...createRunStartActivity(runLog, activities) },
      sinks: runLogSinks(events),
    });
    running = worker.run();
    executions = createExecutions({
      ...deps,
      live: { notify: () => undefined, watch: () => ({ next: async () => false, close: () => undefined }) },
      logger,
      engine: createTemporalEngine({ client: new Client({ connection }), taskQueue: queue, integrationsTaskQueue: `run-end-tools-${uniqueSuffix()}` }),
      loadDraft: () => Promise.reject(new Error('no drafts here')),
    });
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await native?.close();
    await connection?.close();
    await database?.drop();
  });

  it("records the run failed saying its end could not be recorded and why, keeping the last blocks' logs", async () => {
    const state = graphOf(
      { s: { type: 'starter', name: 'Start' }, r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"ok": true}' } } },
      [['s', 'r']],
    );
    const view = await executions.start({ workflowId: 'wf-end', input: null, trigger: 'manual', state, wait: true, stream: false });
    expect(view.status).toBe('failed');
    expect(view.error).toMatch(
      new RegExp(`^The run's end could not be recorded: Run events \\([a-zA-Z, ]*runCompleted\\) of execution ${view.executionId} cannot be recorded: a value in them is nested too deeply to store \\(.+\\)$`),
    );
    // The last blocks' logs were held for the end: written on their own when the end could not be.
    const stored = await getExecution(database.db, view.executionId);
    expect(stored.logs?.map((l) => [l.blockId, l.status])).toEqual([['s', 'succeeded'], ['r', 'succeeded']]);
  }, 120_000);
});

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ExecuteFunctionInput, IntegrationActivities } from '@weft/contracts';
import { backingEnv, uniqueSuffix } from '@weft/testkit';
import { createLogger, temporalLogger } from '@weft/platform';
import type { runWorkflow } from './index.js';
import type { RunnableState } from './types.js';

const workflowsPath = fileURLToPath(new URL('./index.ts', import.meta.url));

/** An integrations worker stand-in: evaluates the one expression shape these tests use. */
function fakeIntegrations(calls: ExecuteFunctionInput[]): IntegrationActivities {
  return {
    async executeFunction(input) {
      calls.push(input);
      const m = /^return (\d+) \+ (\d+)$/.exec(input.code);
      const now = new Date().toISOString();
      const timing = { startTime: now, endTime: now, duration: 0 };
      return m ? { success: true, output: { result: Number(m[1]) + Number(m[2]), stdout: '' }, timing } : { success: false, output: { result: null, stdout: '' }, error: 'SyntaxError: unexpected', timing };
    },
  };
}

function graph(code: string): RunnableState {
  return {
    blocks: {
      s: { id: 's', type: 'starter', name: 'Start', enabled: true, subBlocks: {} },
      f: { id: 'f', type: 'function', name: 'Function 1', enabled: true, subBlocks: { code: { id: 'code', type: 'code', value: code } } },
    },
    edges: [{ id: 'e', source: 's', target: 'f' }],
  };
}

describe('runWorkflow on a real Temporal server', () => {
  let connection: Connection;
  let client: Client;
  let native: NativeConnection;
  const queue = `runner-test-${uniqueSuffix()}`;
  const toolQueue = `integrations-test-${uniqueSuffix()}`;

  beforeAll(async () => {
    Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
    const { temporalAddress } = await backingEnv();
    connection = await Connection.connect({ address: temporalAddress });
    client = new Client({ connection });
    native = await NativeConnection.connect({ address: temporalAddress });
  });

  afterAll(async () => {
    await native?.close();
    await connection?.close();
  });

  const start = (state: RunnableState, id: string) =>
    client.workflow.start<typeof runWorkflow>('runWorkflow', {
      taskQueue: queue,
      workflowId: id,
      args: [{ executionId: id, workflowId: 'wf', state, input: { x: 1 }, requestId: 'req-1', integrationsTaskQueue: toolQueue }],
    });

  it('walks starter → function with the function as an activity, survives a late tool worker, and replays deterministically', async () => {
    const calls: ExecuteFunctionInput[] = [];
    const workflowWorker = await Worker.create({ connection: native, taskQueue: queue, workflowsPath });
    await workflowWorker.runUntil(async () => {
      const handle = await start(graph('return 40 + 2'), `run-${uniqueSuffix()}`);
      // No integrations worker yet: the run waits durably instead of failing.
      await new Promise((r) => setTimeout(r, 500));
      expect((await handle.describe()).status.name).toBe('RUNNING');
      const toolWorker = await Worker.create({ connection: native, taskQueue: toolQueue, activities: fakeIntegrations(calls) });
      const result = await toolWorker.runUntil(handle.result());
      expect(result.success).toBe(true);
      expect(result.output).toEqual({ result: 42, stdout: '' });
      expect(result.logs.map((l) => l.blockType)).toEqual(['starter', 'function']);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ code: 'return 40 + 2', requestId: 'req-1', params: { input: { x: 1 } } });
      const history = await handle.fetchHistory();
      await Worker.runReplayHistory({ workflowsPath }, history);
    });
  });

  it('fails the run with the block name when a function fails', async () => {
    const workflowWorker = await Worker.create({ connection: native, taskQueue: queue, workflowsPath });
    const toolWorker = await Worker.create({ connection: native, taskQueue: toolQueue, activities: fakeIntegrations([]) });
    const result = await workflowWorker.runUntil(toolWorker.runUntil(start(graph('nonsense'), `run-${uniqueSuffix()}`).then((h) => h.result())));
    expect(result.success).toBe(false);
    expect(result.error).toBe('Function 1: SyntaxError: unexpected');
  });
});

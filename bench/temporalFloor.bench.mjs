// The floor under every runner figure (issue 10): what the Temporal dev server and the TypeScript
// SDK cost on this machine with no Weft code at all. One bare worker in this process, on the same
// server the stack uses: an empty workflow started and awaited (p50), a chain of 100 activities
// (per activity) and a chain of 100 local activities (per local activity). The last activity chain's
// history is read back and each step split (p50): the workflow task waiting from scheduled to started
// (the server's dispatch: ~35 ms when the history service read its transfer queue 20 times a second),
// the workflow task from started to completed (the worker) and the activity from started to completed.
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';

const EMPTY_RUNS = Number(process.env.BENCH_FLOOR_EMPTY_RUNS ?? 50);
const CHAIN = 100;
const CHAIN_RUNS = Number(process.env.BENCH_FLOOR_CHAIN_RUNS ?? 3);

const p50 = (values) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] * 10) / 10;

export async function run({ log }) {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already by another bench of this process.
  }
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const connection = await NativeConnection.connect({ address });
  const client = new Client({ connection: await Connection.connect({ address }) });
  const taskQueue = `bench-floor-${Date.now()}`;
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./temporalFloor.workflows.mjs', import.meta.url)), logger: new DefaultLogger('ERROR') });
  const worker = await Worker.create({ connection, taskQueue, workflowBundle, activities: { ping: async (i) => i } });
  const result = {};
  await worker.runUntil(async () => {
    const execute = async (type, args = [], workflowId = `floor-${type}-${Math.random().toString(36).slice(2)}`) => {
      const started = performance.now();
      await client.workflow.execute(type, { taskQueue, workflowId, args });
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await execute('empty');
    const empty = [];
    for (let i = 0; i < EMPTY_RUNS; i++) empty.push(await execute('empty'));
    const chain = [];
    const localChain = [];
    let lastChainId;
    for (let i = 0; i < CHAIN_RUNS; i++) {
      lastChainId = `floor-activityChain-${Math.random().toString(36).slice(2)}`;
      chain.push((await execute('activityChain', [CHAIN], lastChainId)) / CHAIN);
      localChain.push((await execute('localActivityChain', [CHAIN])) / CHAIN);
    }
    const activityChainP50Ms = lastChainId ? await phases(client, lastChainId) : undefined;
    Object.assign(result, { emptyWorkflowP50Ms: p50(empty), perActivityP50Ms: p50(chain), perLocalActivityP50Ms: p50(localChain), activityChainP50Ms });
  });
  await connection.close();
  log(`temporal floor: ${JSON.stringify(result)}`);
  return result;
}

/** The steps of an activity chain's history, p50 each: see the head of this file. */
async function phases(client, workflowId) {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const at = (e) => Number(e.eventTime.seconds) * 1000 + e.eventTime.nanos / 1e6;
  const steps = { workflowTaskDispatch: [], workflowTask: [], activity: [] };
  let scheduled, started, activityStarted;
  for (const e of events) {
    if (e.workflowTaskScheduledEventAttributes) scheduled = at(e);
    if (e.workflowTaskStartedEventAttributes) {
      started = at(e);
      if (scheduled !== undefined) steps.workflowTaskDispatch.push(started - scheduled);
    }
    if (e.workflowTaskCompletedEventAttributes && started !== undefined) steps.workflowTask.push(at(e) - started);
    if (e.activityTaskStartedEventAttributes) activityStarted = at(e);
    if (e.activityTaskCompletedEventAttributes && activityStarted !== undefined) steps.activity.push(at(e) - activityStarted);
  }
  return Object.fromEntries(Object.entries(steps).map(([step, values]) => [step, p50(values)]));
}

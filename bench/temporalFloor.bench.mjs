// The floor under every runner figure (issue 10): what the Temporal dev server and the TypeScript
// SDK cost on this machine with no Weft code at all. One bare worker in this process, on the same
// server the stack uses: an empty workflow started and awaited (p50), a chain of 100 activities
// (per activity) and a chain of 100 local activities (per local activity).
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
    const execute = async (type, args = []) => {
      const started = performance.now();
      await client.workflow.execute(type, { taskQueue, workflowId: `floor-${type}-${Math.random().toString(36).slice(2)}`, args });
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await execute('empty');
    const empty = [];
    for (let i = 0; i < EMPTY_RUNS; i++) empty.push(await execute('empty'));
    const chain = [];
    const localChain = [];
    for (let i = 0; i < CHAIN_RUNS; i++) {
      chain.push((await execute('activityChain', [CHAIN])) / CHAIN);
      localChain.push((await execute('localActivityChain', [CHAIN])) / CHAIN);
    }
    Object.assign(result, { emptyWorkflowP50Ms: p50(empty), perActivityP50Ms: p50(chain), perLocalActivityP50Ms: p50(localChain) });
  });
  await connection.close();
  log(`temporal floor: ${JSON.stringify(result)}`);
  return result;
}

/**
 * A stand-in integrations worker for the durability tests (run as its own process, so a test can
 * kill -9 it): serves `executeFunction` on WEFT_QUEUE by running the code as an async JavaScript
 * function of `params`, `environmentVariables` and `sleep(ms)`, heartbeating while it runs, and
 * appends one JSON line per call start and per completed call to WEFT_CALLS_FILE.
 */
import { appendFileSync } from 'node:fs';
import { Context } from '@temporalio/activity';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ExecuteFunctionInput, ExecuteFunctionOutput } from '@weft/contracts';
import { weftDataConverter } from '@weft/platform';

const queue = process.env.WEFT_QUEUE ?? '';
const callsFile = process.env.WEFT_CALLS_FILE ?? '';
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;

function note(kind: 'start' | 'done', extra: Record<string, unknown>): void {
  const info = Context.current().info;
  const line = { kind, pid: process.pid, workflowId: info.workflowExecution?.workflowId, activityId: info.activityId, attempt: info.attempt, ...extra };
  appendFileSync(callsFile, `${JSON.stringify(line)}\n`);
}

async function executeFunction(input: ExecuteFunctionInput): Promise<ExecuteFunctionOutput> {
  const startTime = new Date().toISOString();
  note('start', { code: input.code });
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), 200);
  try {
    const sleep = (ms: number) => ctx.sleep(ms);
    const result = await new AsyncFunction('params', 'environmentVariables', 'sleep', input.code)(input.params, input.envVars, sleep);
    note('done', { result });
    const endTime = new Date().toISOString();
    return { success: true, output: { result, stdout: '' }, timing: { startTime, endTime, duration: Date.parse(endTime) - Date.parse(startTime) } };
  } finally {
    clearInterval(beat);
  }
}

Runtime.install({ shutdownSignals: [] });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
const worker = await Worker.create({
  connection,
  // The runner encrypts payloads; this worker reads and writes them with the same key.
  dataConverter: weftDataConverter(),
  taskQueue: queue,
  activities: { executeFunction, executeTool: () => Promise.reject(new Error('no tools in the durability tests')) },
});
process.on('SIGTERM', () => worker.shutdown());
process.stdout.write('ready\n');
await worker.run();
await connection.close();

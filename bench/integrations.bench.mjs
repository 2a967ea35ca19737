// Integrations benchmark (issue 11), run with `npm run bench -- integrations`. No Weft workflow is
// involved: a driver workflow of its own schedules HTTP-tool activities on a task queue served by
// one, then two, integration worker processes (bench/integrations.worker.mjs, the service's real
// tool runtime), each taking at most WORKER_CONCURRENCY activities at once, against a local server
// that answers every request after 50 ms. Measured:
// - throughput with 1 worker and with 2 (target ≥ 1.8×);
// - the execution layer's overhead beyond the request: each tool result's duration minus the
//   server's 50 ms (target ≤ 2 ms at p50);
// - the sandbox. Every call already gets a fresh QuickJS runtime (nothing is kept between calls), so
//   the sandbox's cold start is what each call on a started pool costs (`callMs`, target p50 ≤ 5 ms;
//   the warm-call target of ≤ 1 ms is compared to the same figure, as no call is warmer). Starting a
//   pool (worker thread, QuickJS WebAssembly) is paid once per process and reported as `poolStartMs`.
// On a shared two-core machine the Temporal dev server's dispatch, not the workers, can set the
// ceiling; WORKER_CONCURRENCY is kept low so the workers are what the throughput measures.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { SandboxPool } from '../services/integrations/dist/function/sandbox.js';

const SERVER_MS = 50;
const COUNT = Number(process.env.BENCH_TOOL_CALLS ?? 400);
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 2);
const SANDBOX_RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 200);
const COLD_STARTS = Number(process.env.BENCH_SANDBOX_COLD ?? 10);
const here = path.dirname(fileURLToPath(import.meta.url));

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (v) => Math.round(v * 100) / 100;
const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), n: s.length };
};

function startServer() {
  const server = http.createServer((req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    }, SERVER_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Starts one worker process on the queue; answers a stop function once it polls. */
function startWorker(taskQueue, env) {
  const child = spawn(process.execPath, [path.join(here, 'integrations.worker.mjs'), taskQueue, String(WORKER_CONCURRENCY)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker exited with ${code}`)));
    child.stdout.on('data', (d) => {
      if (String(d).includes('ready')) {
        child.removeAllListeners('exit');
        resolve({
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

async function throughput(client, workerCount, url, env, driverQueue) {
  const taskQueue = `bench-tools-${randomBytes(4).toString('hex')}`;
  const workers = [];
  for (let i = 0; i < workerCount; i++) workers.push(await startWorker(taskQueue, env));
  try {
    // A short warm-up so connections and code paths are hot.
    await client.workflow.execute('toolLoad', { taskQueue: driverQueue, workflowId: `warm-${taskQueue}`, args: [{ taskQueue, url, count: 20 * workerCount }] });
    const started = performance.now();
    const results = await client.workflow.execute('toolLoad', { taskQueue: driverQueue, workflowId: `load-${taskQueue}`, args: [{ taskQueue, url, count: COUNT }] });
    const seconds = (performance.now() - started) / 1000;
    const failed = results.filter((r) => !r.success).length;
    if (failed > 0) throw new Error(`${failed} tool calls failed: ${results.find((r) => !r.success)?.error}`);
    return { callsPerSecond: round(COUNT / seconds), overheadMs: stats(results.map((r) => r.timing.duration - SERVER_MS)) };
  } finally {
    for (const w of workers) await w.stop();
  }
}

async function sandbox() {
  const cold = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const started = performance.now();
    const pool = new SandboxPool({ size: 1 });
    await pool.run({ code: 'return 1', params: {}, envVars: {} });
    cold.push(performance.now() - started);
    await pool.close();
  }
  const pool = new SandboxPool({ size: 1 });
  const warm = [];
  try {
    for (let i = 0; i < 20; i++) await pool.run({ code: 'return params.a + 1', params: { a: i }, envVars: {} });
    for (let i = 0; i < SANDBOX_RUNS; i++) {
      const started = performance.now();
      await pool.run({ code: 'return params.a + 1', params: { a: i }, envVars: {} });
      warm.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return { poolStartMs: stats(cold), callMs: stats(warm) };
}

export async function run({ log }) {
  const env = { ...process.env };
  const server = await startServer();
  const url = `http://127.0.0.1:${server.address().port}/answer`;
  try {
    Runtime.install({ logger: temporalLogger(createLogger('bench', 'warn')), shutdownSignals: [] });
  } catch {
    // installed by another bench of this process
  }
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const native = await NativeConnection.connect({ address });
  const driverQueue = `bench-driver-${randomBytes(4).toString('hex')}`;
  const bundle = await bundleWorkflowCode({ workflowsPath: path.join(here, 'integrations.workflows.mjs'), logger: temporalLogger(createLogger('bundle', 'warn')) });
  const driver = await Worker.create({ connection: native, taskQueue: driverQueue, workflowBundle: bundle });
  const driving = driver.run();
  try {
    log(`integrations: ${COUNT} HTTP-tool activities, 1 worker`);
    const one = await throughput(client, 1, url, env, driverQueue);
    log(`integrations: ${COUNT} HTTP-tool activities, 2 workers`);
    const two = await throughput(client, 2, url, env, driverQueue);
    log('integrations: sandbox');
    const box = await sandbox();
    return {
      serverMs: SERVER_MS,
      workerConcurrency: WORKER_CONCURRENCY,
      oneWorker: one,
      twoWorkers: two,
      scaling: round(two.callsPerSecond / one.callsPerSecond),
      scalingTarget: 1.8,
      overheadTargetP50Ms: 2,
      sandbox: box,
      sandboxTargets: { coldStartP50Ms: 5, warmCallP50Ms: 1, comparedWith: 'callMs' },
    };
  } finally {
    driver.shutdown();
    await driving;
    await native.close();
    await connection.close();
    server.close();
  }
}

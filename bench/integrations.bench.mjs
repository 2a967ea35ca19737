// Integrations benchmark (issue 11), run with `npm run bench -- integrations`. No Weft workflow is
// involved: driver workflows of its own schedule HTTP-tool activities on a task queue served by
// one, then two, integration worker processes (bench/integrations.worker.mjs, the service's real
// tool runtime), each taking at most WORKER_CONCURRENCY activities at once, against a local server
// that answers every request after 50 ms. Measured:
// - Temporal's dispatch ceiling (no-op activities, unlimited room), then throughput with 1 worker
//   and with 2 (target ≥ 1.8×);
// - the execution layer's overhead beyond the request: each tool result's duration minus the
//   server's 50 ms (`overheadMs`), and minus the time the server really held it
//   (`overheadBeyondServedMs`, its timer fires late under load) (target ≤ 2 ms at p50);
// - the sandbox. Every call already gets a fresh QuickJS runtime (nothing is kept between calls), so
//   the sandbox's cold start is what each call on a started pool costs (`callMs`, target p50 ≤ 5 ms;
//   the warm-call target of ≤ 1 ms is compared to the same figure, as no call is warmer). Starting a
//   pool (worker thread, QuickJS WebAssembly) is paid once per process and reported as `poolStartMs`.
// What kept 2 workers near 1× before: the shared Temporal dev server (file-backed, serving every
// other test run on the machine) set a ceiling far below the workers', and one driver workflow
// serialised every activity's start and completion on its own mutable state. The bench now starts
// its own in-memory dev server (BENCH_OWN_TEMPORAL=0 uses TEMPORAL_ADDRESS) and spreads the calls
// over BENCH_DRIVERS workflows. WORKER_CONCURRENCY stays low so the workers are what is measured.
import http from 'node:http';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { SandboxPool } from '../services/integrations/dist/function/sandbox.js';
import { TEMPORAL_DEV_SERVER_FLAGS, temporalBinaryPath } from '../infra/scripts/lib/backing.mjs';

const SERVER_MS = 50;
const COUNT = Number(process.env.BENCH_TOOL_CALLS ?? 400);
const WORKER_CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 2);
const SANDBOX_RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 200);
const COLD_STARTS = Number(process.env.BENCH_SANDBOX_COLD ?? 10);
/**
 * Driver workflows the calls are spread over. Temporal records every activity's start and completion
 * on its workflow's mutable state under that workflow's lock, so one driver with all the calls
 * serialises them in the history service whatever the number of workers (the 1.13× of the first run).
 */
const DRIVERS = Number(process.env.BENCH_DRIVERS ?? 20);
/**
 * A Temporal dev server of the bench's own (in memory, on a free port) unless BENCH_OWN_TEMPORAL=0:
 * the shared one on 7233 also serves every other session's tests, which then set the ceiling.
 */
const OWN_TEMPORAL = process.env.BENCH_OWN_TEMPORAL !== '0';
const here = path.dirname(fileURLToPath(import.meta.url));

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (v) => Math.round(v * 100) / 100;
const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), n: s.length };
};

function startServer() {
  // Each answer says how long the server held the request (its 50 ms timer fires late on a loaded
  // machine), so the layer's overhead is measured beyond what the server really took.
  const server = http.createServer((req, res) => {
    const arrived = performance.now();
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, servedMs: performance.now() - arrived }));
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

/** `count` calls spread over DRIVERS driver workflows at once; answers every tool result. */
async function load(client, driverQueue, prefix, args, count) {
  const drivers = Math.max(1, Math.min(DRIVERS, count));
  const parts = Array.from({ length: drivers }, (_, i) => Math.floor(count / drivers) + (i < count % drivers ? 1 : 0));
  try {
    const answers = await Promise.all(parts.map((n, i) => client.workflow.execute('toolLoad', { taskQueue: driverQueue, workflowId: `${prefix}-${i}`, args: [{ ...args, count: n }] })));
    return answers.flat();
  } catch (err) {
    // Name what failed (a driver's failure says only "Workflow execution failed").
    const causes = [];
    for (let e = err; e; e = e.cause) causes.push(e.message);
    throw new Error(`${prefix}: ${causes.join(' <- ')}`);
  }
}

/**
 * Temporal's own ceiling on this machine: the same load answered by an in-process activity that
 * returns at once, with room for every call. Worker scaling can only show below this figure.
 */
async function dispatchCeiling(client, native, driverQueue) {
  const taskQueue = `bench-noop-${randomBytes(4).toString('hex')}`;
  const executeTool = async () => ({ success: true, output: {}, timing: { startTime: '', endTime: '', duration: 0 } });
  const worker = await Worker.create({ connection: native, taskQueue, activities: { executeTool }, maxConcurrentActivityTaskExecutions: 200 });
  const running = worker.run();
  try {
    await load(client, driverQueue, `warm-${taskQueue}`, { taskQueue, url: '' }, 40);
    const started = performance.now();
    await load(client, driverQueue, `load-${taskQueue}`, { taskQueue, url: '' }, COUNT);
    return { callsPerSecond: round(COUNT / ((performance.now() - started) / 1000)) };
  } finally {
    worker.shutdown();
    await running;
  }
}

async function throughput(client, workerCount, url, env, driverQueue) {
  const taskQueue = `bench-tools-${randomBytes(4).toString('hex')}`;
  const workers = [];
  for (let i = 0; i < workerCount; i++) workers.push(await startWorker(taskQueue, env));
  try {
    // A short warm-up so connections and code paths are hot.
    await load(client, driverQueue, `warm-${taskQueue}`, { taskQueue, url }, 20 * workerCount);
    const started = performance.now();
    const results = await load(client, driverQueue, `load-${taskQueue}`, { taskQueue, url }, COUNT);
    const seconds = (performance.now() - started) / 1000;
    const failed = results.filter((r) => !r.success).length;
    if (failed > 0) throw new Error(`${failed} tool calls failed: ${results.find((r) => !r.success)?.error}`);
    return {
      callsPerSecond: round(COUNT / seconds),
      overheadMs: stats(results.map((r) => r.timing.duration - SERVER_MS)),
      overheadBeyondServedMs: stats(results.map((r) => r.timing.duration - r.output.data.servedMs)),
    };
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

async function freePort() {
  const probe = http.createServer();
  await new Promise((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address();
  await new Promise((r) => probe.close(r));
  return port;
}

/** Starts a private dev server; answers its address and a stop function. */
async function startTemporal(log) {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const args = ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error', ...TEMPORAL_DEV_SERVER_FLAGS];
  log(`integrations: own Temporal dev server at ${address}`);
  const child = spawn(temporalBinaryPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const probe = await Connection.connect({ address, connectTimeout: 1000 });
      await probe.workflowService.getSystemInfo({});
      await probe.close();
      break;
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new Error(`own Temporal dev server did not start (exit ${child.exitCode}): ${err.message}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return { address, stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', r), child.kill('SIGTERM')))) };
}

export async function run({ log }) {
  const temporal = OWN_TEMPORAL ? await startTemporal(log) : null;
  const address = temporal?.address ?? process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const env = { ...process.env, TEMPORAL_ADDRESS: address };
  const server = await startServer();
  const url = `http://127.0.0.1:${server.address().port}/answer`;
  try {
    Runtime.install({ logger: temporalLogger(createLogger('bench', 'warn')), shutdownSignals: [] });
  } catch {
    // installed by another bench of this process
  }
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const native = await NativeConnection.connect({ address });
  const driverQueue = `bench-driver-${randomBytes(4).toString('hex')}`;
  const bundle = await bundleWorkflowCode({ workflowsPath: path.join(here, 'integrations.workflows.mjs'), logger: temporalLogger(createLogger('bundle', 'warn')) });
  const driver = await Worker.create({ connection: native, taskQueue: driverQueue, workflowBundle: bundle });
  const driving = driver.run();
  try {
    log(`integrations: Temporal's dispatch ceiling, ${COUNT} no-op activities over ${DRIVERS} drivers`);
    const ceiling = await dispatchCeiling(client, native, driverQueue);
    log(`integrations: ${COUNT} HTTP-tool activities, 1 worker`);
    const one = await throughput(client, 1, url, env, driverQueue);
    log(`integrations: ${COUNT} HTTP-tool activities, 2 workers`);
    const two = await throughput(client, 2, url, env, driverQueue);
    log('integrations: sandbox');
    const box = await sandbox();
    return {
      serverMs: SERVER_MS,
      workerConcurrency: WORKER_CONCURRENCY,
      drivers: DRIVERS,
      temporal: OWN_TEMPORAL ? 'own dev server (in memory)' : address,
      loadAverage: os.loadavg().map(round),
      dispatchCeiling: ceiling,
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
    await temporal?.stop();
  }
}

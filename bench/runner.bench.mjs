// Runner benchmark (issue 10), run with `npm run bench -- runner`. Every run goes through the
// gateway's POST /api/workflows/{id}/execute (sync API answer), whole stack on the machine:
// - starter → function (`return 40 + 2`) → response: p50 latency of one run alone and runs/s with
//   20 concurrent clients (targets p50 ≤ 25 ms, ≥ 150 runs/s on 2 cores);
// - a chain of 100 function blocks: overhead per block beyond the function's own time at p50
//   (target ≤ 3 ms). The function's own time is a sandbox call of the same code measured in this
//   process on the integrations service's pool (the overhead is the run's time / 100 minus that);
// - a parallel of 50 branches of a 200 ms function: wall time (target ≤ 1.5 s). parallelCpu's function
//   is a busy loop: 50 × 200 ms of CPU cannot finish faster than 10 s / cores. parallelTimer's awaits
//   a 200 ms timer (`await new Promise(r => setTimeout(r, 200)); return 1`): the sandbox holds several
//   waiting calls per thread, so it is bound by the fan-out, not the cores. The same parallel over a
//   200 ms wait (an API block against a local server that answers after 200 ms) shows what the
//   runner's fan-out itself costs;
// - a 50 × 50 nested loop of a function returning 300 KB: the run's history events and bytes against
//   Temporal's limits (51,200 events, 50 MB). BENCH_RUNNER_SCENARIOS=nested runs one scenario alone;
//   nestedInline is the same loop of 250 KB outputs, just under the 256 KB a run keeps inline (its
//   1 MB inline budget keeps them out once spent).
// Where the time goes: the chain's Temporal history is read back and each block's cycle split into
// the workflow task (engine code and the run-event local activities, which hold the task open until
// the run log is written), the dispatch of the function activity to the integrations worker, the
// activity itself, and the dispatch of the next workflow task back to the runner.
// The stack starts with the account run limit raised (600 runs/min by default would cap the load)
// and private addresses allowed for the API block's local server.
import http from 'node:http';
import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { SandboxPool } from '../services/integrations/dist/function/sandbox.js';
import { client, workspace } from './editor.bench.mjs';

const CLIENTS = 20;
const LOAD_MS = Number(process.env.BENCH_RUNNER_LOAD_MS ?? 10_000);
const LATENCY_RUNS = Number(process.env.BENCH_RUNNER_LATENCY_RUNS ?? 200);
const CHAIN = 100;
const CHAIN_RUNS = Number(process.env.BENCH_RUNNER_CHAIN_RUNS ?? 5);
const BRANCHES = 50;
const BRANCH_MS = 200;
const PARALLEL_RUNS = Number(process.env.BENCH_RUNNER_PARALLEL_RUNS ?? 3);
/** The nested loop: NESTED × NESTED iterations of a function returning NESTED_OUTPUT_KB of text (0: skipped). */
const NESTED = Number(process.env.BENCH_RUNNER_NESTED ?? 50);
const NESTED_OUTPUT_KB = Number(process.env.BENCH_RUNNER_NESTED_OUTPUT_KB ?? 300);
/** nestedInline's outputs: just under the 256 KB threshold (UTF-8 bytes of the output's JSON). */
const NESTED_INLINE_KB = Number(process.env.BENCH_RUNNER_NESTED_INLINE_KB ?? 250);
/** Scenarios to run (comma-separated names: simple, chain, parallelCpu, parallelTimer, parallelWait, nested, nestedInline); default all. */
const ONLY = process.env.BENCH_RUNNER_SCENARIOS?.split(',').map((n) => n.trim());

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (v) => Math.round(v * 100) / 100;
const p = (values, q) => round(percentile([...values].sort((a, b) => a - b), q));

/** A server answering every request after BRANCH_MS (the wait-bound branch's "function"). */
const slow = { server: undefined };

export async function stackEnv() {
  slow.server = http.createServer((req, res) => {
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), BRANCH_MS);
  });
  await new Promise((r) => slow.server.listen(0, '127.0.0.1', r));
  return { WEFT_RATE_LIMIT_ACCOUNT: '10000000/1s', WEFT_ALLOW_PRIVATE_NETWORK: 'true' };
}

async function ok(promise) {
  const res = await promise;
  if (res.status >= 300) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

const set = (id, subBlockId, value) => ({ type: 'setSubBlockValue', id, subBlockId, value });
const fn = (id, name, code, position, parentId) => [
  { type: 'addBlock', id, blockType: 'function', name, position, ...(parentId ? { parentId } : {}) },
  set(id, 'code', code),
];

/** A new draft workflow built by `build(starterId)`; a session with write access runs the draft. */
async function workflow(http, workspaceId, build) {
  const id = (await ok(http.call('POST', '/api/workflows', { workspaceId }))).body.id;
  const got = await ok(http.call('GET', `/api/workflows/${id}`));
  const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter').id;
  const commands = build(starter);
  for (let i = 0; i < commands.length; i += 100) await ok(http.call('POST', `/api/workflows/${id}/commands`, { commands: commands.slice(i, i + 100) }));
  return id;
}

/** Runs `n` measured runs one after another; a failed run (a loaded dev server may time out) is counted, not measured. */
async function measured(n, once) {
  const times = [];
  let failed = 0;
  let lastError;
  for (let i = 0; i < n; i++) {
    try {
      times.push(await once());
    } catch (err) {
      failed++;
      lastError = err.message;
    }
  }
  if (times.length === 0) throw new Error(`every run failed: ${lastError}`);
  return { times, failed, ...(lastError ? { lastError: lastError.slice(0, 200) } : {}) };
}

async function execute(http, id, input, check) {
  const t = performance.now();
  const res = await http.call('POST', `/api/workflows/${id}/execute`, input);
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`execute answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  if (check && !check(res.body)) throw new Error(`wrong answer: ${JSON.stringify(res.body).slice(0, 300)}`);
  return { ms, body: res.body };
}

async function simple(http, workspaceId, log) {
  const id = await workflow(http, workspaceId, (starter) => [
    ...fn('fn', 'Fn', 'return 40 + 2', { x: 300, y: 100 }),
    { type: 'addEdge', source: starter, target: 'fn' },
    { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 600, y: 100 } },
    set('answer', 'dataMode', 'json'),
    set('answer', 'data', '{"n": <fn.result>}'),
    { type: 'addEdge', source: 'fn', target: 'answer' },
  ]);
  const right = (body) => body?.n === 42;
  await measured(20, () => execute(http, id, {}, right));
  log(`simple: ${LATENCY_RUNS} runs one after another`);
  const alone = await measured(LATENCY_RUNS, async () => (await execute(http, id, {}, right)).ms);
  log(`simple: ${CLIENTS} clients for ${LOAD_MS} ms`);
  const times = [];
  let failed = 0;
  const deadline = Date.now() + LOAD_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < deadline) {
        try {
          times.push((await execute(http, id, {}, right)).ms);
        } catch {
          failed++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    aloneP50Ms: p(alone.times, 50),
    aloneP90Ms: p(alone.times, 90),
    aloneFailed: alone.failed,
    clients: CLIENTS,
    seconds: round(seconds),
    runs: times.length,
    failed,
    runsPerSecond: Math.round(times.length / seconds),
    loadedP50Ms: p(times, 50),
    loadedP90Ms: p(times, 90),
    loadedP99Ms: p(times, 99),
    target: 'p50 ≤ 25 ms alone, ≥ 150 runs/s with 20 clients',
  };
}

/** The function's own time: the chain's code on a sandbox pool in this process. */
async function sandboxCallMs() {
  const pool = new SandboxPool({ size: 1 });
  try {
    for (let i = 0; i < 20; i++) await pool.run({ code: 'return params["<f0.result>"] + 1', params: { '<f0.result>': i }, envVars: {}, timeoutMs: 10_000 });
    const times = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await pool.run({ code: 'return params["<f0.result>"] + 1', params: { '<f0.result>': i }, envVars: {}, timeoutMs: 10_000 });
      times.push(performance.now() - t);
    }
    return p(times, 50);
  } finally {
    await pool.close();
  }
}

const ms = (t) => Number(t.seconds) * 1000 + t.nanos / 1e6;

/** Per-block phases of a run from its history (p50 of each, ms), and its event count and size. */
export async function phases(executionId) {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  try {
    const history = await new Client({ connection }).workflow.getHandle(executionId).fetchHistory();
    const events = history.events ?? [];
    const at = (e) => ms(e.eventTime);
    const by = { workflowTask: [], toActivityStart: [], activity: [], toWorkflowTask: [], localActivityMarkers: 0 };
    let wftStarted;
    let wftCompleted;
    let actScheduled;
    let actStarted;
    let actCompleted;
    for (const e of events) {
      const type = String(e.eventType);
      if (type.endsWith('WORKFLOW_TASK_STARTED') || type === '6') {
        wftStarted = at(e);
        if (actCompleted !== undefined) by.toWorkflowTask.push(wftStarted - actCompleted);
        actCompleted = undefined;
      } else if (type.endsWith('WORKFLOW_TASK_COMPLETED') || type === '7') {
        wftCompleted = at(e);
        if (wftStarted !== undefined) by.workflowTask.push(wftCompleted - wftStarted);
      } else if (type.endsWith('ACTIVITY_TASK_SCHEDULED') || type === '10') actScheduled = at(e);
      else if (type.endsWith('ACTIVITY_TASK_STARTED') || type === '11') {
        actStarted = at(e);
        if (actScheduled !== undefined) by.toActivityStart.push(actStarted - actScheduled);
      } else if (type.endsWith('ACTIVITY_TASK_COMPLETED') || type === '12') {
        actCompleted = at(e);
        if (actStarted !== undefined) by.activity.push(actCompleted - actStarted);
      } else if (type.endsWith('MARKER_RECORDED') || type === '25') by.localActivityMarkers++;
    }
    const { localActivityMarkers, ...timed } = by;
    // The server's own count of the history's size, as of its last workflow task.
    const serverBytes = events.reduce((last, e) => Number(e.workflowTaskStartedEventAttributes?.historySizeBytes ?? last), 0);
    return {
      events: events.length,
      historyBytes: Buffer.byteLength(JSON.stringify(history)),
      serverHistoryBytes: serverBytes,
      localActivityMarkers,
      p50Ms: Object.fromEntries(Object.entries(timed).map(([k, v]) => [k, v.length ? p(v, 50) : null])),
    };
  } finally {
    await connection.close();
  }
}

async function chain(http, workspaceId, log) {
  const id = await workflow(http, workspaceId, (starter) => {
    const commands = [];
    for (let i = 0; i < CHAIN; i++) {
      commands.push(...fn(`f${i}`, `F${i}`, i === 0 ? 'return 1' : `return <f${i - 1}.result> + 1`, { x: 300 + i * 250, y: 100 }));
      commands.push({ type: 'addEdge', source: i === 0 ? starter : `f${i - 1}`, target: `f${i}` });
    }
    return commands;
  });
  const right = (body) => body?.success === true && body.output?.result === CHAIN;
  await measured(2, () => execute(http, id, {}, right)).catch(() => undefined);
  log(`chain: ${CHAIN_RUNS} runs of ${CHAIN} function blocks`);
  let lastId;
  const { times: perBlock, failed } = await measured(CHAIN_RUNS, async () => {
    const res = await execute(http, id, {}, right);
    lastId = res.body.metadata?.executionId;
    return res.ms / CHAIN;
  });
  const history = lastId ? await phases(lastId).catch((err) => ({ error: err.message })) : undefined;
  const own = await sandboxCallMs();
  const perBlockP50 = p(perBlock, 50);
  return { blocks: CHAIN, runs: perBlock.length, failed, perBlockP50Ms: perBlockP50, functionOwnP50Ms: own, overheadPerBlockP50Ms: round(perBlockP50 - own), target: '≤ 3 ms per block at p50', history };
}

async function parallel(http, workspaceId, log, kind) {
  const id = await workflow(http, workspaceId, (starter) => [
    { type: 'addBlock', id: 'par', blockType: 'parallel', name: 'Par', position: { x: 300, y: 100 }, data: { parallelType: 'count', count: BRANCHES } },
    { type: 'addEdge', source: starter, target: 'par' },
    ...(kind === 'cpu'
      ? fn('work', 'Work', `const until = Date.now() + ${BRANCH_MS}; let n = 0; while (Date.now() < until) n++; return <parallel.index>`, { x: 50, y: 50 }, 'par')
      : kind === 'timer'
      ? fn('work', 'Work', `await new Promise(r => setTimeout(r, ${BRANCH_MS})); return 1`, { x: 50, y: 50 }, 'par')
      : [
          { type: 'addBlock', id: 'work', blockType: 'api', name: 'Work', position: { x: 50, y: 50 }, parentId: 'par' },
          set('work', 'url', `http://127.0.0.1:${slow.server.address().port}/wait`),
          set('work', 'method', 'GET'),
        ]),
    { type: 'addEdge', source: 'par', target: 'work', sourceHandle: 'parallel-start-source' },
  ]);
  const right = (body) => body?.success === true && Array.isArray(body.output?.results) && body.output.results.length === BRANCHES;
  await measured(1, () => execute(http, id, {}, right)).catch(() => undefined);
  log(`parallel (${kind}): ${PARALLEL_RUNS} runs of ${BRANCHES} branches of ${BRANCH_MS} ms`);
  const { times: walls, failed } = await measured(PARALLEL_RUNS, async () => (await execute(http, id, {}, right)).ms);
  return { branches: BRANCHES, branchMs: BRANCH_MS, runs: walls.length, failed, wallP50Ms: p(walls, 50), wallMaxMs: round(Math.max(...walls)) };
}

/**
 * A loop of NESTED iterations around a loop of NESTED iterations of one function block whose output
 * is `outputKb` of text (NESTED_OUTPUT_KB, over the 256 KB blob threshold; NESTED_INLINE_KB, just
 * under it): the history must stay far under Temporal's limits (51,200 events, 50 MB) however large
 * the outputs are.
 */
async function nested(http, workspaceId, log, outputKb = NESTED_OUTPUT_KB) {
  const id = await workflow(http, workspaceId, (starter) => [
    { type: 'addBlock', id: 'outer', blockType: 'loop', name: 'Outer', position: { x: 300, y: 100 }, data: { loopType: 'for', count: NESTED } },
    { type: 'addEdge', source: starter, target: 'outer' },
    { type: 'addBlock', id: 'inner', blockType: 'loop', name: 'Inner', position: { x: 50, y: 50 }, parentId: 'outer', data: { loopType: 'for', count: NESTED } },
    { type: 'addEdge', source: 'outer', target: 'inner', sourceHandle: 'loop-start-source' },
    ...fn('big', 'Big', `return String(<loop.index>).padEnd(${outputKb * 1024}, 'x')`, { x: 50, y: 50 }, 'inner'),
    { type: 'addEdge', source: 'inner', target: 'big', sourceHandle: 'loop-start-source' },
  ]);
  log(`nested: one run of ${NESTED} × ${NESTED} blocks of ${outputKb} KB`);
  const right = (body) => body?.success === true && Array.isArray(body.output?.results) && body.output.results.length === NESTED;
  // Asynchronous: the run takes longer than a synchronous answer may wait.
  const t = performance.now();
  const started = await http.call('POST', `/api/workflows/${id}/execute`, {}, { 'x-execution-mode': 'async' });
  if (started.status !== 202) throw new Error(`nested run answered ${started.status}: ${JSON.stringify(started.body).slice(0, 300)}`);
  const { executionId } = started.body;
  let view;
  for (;;) {
    view = (await ok(http.call('GET', `/api/workflows/${id}/executions?limit=1`))).body.executions[0];
    if (view?.executionId === executionId && view.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 2_000));
  }
  const ms = performance.now() - t;
  const ended = (await ok(http.call('GET', `/api/executions/${executionId}`))).body;
  if (ended.status !== 'succeeded' || !right({ success: true, output: ended.output })) throw new Error(`nested run ended ${ended.status}: ${String(ended.error).slice(0, 300)}`);
  const history = await phases(executionId);
  return {
    blocks: NESTED * NESTED,
    outputKb,
    outputsMb: round((NESTED * NESTED * outputKb) / 1024),
    wallMs: Math.round(ms),
    events: history.events,
    historyMb: round(history.historyBytes / 1024 / 1024),
    serverHistoryMb: round(history.serverHistoryBytes / 1024 / 1024),
    eventsPerBlock: round(history.events / (NESTED * NESTED)),
    limits: '51,200 events, 50 MB',
  };
}

export async function run({ url, addresses, log }) {
  const http = client(url);
  const workspaceId = await workspace(http, addresses);
  try {
    // A scenario that fails (a loaded dev server times out) is reported, and the others still run.
    const scenario = async (name, fn) => {
      if (ONLY && !ONLY.includes(name)) return 'not run (BENCH_RUNNER_SCENARIOS)';
      const out = await fn().catch((err) => ({ error: err.message.slice(0, 300) }));
      log(`${name}: ${JSON.stringify(out)}`);
      return out;
    };
    const result = {
      loadAverageBefore: os.loadavg().map(round),
      simple: await scenario('simple', () => simple(http, workspaceId, log)),
      chain: await scenario('chain', () => chain(http, workspaceId, log)),
      parallelCpu: await scenario('parallelCpu', async () => ({
        ...(await parallel(http, workspaceId, log, 'cpu')),
        cpuFloorMs: Math.round((BRANCHES * BRANCH_MS) / os.cpus().length),
        target: '≤ 1.5 s wall',
      })),
      parallelTimer: await scenario('parallelTimer', async () => ({ ...(await parallel(http, workspaceId, log, 'timer')), target: '≤ 1.5 s wall' })),
      parallelWait: await scenario('parallelWait', () => parallel(http, workspaceId, log, 'wait')),
      ...(NESTED > 0 ? { nested: await scenario('nested', () => nested(http, workspaceId, log)) } : {}),
      ...(NESTED > 0 ? { nestedInline: await scenario('nestedInline', () => nested(http, workspaceId, log, NESTED_INLINE_KB)) } : {}),
      loadAverageAfter: os.loadavg().map(round),
    };
    log(JSON.stringify(result));
    return result;
  } finally {
    slow.server?.close();
  }
}

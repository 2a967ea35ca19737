// Triggers benchmark (issue 13), run with `npm run bench -- triggers`:
// - webhook → function → Response block answered synchronously, 20 concurrent senders: p50 latency
//   and runs/s (targets p50 ≤ 30 ms, ≥ 150 runs/s on 2 cores);
// - webhook starts (the route alone: resolve, verify, claim, start; 200 once the run has started);
// - schedules: how late each fire of 10-second Temporal Schedules starts its run (target p99 ≤ 1 s).
// The webhook load goes to a second gateway beside the stack's with the account rate limit raised,
// so the limiter (600 runs/min per account by default) does not cap what is measured.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { client, workspace } from './editor.bench.mjs';

/** Concurrent senders (20 for the target; BENCH_SENDERS=1 shows one run's latency without queueing). */
const SENDERS = Number(process.env.BENCH_SENDERS ?? 20);
const WEBHOOK_MS = Number(process.env.BENCH_WEBHOOK_MS ?? 10_000);
const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 5);
const SCHEDULE_MS = Number(process.env.BENCH_SCHEDULE_MS ?? 45_000);

async function ok(promise) {
  const res = await promise;
  if (res.status >= 300) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (v) => Math.round(v * 100) / 100;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A gateway on the stack's services with the account limit raised; answers its URL and a stop. */
async function loadGateway(addresses, databaseUrl) {
  const port = await freePort();
  const main = fileURLToPath(new URL('../gateway/dist/main.js', import.meta.url));
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...addresses, DATABASE_URL: databaseUrl, PORT: String(port), WEFT_RATE_LIMIT_ACCOUNT: '10000000/1s', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${url}/api/health`).then(() => true, () => false)) return { url, stop: () => child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the load gateway did not answer within 30 s');
}

/** A new workflow whose starter's id goes to `build`; its commands applied, then deployed. */
async function deployed(http, workspaceId, build) {
  const id = (await ok(http.call('POST', '/api/workflows', { workspaceId }))).body.id;
  const got = await ok(http.call('GET', `/api/workflows/${id}`));
  const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter').id;
  await ok(http.call('POST', `/api/workflows/${id}/commands`, { commands: build(starter) }));
  await ok(http.call('POST', `/api/workflows/${id}/deploy`, {}));
  return id;
}

const set = (id, subBlockId, value) => ({ type: 'setSubBlockValue', id, subBlockId, value });

/** 20 senders posting `{n}` to `path` for `ms`; `check` says whether an answer is the right one. */
async function load(url, path, ms, check) {
  const sender = client(url);
  // Warm-up: 20 sequential calls (their mean is one call's latency with nothing queued).
  const warmStart = performance.now();
  for (let i = 0; i < 20; i++) await ok(sender.call('POST', `/api/webhooks/trigger/${path}`, { n: i }));
  const warmupMeanMs = (performance.now() - warmStart) / 20;
  const times = [];
  let failed = 0;
  let wrong = 0;
  const deadline = Date.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, s) => {
      for (let n = s; Date.now() < deadline; n += SENDERS) {
        const t = performance.now();
        const res = await sender.call('POST', `/api/webhooks/trigger/${path}`, { n });
        times.push(performance.now() - t);
        if (res.status !== 200) failed++;
        else if (!check(res.body, n)) wrong++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    senders: SENDERS,
    warmupMeanMs: round(warmupMeanMs),
    seconds: round(seconds),
    calls: times.length - failed,
    failed,
    wrongAnswers: wrong,
    perSecond: Math.round((times.length - failed) / seconds),
    p50Ms: round(percentile(times, 50)),
    p90Ms: round(percentile(times, 90)),
    p99Ms: round(percentile(times, 99)),
  };
}

/** The webhook route alone: a starter webhook answering 200 once its run has started. */
async function webhookStarts(http, workspaceId, url) {
  const path = `bench-start-${Date.now()}`;
  await deployed(http, workspaceId, (starter) => [set(starter, 'startWorkflow', 'webhook'), set(starter, 'webhookPath', path)]);
  return load(url, path, Math.min(WEBHOOK_MS, 5_000), (body) => typeof body.executionId === 'string');
}

async function webhooks(http, workspaceId, url) {
  const path = `bench-${Date.now()}`;
  await deployed(http, workspaceId, (starter) => [
    { type: 'addBlock', id: 'hook', blockType: 'webhook', name: 'Hook', position: { x: 300, y: 100 } },
    set('hook', 'webhookProvider', 'generic'),
    set('hook', 'webhookConfig', { path, responseMode: 'response' }),
    { type: 'addEdge', source: starter, target: 'hook' },
    { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Fn', position: { x: 600, y: 100 } },
    set('fn', 'code', 'return <start.body.n> + 1'),
    { type: 'addEdge', source: 'hook', target: 'fn' },
    { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 900, y: 100 } },
    set('answer', 'dataMode', 'json'),
    set('answer', 'data', '{"n": <fn.result>}'),
    { type: 'addEdge', source: 'fn', target: 'answer' },
  ]);
  return load(url, path, WEBHOOK_MS, (body, n) => body.n === n + 1);
}

/** Fire lag: a scheduled run's recorded start against the due time in its Temporal workflow id. */
async function schedules(http, workspaceId, log) {
  const ids = [];
  for (let i = 0; i < SCHEDULES; i++) {
    ids.push(
      await deployed(http, workspaceId, (starter) => [
        set(starter, 'startWorkflow', 'schedule'),
        set(starter, 'scheduleType', 'minutes'),
        set(starter, 'minutesInterval', '10s'),
        { type: 'addBlock', id: 'fn', blockType: 'function', name: 'Fn', position: { x: 400, y: 100 } },
        set('fn', 'code', 'return 1'),
        { type: 'addEdge', source: starter, target: 'fn' },
      ]),
    );
  }
  log(`schedules: ${SCHEDULES} workflows every 10 s for ${SCHEDULE_MS} ms`);
  await new Promise((r) => setTimeout(r, SCHEDULE_MS));
  const lags = [];
  for (const id of ids) {
    const page = await ok(http.call('GET', `/api/workflows/${id}/executions?trigger=schedule&limit=100`));
    for (const e of page.body.executions) {
      const due = /-(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)$/.exec(e.executionId)?.[1];
      if (due) lags.push(Date.parse(e.startedAt) - Date.parse(due));
    }
    await ok(http.call('DELETE', `/api/workflows/${id}/deploy`));
  }
  lags.sort((a, b) => a - b);
  if (lags.length === 0) return { fires: 0 };
  return { fires: lags.length, p50LagMs: round(percentile(lags, 50)), p99LagMs: round(percentile(lags, 99)), maxLagMs: round(lags.at(-1)) };
}

export async function run({ url, addresses, databaseUrl, log }) {
  const http = client(url);
  const workspaceId = await workspace(http, addresses);
  const gateway = await loadGateway(addresses, databaseUrl);
  try {
    log(`webhooks: ${SENDERS} senders for ${WEBHOOK_MS} ms (webhook → function → response)`);
    const hook = await webhooks(http, workspaceId, gateway.url);
    const fire = await schedules(http, workspaceId, log);
    // Last: the runs these start keep the machine busy for a while after.
    log(`webhook starts: ${SENDERS} senders, 200 once the run has started`);
    const starts = await webhookStarts(http, workspaceId, gateway.url);
    const result = { webhook: hook, webhookStarts: starts, scheduleFire: fire };
    log(JSON.stringify(result));
    return result;
  } finally {
    gateway.stop();
  }
}

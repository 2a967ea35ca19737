// Editor benchmark through the gateway (issue 3): command latency on a 200-block workflow,
// commands/s with 50 concurrent clients, and bytes per edit against a whole-state sync.
// Run with `npm run bench` (infra/scripts/bench.mjs starts the stack and calls run()).
import http from 'node:http';

const BLOCKS = 200;
const LATENCY_COMMANDS = Number(process.env.BENCH_LATENCY_COMMANDS ?? 2_000);
const CLIENTS = 50;
const THROUGHPUT_MS = Number(process.env.BENCH_THROUGHPUT_MS ?? 10_000);

/**
 * A lean keep-alive HTTP client (node:http, one socket per concurrent request) that keeps the
 * session cookie the gateway hands out. Lighter than fetch, so the load generator, which shares
 * the machine's two cores with the stack, takes less of them.
 */
export function client(url) {
  const base = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const host = base.hostname === 'localhost' ? '127.0.0.1' : base.hostname;
  let cookie = '';
  return {
    /** A GET whose response is handed over as it streams (for SSE); answers the request to destroy. */
    raw(path, extraHeaders, onResponse) {
      const req = http.request({ host, port: base.port, method: 'GET', path, agent: false, headers: { host: base.host, ...(cookie ? { cookie } : {}), ...extraHeaders } }, onResponse);
      req.on('error', () => {});
      req.end();
      return req;
    },
    call(method, path, body, extraHeaders = {}) {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const headers = { 'content-type': 'application/json', host: base.host, origin: base.origin, ...extraHeaders };
      if (cookie) headers.cookie = cookie;
      if (text !== undefined) headers['content-length'] = Buffer.byteLength(text);
      return new Promise((resolve, reject) => {
        const req = http.request({ host, port: base.port, method, path, agent, headers }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const setCookie = res.headers['set-cookie'] ?? [];
            if (setCookie.length > 0) cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
            const answer = Buffer.concat(chunks).toString('utf8');
            try {
              resolve({ status: res.statusCode, body: answer ? JSON.parse(answer) : {}, sent: text?.length ?? 0, received: answer.length });
            } catch (err) {
              reject(new Error(`${method} ${path} answered ${res.statusCode} with non-JSON: ${answer.slice(0, 200)}`, { cause: err }));
            }
          });
        });
        req.on('error', reject);
        req.end(text);
      });
    },
  };
}

/**
 * Signs in when accounts are on (better-auth's email sign-up), then finds or makes a workspace:
 * through the gateway, or straight through the registry's gRPC while the gateway has no
 * POST /api/workspaces yet.
 */
export async function workspace(http, addresses) {
  let listed = await http.call('GET', '/api/workspaces');
  if (listed.status === 401) {
    const email = `bench-${Date.now()}@example.com`;
    const signedUp = await http.call('POST', '/api/auth/sign-up/email', { email, password: 'bench-password-1', name: 'Bench' });
    if (signedUp.status !== 200) throw new Error(`sign-up answered ${signedUp.status}: ${JSON.stringify(signedUp.body)}`);
    listed = await http.call('GET', '/api/workspaces');
  }
  const first = listed.body.workspaces?.[0];
  if (first) return first.id;
  const made = await http.call('POST', '/api/workspaces', { name: 'Bench' });
  let id = made.body.workspace?.id ?? made.body.id;
  if (!id && made.status === 404 && addresses?.REGISTRY_ADDR) {
    const { createServiceClient } = await import('@weft/platform');
    const { registry } = await import('@weft/contracts');
    const grpc = createServiceClient(registry.RegistryServiceService, addresses.REGISTRY_ADDR, { deadlineMs: 5_000 });
    id = (await grpc.createWorkspace({ actor: { userId: 'local' }, name: 'Bench' })).workspace?.id;
    grpc.close();
  }
  if (!id) throw new Error(`no workspace: ${made.status} ${JSON.stringify(made.body)}`);
  return id;
}

async function ok(promise) {
  const res = await promise;
  if (res.status >= 300) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

/** A workflow of `BLOCKS` agent blocks chained by edges after the starter. */
export async function bigWorkflow(http, workspaceId) {
  const created = await ok(http.call('POST', '/api/workflows', { workspaceId }));
  const id = created.body.id;
  const got = await ok(http.call('GET', `/api/workflows/${id}`));
  let previous = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter').id;
  for (let start = 0; start < BLOCKS; start += 50) {
    const commands = [];
    for (let i = start; i < Math.min(start + 50, BLOCKS); i++) {
      commands.push({ type: 'addBlock', id: `b${i}`, blockType: 'agent', position: { x: (i % 20) * 300, y: Math.floor(i / 20) * 200 } });
      commands.push({ type: 'setSubBlockValue', id: `b${i}`, subBlockId: 'systemPrompt', value: `You are step ${i}. Summarise <b${i - 1}.content> in one line.` });
      commands.push({ type: 'addEdge', source: previous, target: `b${i}` });
      previous = `b${i}`;
    }
    await ok(http.call('POST', `/api/workflows/${id}/commands`, { commands }));
  }
  return id;
}

export const move = (n) => ({ commands: [{ type: 'moveBlock', id: `b${n % BLOCKS}`, position: { x: n % 997, y: n % 613 } }] });

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function latency(http, id) {
  for (let i = 0; i < 200; i++) await ok(http.call('POST', `/api/workflows/${id}/commands`, move(i)));
  const times = [];
  for (let i = 0; i < LATENCY_COMMANDS; i++) {
    const t = performance.now();
    await ok(http.call('POST', `/api/workflows/${id}/commands`, move(i)));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const round = (v) => Math.round(v * 100) / 100;
  return { commands: LATENCY_COMMANDS, p50Ms: round(percentile(times, 50)), p90Ms: round(percentile(times, 90)), p99Ms: round(percentile(times, 99)), maxMs: round(times.at(-1)) };
}

/** `CLIENTS` loops posting commands for THROUGHPUT_MS; `workflowOf(i)` picks each client's workflow. */
export async function throughput(http, workflowOf) {
  const deadline = Date.now() + THROUGHPUT_MS;
  let done = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let n = c; Date.now() < deadline; n += CLIENTS) {
        const res = await http.call('POST', `/api/workflows/${workflowOf(c)}/commands`, move(n));
        if (res.status === 200) done++;
        else failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { clients: CLIENTS, seconds: Math.round(seconds * 10) / 10, commands: done, failed, commandsPerSecond: Math.round(done / seconds) };
}

/**
 * Live propagation: another client follows the workflow over SSE while this one posts `count`
 * sequential edits; for each, the time from sending the edit to the other client receiving its event.
 */
async function propagation(http, id, count = 200) {
  const arrived = new Map();
  const waiters = new Map();
  const head = (await ok(http.call('GET', `/api/workflows/${id}`))).body.data.version;
  const req = http.raw(`/api/workflows/${id}/events?after=${head}`, { accept: 'text/event-stream' }, (res) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').find((line) => line.startsWith('data: '));
        if (!data) continue;
        const version = JSON.parse(data.slice(6)).version;
        arrived.set(version, performance.now());
        waiters.get(version)?.();
      }
    });
  });
  const times = [];
  try {
    for (let n = 0; n < count; n++) {
      const sent = performance.now();
      const answer = await ok(http.call('POST', `/api/workflows/${id}/commands`, move(n)));
      const version = answer.body.version;
      if (!arrived.has(version)) await new Promise((resolve) => waiters.set(version, resolve));
      times.push(arrived.get(version) - sent);
    }
  } finally {
    req.destroy();
  }
  times.sort((a, b) => a - b);
  const round = (v) => Math.round(v * 100) / 100;
  return { edits: count, p50Ms: round(percentile(times, 50)), p90Ms: round(percentile(times, 90)), p99Ms: round(percentile(times, 99)) };
}

async function bytes(http, id, workspaceId) {
  const edit = await ok(http.call('POST', `/api/workflows/${id}/commands`, move(7)));
  const events = await ok(http.call('GET', `/api/workflows/${id}/events?after=${edit.body.version - 1}`));
  const state = await ok(http.call('GET', `/api/workflows/${id}`));
  const syncBody = { workspaceId, workflows: { [id]: { id, state: state.body.data.state } } };
  const t = performance.now();
  const sync = await ok(http.call('POST', '/api/workflows/sync', syncBody));
  const syncMs = performance.now() - t;
  const streamed = JSON.stringify(events.body.events[0]).length;
  return {
    editRequestBytes: edit.sent,
    editResponseBytes: edit.received,
    editEventBytes: streamed,
    syncRequestBytes: sync.sent,
    syncResponseBytes: sync.received,
    syncMs: Math.round(syncMs * 10) / 10,
    ratio: Math.round(sync.sent / (edit.sent + edit.received)),
  };
}

/**
 * Cold load of a long history, in process on the editor's own store (no cache to hit through the
 * gateway): a 200-block workflow whose stream ends SNAPSHOT_EVERY - 1 events after its last snapshot,
 * the longest tail a load ever replays, against replaying its whole history from the first event.
 */
export async function coldLoad(databaseUrl, log) {
  const { createDatabase, migrate, platformMigrations } = await import('@weft/platform');
  const { replay } = await import('@weft/workflow');
  const { createEventStore, SNAPSHOT_EVERY } = await import('../services/editor/dist/store/eventStore.js');
  const { migrations } = await import('../services/editor/dist/migrations/index.js');
  const { sql } = await import('kysely');
  const { productionContext } = await import('../services/editor/dist/context.js');
  const schema = `bench_editor_${Date.now()}`;
  const database = await createDatabase(databaseUrl, schema);
  try {
    await migrate(database, { ...platformMigrations, ...migrations });
    const store = createEventStore({ db: database.db, instance: 'bench', context: productionContext });
    await database.db.transaction().execute((trx) => store.startStream(trx, 'cold'));
    const starter = Object.values((await store.current('cold')).state.blocks)[0].id;
    let previous = starter;
    for (let i = 0; i < BLOCKS; i++) {
      await store.execute('cold', [
        { type: 'addBlock', id: `b${i}`, blockType: 'agent', position: { x: i, y: 0 } },
        { type: 'setSubBlockValue', id: `b${i}`, subBlockId: 'systemPrompt', value: `You are step ${i}. Summarise <b${i - 1}.content>.` },
        { type: 'addEdge', source: previous, target: `b${i}` },
      ]);
      previous = `b${i}`;
    }
    const target = 2 * SNAPSHOT_EVERY - 1;
    log(`cold load: ${target} events on a ${BLOCKS}-block workflow`);
    for (let n = (await store.current('cold')).version; n < target; n++) await store.execute('cold', move(n).commands);
    await store.flushSnapshots();
    const times = [];
    for (let i = 0; i < 20; i++) {
      store.clearCache();
      const t = performance.now();
      await store.current('cold');
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const t = performance.now();
    const rows = await database.db.selectFrom('events').select('data').where('workflow_id', '=', 'cold').orderBy('version').execute();
    replay(rows.map((r) => r.data));
    const fullReplayMs = performance.now() - t;
    const round = (v) => Math.round(v * 10) / 10;
    return { events: target, snapshotEvery: SNAPSHOT_EVERY, tailEvents: target % SNAPSHOT_EVERY, coldLoadP50Ms: round(percentile(times, 50)), coldLoadMaxMs: round(times.at(-1)), fullReplayMs: round(fullReplayMs) };
  } finally {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(database.db);
    await database.close();
  }
}

/** Runs the editor benchmark against a gateway at `url`. */
export async function run({ url, addresses, databaseUrl, log }) {
  const http = client(url);
  const workspaceId = await workspace(http, addresses);
  log(`building a ${BLOCKS}-block workflow`);
  const shared = await bigWorkflow(http, workspaceId);
  log(`latency: ${LATENCY_COMMANDS} sequential commands`);
  const lat = await latency(http, shared);
  log(`throughput: ${CLIENTS} clients on one workflow for ${THROUGHPUT_MS} ms`);
  const oneWorkflow = await throughput(http, () => shared);
  log(`throughput: ${CLIENTS} clients on ${CLIENTS} workflows of ${BLOCKS} blocks`);
  const own = [];
  for (let i = 0; i < CLIENTS; i++) own.push(await bigWorkflow(http, workspaceId));
  const manyWorkflows = await throughput(http, (c) => own[c]);
  log('live propagation: 200 edits followed by a second client over SSE');
  const live = await propagation(http, shared);
  const size = await bytes(http, shared, workspaceId);
  const cold = await coldLoad(databaseUrl, log);
  const result = { blocks: BLOCKS, latency: lat, throughputOneWorkflow: oneWorkflow, throughputOwnWorkflows: manyWorkflows, bytes: size, livePropagation: live, coldLoad: cold };
  log(JSON.stringify(result));
  return result;
}

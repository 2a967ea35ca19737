// Model layer benchmark (issue 12), run with `npm run bench -- models`. A local OpenAI-compatible
// fake answers every chat completion 20 ms after it arrives (streamed); the stack's OpenAI base URL
// points at it (`stackEnv`). Measured through the gateway:
// - the tool loop's own overhead per iteration: an agent whose model asks for one memory tool call
//   per turn for ITERATIONS turns; the agent block's duration minus the fake's time on each model
//   call and minus the tool calls' own durations, divided by the iterations (target ≤ 5 ms at p50);
// - first streamed token: from the moment the fake writes the final answer's first word to the
//   moment the SSE client reads it as `stream:chunk` (target ≤ 10 ms at p50).
// - where an iteration's time goes, from the loop's Temporal history (the child workflow of each run):
//   tool activity dispatch (scheduled → started), the tool activity (started → completed, its
//   answer included), workflow task dispatch (activity completed → task started) and the workflow
//   task itself (which runs the model call as a local activity: the fake's 20 ms are in it).
import http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { client, workspace } from './editor.bench.mjs';

const FAKE_MS = 20;
const ITERATIONS = Number(process.env.BENCH_MODEL_ITERATIONS ?? 5);
const RUNS = Number(process.env.BENCH_MODEL_RUNS ?? 20);
const FINAL = 'The notes are saved and here is the summary.';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (v) => Math.round(v * 100) / 100;

/** The fake's bookkeeping: time spent answering per run (by the marker in the prompt), and when each final first word left. */
const fake = { server: undefined, spentMs: new Map(), firstWordAt: new Map() };

function sse(res, obj) {
  res.write(`data: ${typeof obj === 'string' ? obj : JSON.stringify(obj)}\n\n`);
}

/** Answers one chat completion after FAKE_MS: a tool call until ITERATIONS tool results are in, then FINAL word by word. */
async function answer(req, res, body) {
  const arrived = performance.now();
  const messages = body.messages ?? [];
  const marker = /run-(\d+)/.exec(JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? ''))?.[0] ?? 'none';
  const toolResults = messages.filter((m) => m.role === 'tool').length;
  const tool = body.tools?.[0]?.function?.name;
  await sleep(FAKE_MS);
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
  const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const usage = { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } };
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  sse(res, chunk({ role: 'assistant', content: '' }));
  if (tool && toolResults < ITERATIONS) {
    const args = JSON.stringify({ role: 'user', content: `note ${toolResults}` });
    sse(res, chunk({ tool_calls: [{ index: 0, id: `call_${toolResults}`, type: 'function', function: { name: tool, arguments: args } }] }));
    sse(res, chunk({}, 'tool_calls'));
  } else {
    const words = FINAL.match(/\S+\s*/g);
    for (const [i, w] of words.entries()) {
      if (i === 0 && !fake.firstWordAt.has(marker)) fake.firstWordAt.set(marker, performance.now());
      sse(res, chunk({ content: w }));
    }
    sse(res, chunk({}, 'stop'));
  }
  sse(res, usage);
  sse(res, '[DONE]');
  res.end();
  fake.spentMs.set(marker, (fake.spentMs.get(marker) ?? 0) + (performance.now() - arrived));
}

/** Starts the fake before the stack and answers the stack's extra variables. */
export async function stackEnv() {
  fake.server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      answer(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8'))).catch(() => res.destroy());
    });
  });
  await new Promise((r) => fake.server.listen(0, '127.0.0.1', r));
  return { WEFT_OPENAI_BASE_URL: `http://127.0.0.1:${fake.server.address().port}/v1` };
}

async function ok(promise) {
  const res = await promise;
  if (res.status >= 300) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

/** POSTs an execute with accept: text/event-stream; answers the events with the time each was read. */
function streamRun(url, cookie, workflowId) {
  const base = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: base.port, method: 'POST', path: `/api/workflows/${workflowId}/execute`, headers: { host: base.host, cookie, accept: 'text/event-stream', 'content-type': 'application/json' } },
      (res) => {
        let buffer = '';
        const events = [];
        res.setEncoding('utf8');
        res.on('data', (text) => {
          const at = performance.now();
          buffer += text;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data), at });
          }
        });
        res.on('end', () => resolve(events));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

const eventMs = (e) => Number(e.eventTime.seconds) * 1000 + e.eventTime.nanos / 1e6;
const attrsOf = (e) => Object.entries(e).find(([k]) => k.endsWith('EventAttributes'))?.[1] ?? {};

/** Per-iteration phases of one loop (ms), read from the child workflow's history. */
async function loopPhases(temporal, executionId) {
  const parent = await temporal.workflow.getHandle(executionId).fetchHistory();
  const childId = parent.events.map((e) => e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId).find(Boolean);
  if (!childId) return undefined;
  const events = (await temporal.workflow.getHandle(childId).fetchHistory()).events;
  const phases = { toolDispatch: [], toolActivity: [], taskDispatch: [], workflowTask: [], markers: 0, activities: 0 };
  const at = new Map(events.map((e) => [Number(e.eventId), eventMs(e)]));
  let lastCompleted;
  for (const e of events) {
    const a = attrsOf(e);
    if (e.markerRecordedEventAttributes) phases.markers += 1;
    if (e.activityTaskScheduledEventAttributes) phases.activities += 1;
    if (e.activityTaskStartedEventAttributes) phases.toolDispatch.push(eventMs(e) - at.get(Number(a.scheduledEventId)));
    if (e.activityTaskCompletedEventAttributes) {
      phases.toolActivity.push(eventMs(e) - at.get(Number(a.startedEventId)));
      lastCompleted = eventMs(e);
    }
    if (e.workflowTaskStartedEventAttributes && lastCompleted !== undefined) {
      phases.taskDispatch.push(eventMs(e) - lastCompleted);
      lastCompleted = undefined;
    }
    if (e.workflowTaskCompletedEventAttributes) phases.workflowTask.push(eventMs(e) - at.get(Number(a.startedEventId)));
  }
  return phases;
}

export async function run({ url, addresses, log }) {
  if (!fake.server) throw new Error('models bench needs its fake started by stackEnv()');
  const api = client(url);
  const workspaceId = await workspace(api, addresses);
  // The session cookie the client keeps, for the raw SSE request.
  const cookie = api.raw('/api/health', {}, (res) => res.resume()).getHeader('cookie') ?? '';
  const created = await ok(api.call('POST', '/api/workflows', { workspaceId }));
  const id = created.body.id;
  const got = await ok(api.call('GET', `/api/workflows/${id}`));
  const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter').id;
  const setPrompt = (n) => ({ type: 'setSubBlockValue', id: 'agent', subBlockId: 'userPrompt', value: `Take notes, run-${n}` });
  await ok(
    api.call('POST', `/api/workflows/${id}/commands`, {
      commands: [
        { type: 'addBlock', id: 'agent', blockType: 'agent', name: 'Agent', position: { x: 400, y: 100 } },
        { type: 'setSubBlockValue', id: 'agent', subBlockId: 'model', value: 'gpt-4o' },
        { type: 'setSubBlockValue', id: 'agent', subBlockId: 'apiKey', value: 'sk-bench' },
        { type: 'setSubBlockValue', id: 'agent', subBlockId: 'tools', value: [{ type: 'memory', operation: 'add', params: { id: 'bench-notes' } }] },
        setPrompt(0),
        { type: 'addEdge', source: starter, target: 'agent' },
      ],
    }),
  );
  const overheads = [];
  const firstTokens = [];
  const executions = [];
  for (let n = 1; n <= RUNS; n++) {
    await ok(api.call('POST', `/api/workflows/${id}/commands`, { commands: [setPrompt(n)] }));
    const events = await streamRun(url, cookie, id);
    const done = events.find((e) => e.event === 'block:completed' && e.data.blockId === 'agent');
    if (!done) throw new Error(`run ${n}: the agent did not complete: ${JSON.stringify(events.at(-1)?.data).slice(0, 300)}`);
    const toolMs = (done.data.output?.toolCalls ?? []).reduce((sum, c) => sum + (c.duration ?? 0), 0);
    const blockMs = done.data.durationMs ?? done.data.duration;
    const marker = `run-${n}`;
    const executionId = events.find((e) => e.data.executionId)?.data.executionId;
    if (executionId) executions.push(executionId);
    overheads.push((blockMs - (fake.spentMs.get(marker) ?? 0) - toolMs) / ITERATIONS);
    const firstChunk = events.find((e) => e.event === 'stream:chunk' && e.data.chunk);
    const sent = fake.firstWordAt.get(marker);
    if (firstChunk && sent !== undefined) firstTokens.push(firstChunk.at - sent);
  }
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  const temporal = new Client({ connection });
  const phases = { toolDispatch: [], toolActivity: [], taskDispatch: [], workflowTask: [] };
  let shape;
  for (const id of executions) {
    const p = await loopPhases(temporal, id).catch(() => undefined);
    if (!p) continue;
    for (const k of Object.keys(phases)) phases[k].push(...p[k]);
    shape = { activities: p.activities, localActivityMarkers: p.markers, workflowTasks: p.workflowTask.length };
  }
  await connection.close();
  const p50 = (values) => (values.length ? round(percentile([...values].sort((a, b) => a - b), 50)) : null);
  overheads.sort((a, b) => a - b);
  firstTokens.sort((a, b) => a - b);
  const result = {
    runs: RUNS,
    iterationsPerRun: ITERATIONS,
    fakeAnswerMs: FAKE_MS,
    loopOverheadPerIterationMs: { p50: round(percentile(overheads, 50)), p90: round(percentile(overheads, 90)), target: '≤ 5 at p50' },
    loopHistoryPerRun: shape,
    loopPhasesP50Ms: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, p50(v)])),
    firstTokenAfterFakeMs: { p50: round(percentile(firstTokens, 50)), p90: round(percentile(firstTokens, 90)), samples: firstTokens.length, target: '≤ 10 at p50' },
  };
  log(`models: ${JSON.stringify(result)}`);
  fake.server.close();
  return result;
}

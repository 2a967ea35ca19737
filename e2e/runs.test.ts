import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { api, defaultCookie } from './support/http.js';
import { createAccount } from './support/accounts.js';

interface LogEntry {
  blockId: string;
  blockType: string;
  success: boolean;
  status?: string;
  output?: unknown;
  error?: string;
}
interface RunAnswer {
  success: boolean;
  output: unknown;
  error?: string;
  logs: LogEntry[];
  metadata: { executionId: string; duration: number; startTime: string; endTime: string };
  cost: unknown;
}
interface ExecutionAnswer {
  executionId: string;
  workflowId: string;
  status: string;
  trigger: string;
  input: unknown;
  output: unknown;
  error: string | null;
  logs?: LogEntry[];
  deploymentVersion: number | null;
  rerunOf: string | null;
}
interface SseEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

async function workspaceId(): Promise<string> {
  const res = await api<{ workspaces: Array<{ id: string }> }>('GET', '/api/workspaces');
  const first = res.body.workspaces[0];
  if (!first) throw new Error('no workspace');
  return first.id;
}

/** A new workflow with `commands` applied after the starter (whose id is passed to `build`). */
async function workflowWith(build: (starter: string) => unknown[]): Promise<{ id: string; starter: string }> {
  const created = await api<{ id: string }>('POST', '/api/workflows', { workspaceId: await workspaceId() });
  expect(created.status).toBe(201);
  const got = await api<{ data: { state: { blocks: Record<string, { id: string; type: string }> } } }>('GET', `/api/workflows/${created.body.id}`);
  const starter = Object.values(got.body.data.state.blocks).find((b) => b.type === 'starter');
  if (!starter) throw new Error('no starter block');
  const edit = await api('POST', `/api/workflows/${created.body.id}/commands`, { commands: build(starter.id) });
  expect(edit.status).toBe(200);
  return { id: created.body.id, starter: starter.id };
}

/** starter → function "Compute" (`code`) [→ response]. */
function computeThen(code: string, response?: { data: string; status?: number; headers?: Array<[string, string]> }) {
  return (starter: string) => [
    { type: 'addBlock', id: 'compute', blockType: 'function', name: 'Compute', position: { x: 400, y: 100 } },
    { type: 'setSubBlockValue', id: 'compute', subBlockId: 'code', value: code },
    { type: 'addEdge', source: starter, target: 'compute' },
    ...(response
      ? [
          { type: 'addBlock', id: 'answer', blockType: 'response', name: 'Answer', position: { x: 700, y: 100 } },
          { type: 'setSubBlockValue', id: 'answer', subBlockId: 'dataMode', value: 'json' },
          { type: 'setSubBlockValue', id: 'answer', subBlockId: 'data', value: response.data },
          ...(response.status ? [{ type: 'setSubBlockValue', id: 'answer', subBlockId: 'status', value: String(response.status) }] : []),
          ...(response.headers
            ? [{ type: 'setSubBlockValue', id: 'answer', subBlockId: 'headers', value: response.headers.map(([Key, Value], i) => ({ id: `h${i}`, cells: { Key, Value } })) }]
            : []),
          { type: 'addEdge', source: 'compute', target: 'answer' },
        ]
      : []),
  ];
}

/** Reads a Server-Sent Events answer to its end. */
async function readSse(res: globalThis.Response): Promise<SseEvent[]> {
  const text = await res.text();
  const events: SseEvent[] = [];
  for (const chunk of text.split('\n\n')) {
    const lines = chunk.split('\n');
    const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
    const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
    const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
    if (event && data) events.push({ event, data: JSON.parse(data) as Record<string, unknown>, ...(id ? { id } : {}) });
  }
  return events;
}

async function sse(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; events: SseEvent[] }> {
  const res = await fetch(`${inject('weftUrl')}${path}`, {
    method,
    headers: { cookie: await defaultCookie(), accept: 'text/event-stream', 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, type: res.headers.get('content-type'), events: res.status === 200 ? await readSse(res) : [] };
}

async function finished(executionId: string): Promise<ExecutionAnswer> {
  let last: ExecutionAnswer | undefined;
  await expect
    .poll(
      async () => {
        last = (await api<ExecutionAnswer>('GET', `/api/executions/${executionId}`)).body;
        return last.status;
      },
      { timeout: 30_000, interval: 100 },
    )
    .not.toBe('running');
  if (!last) throw new Error('never read');
  return last;
}

describe('runs through the gateway', () => {
  it('runs the draft synchronously: output, logs per block, metadata and cost; the execution is stored', async () => {
    const { id, starter } = await workflowWith(computeThen('return 40 + 2'));
    const run = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, { n: 1 });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ success: true, output: { result: 42 } });
    expect(run.body.logs.map((l) => [l.blockId, l.success])).toEqual([
      [starter, true],
      ['compute', true],
    ]);
    const { executionId, startTime, endTime, duration } = run.body.metadata;
    expect(Date.parse(endTime) - Date.parse(startTime)).toBe(duration);
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${executionId}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ executionId, workflowId: id, status: 'succeeded', trigger: 'manual', input: { n: 1 }, output: { result: 42 } });
    expect(stored.body.logs?.map((l) => l.blockId)).toEqual([starter, 'compute']);
  });

  it('answers with the Response block’s status, headers and body', async () => {
    const { id } = await workflowWith(computeThen('return 40 + 2', { data: '{"answer": <compute.result>}', status: 201, headers: [['x-weft-test', 'yes']] }));
    const res = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, { method: 'POST', headers: { cookie: await defaultCookie(), 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-weft-test')).toBe('yes');
    expect(await res.json()).toEqual({ answer: 42 });
  });

  it('answers a failed run with success false and its error, and lists runs newest first with filters and cursor paging', async () => {
    const { id } = await workflowWith(computeThen('throw new Error("boom")'));
    const failed = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(failed.status).toBe(200);
    expect(failed.body.success).toBe(false);
    expect(failed.body.error).toContain('boom');
    const second = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, { second: true });
    const list = await api<{ executions: ExecutionAnswer[]; nextCursor: string | null }>('GET', `/api/workflows/${id}/executions?limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.executions.map((e) => e.executionId)).toEqual([second.body.metadata.executionId]);
    const next = await api<{ executions: ExecutionAnswer[]; nextCursor: string | null }>('GET', `/api/workflows/${id}/executions?limit=1&cursor=${list.body.nextCursor ?? ''}`);
    expect(next.body.executions.map((e) => e.executionId)).toEqual([failed.body.metadata.executionId]);
    expect(next.body.nextCursor).toBeNull();
    const onlyFailed = await api<{ executions: ExecutionAnswer[] }>('GET', `/api/workflows/${id}/executions?status=failed&trigger=manual`);
    expect(onlyFailed.body.executions).toHaveLength(2);
    expect((await api<{ executions: ExecutionAnswer[] }>('GET', `/api/workflows/${id}/executions?status=succeeded`)).body.executions).toHaveLength(0);
    expect(await api('GET', `/api/workflows/${id}/executions?status=done`)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^status:/) } });
    expect(await api('GET', `/api/workflows/${id}/executions?limit=0`)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^limit:/) } });
    expect(await api('GET', `/api/workflows/${id}/executions?cursor=xyz`)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^cursor:/) } });
  });

  it('starts a run asynchronously with x-execution-mode: async (202 with the execution id)', async () => {
    const { id } = await workflowWith(computeThen('return 40 + 2'));
    const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, { a: 1 }, { cookie: await defaultCookie(), 'x-execution-mode': 'async' });
    expect(started.status).toBe(202);
    expect(Object.keys(started.body)).toEqual(['executionId']);
    const done = await finished(started.body.executionId);
    expect(done).toMatchObject({ status: 'succeeded', output: { result: 42 }, input: { a: 1 } });
  });

  it('streams a run as Server-Sent Events, and a reader that resumes (Last-Event-ID) or reloads gets the rest or the whole run', async () => {
    const { id, starter } = await workflowWith(computeThen('return 40 + 2'));
    for (const how of ['accept', 'body'] as const) {
      const streamed = how === 'accept' ? await sse('POST', `/api/workflows/${id}/execute`, {}) : await sse('POST', `/api/workflows/${id}/execute`, { stream: true }, { accept: '*/*' });
      expect(streamed.status).toBe(200);
      expect(streamed.type).toContain('text/event-stream');
      const names = streamed.events.map((e) => e.event);
      expect(names[0]).toBe('execution:started');
      expect(names.at(-1)).toBe('execution:completed');
      expect(names.filter((n) => n === 'block:completed')).toHaveLength(2);
      const computed = streamed.events.find((e) => e.event === 'block:completed' && e.data.blockId === 'compute');
      expect(computed?.data).toMatchObject({ output: { result: 42 }, duration: expect.any(Number) });
      expect(streamed.events.find((e) => e.event === 'block:completed' && e.data.blockId === starter)).toBeDefined();
      const ids = streamed.events.map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const executionId = String(streamed.events[0]?.data.executionId);
      // The body's `stream` switch is not part of the run's input.
      expect((await api<ExecutionAnswer>('GET', `/api/executions/${executionId}`)).body.input).toEqual({});

      const whole = await sse('GET', `/api/executions/${executionId}/stream`);
      expect(whole.events.map((e) => e.id)).toEqual(streamed.events.map((e) => e.id));
      const middle = streamed.events[1]?.id ?? '';
      const rest = await sse('GET', `/api/executions/${executionId}/stream`, undefined, { 'last-event-id': middle });
      expect(rest.events.map((e) => e.id)).toEqual(streamed.events.slice(2).map((e) => e.id));
      expect((await sse('GET', `/api/executions/${executionId}/stream`, undefined, { 'last-event-id': 'x' })).status).toBe(400);
    }
  });

  it('reruns from a block, reusing the earlier run’s outputs upstream of it', async () => {
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'first', blockType: 'function', name: 'First', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'first', subBlockId: 'code', value: 'return Math.random()' },
      { type: 'addEdge', source: starter, target: 'first' },
      { type: 'addBlock', id: 'second', blockType: 'function', name: 'Second', position: { x: 700, y: 100 } },
      { type: 'setSubBlockValue', id: 'second', subBlockId: 'code', value: 'return <first.result> * 2' },
      { type: 'addEdge', source: 'first', target: 'second' },
    ]);
    const earlier = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(earlier.body.success).toBe(true);
    const random = (earlier.body.logs.find((l) => l.blockId === 'first')?.output as { result: number }).result;
    const rerun = await api<RunAnswer>('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, { fromBlockId: 'second' });
    expect(rerun.status).toBe(200);
    expect(rerun.body).toMatchObject({ success: true, output: { result: random * 2 } });
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${rerun.body.metadata.executionId}`);
    expect(stored.body).toMatchObject({ rerunOf: earlier.body.metadata.executionId, status: 'succeeded' });
    expect(await api('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, {})).toMatchObject({ status: 400, body: { error: expect.stringContaining('fromBlockId') } });
    expect(await api('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, { fromBlockId: 'nope' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('fromBlockId') } });
  });

  it('cancels a running run within a second and keeps its partial logs', async () => {
    const { id, starter } = await workflowWith((s) => [
      { type: 'addBlock', id: 'spin', blockType: 'function', name: 'Spin', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'spin', subBlockId: 'code', value: 'let i = 0; while (true) { i++ }' },
      { type: 'setSubBlockValue', id: 'spin', subBlockId: 'timeout', value: '8000' },
      { type: 'addEdge', source: s, target: 'spin' },
    ]);
    const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, {}, { cookie: await defaultCookie(), 'x-execution-mode': 'async' });
    await expect.poll(async () => (await api<ExecutionAnswer>('GET', `/api/executions/${started.body.executionId}`)).body.logs?.some((l) => l.blockId === 'spin'), { timeout: 20_000 }).toBe(true);
    const asked = Date.now();
    const cancelled = await api<ExecutionAnswer>('POST', `/api/executions/${started.body.executionId}/cancel`);
    // The answer does not wait for the 8-second function: the run ends at once (700 ms grace, then recorded).
    expect(Date.now() - asked).toBeLessThan(4_000);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.logs?.find((l) => l.blockId === starter)).toMatchObject({ success: true });
    // Cancelling again answers the same ended execution.
    expect((await api<ExecutionAnswer>('POST', `/api/executions/${started.body.executionId}/cancel`)).body.status).toBe('cancelled');
  });

  it('runs the active deployed version with the deployment API key; 401 for a wrong key', async () => {
    const { id } = await workflowWith(computeThen('return 40 + 2'));
    const deployed = await api<{ apiKey: string }>('POST', `/api/workflows/${id}/deploy`, {});
    expect(deployed.status).toBe(200);
    // The draft changes after the deploy: the key still runs what was deployed.
    await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'setSubBlockValue', id: 'compute', subBlockId: 'code', value: 'return 1' }] });
    const run = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, { via: 'key' }, { 'x-api-key': deployed.body.apiKey });
    expect(run.status).toBe(200);
    expect(run.body.output).toMatchObject({ result: 42 });
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${run.body.metadata.executionId}`);
    expect(stored.body).toMatchObject({ trigger: 'api', deploymentVersion: 1, input: { via: 'key' } });
    const draft = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(draft.body.output).toMatchObject({ result: 1 });
    expect((await api('POST', `/api/workflows/${id}/execute`, {}, { 'x-api-key': 'wf_wrong' })).status).toBe(401);
  });

  it('refuses what it must: unknown executions 404, no access 404/403, deleted workflow 404, anonymous 401', async () => {
    const { id } = await workflowWith(computeThen('return 40 + 2'));
    const run = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    const executionId = run.body.metadata.executionId;
    expect(await api('GET', '/api/executions/does-not-exist')).toEqual({ status: 404, body: { error: 'Execution does-not-exist not found' } });
    expect((await api('GET', `/api/executions/${executionId}`, undefined, { cookie: '' })).status).toBe(401);
    expect((await api('POST', `/api/workflows/${id}/execute`, {}, { cookie: '' })).status).toBe(401);
    const stranger = await createAccount('Stranger');
    for (const [method, path] of [
      ['GET', `/api/executions/${executionId}`],
      ['POST', `/api/executions/${executionId}/cancel`],
      ['POST', `/api/workflows/${id}/execute`],
      ['GET', `/api/workflows/${id}/executions`],
    ] as const) {
      expect([403, 404]).toContain((await api(method, path, method === 'POST' ? {} : undefined, { cookie: stranger.cookie })).status);
    }
    expect((await api('DELETE', `/api/workflows/${id}`)).status).toBe(200);
    expect((await api('POST', `/api/workflows/${id}/execute`, {})).status).toBe(404);
    expect((await api('GET', `/api/executions/${executionId}`)).status).toBe(404);
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createFakeServer, createTestInstance } from '@weft/testkit';
import { freePort } from '../infra/scripts/lib/stack.mjs';
import { api, apiAt, defaultCookie } from './support/http.js';
import { createAccount } from './support/accounts.js';
import { startSecondGateway } from './support/gateway.js';
import { createScratchDatabase } from './support/databases.js';
import { launch, startService, type TestProcess } from './support/processes.js';
import { untilEnded } from './support/runs.js';
import { oneBlock, openStream, readSse, workflowWith } from './support/runStream.js';

interface LogEntry {
  blockId: string;
  blockType: string;
  success: boolean;
  status?: string;
  output?: unknown;
  error?: string;
  attempts?: number;
  reused?: boolean;
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
/** starter → one function block after another, each `[id, name, code]`. */
function functionChain(...blocks: Array<[string, string, string]>) {
  return (starter: string) =>
    blocks.flatMap(([id, name, code], i) => [
      { type: 'addBlock', id, blockType: 'function', name, position: { x: 400 + i * 300, y: 100 } },
      { type: 'setSubBlockValue', id, subBlockId: 'code', value: code },
      { type: 'addEdge', source: i === 0 ? starter : (blocks[i - 1] as [string, string, string])[0], target: id },
    ]);
}

/** starter → function "Compute" (`code`) [→ response]. */
function computeThen(code: string, response?: { data: string; status?: number; headers?: Array<[string, string]> }) {
  return (starter: string) => [
    ...oneBlock('compute', 'function', 'Compute', { code })(starter),
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

/** A run's event stream read to its end, with the answer's status and content type. */
async function sse(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const stream = await openStream(path, { method, body, headers });
  return { status: stream.status, type: stream.type, events: await stream.rest() };
}

/** The Temporal history of a run of the stack, as JSON text (payload bytes in base64). */
async function temporalHistory(executionId: string): Promise<string> {
  const env = inject('weftEnv');
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS ?? '' });
  try {
    const history = await new Client({ connection, namespace: env.TEMPORAL_NAMESPACE ?? 'default' }).workflow.getHandle(executionId).fetchHistory();
    return JSON.stringify(history, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
  } finally {
    await connection.close();
  }
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

  it('a Response header HTTP cannot carry fails the block naming it: the caller gets the failed run, not a 500', async () => {
    for (const [headers, error] of [
      [[['bad header', 'x']], 'Answer: Response header "bad header" is not a valid HTTP header name'],
      [[['x-note', '<start.input.note>']], 'Answer: Response header "x-note" has a value HTTP cannot carry (a line break or a character beyond Latin-1)'],
    ] as Array<[Array<[string, string]>, string]>) {
      const { id } = await workflowWith(computeThen('return 1', { data: '{"a": 1}', headers }));
      const run = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, { note: 'line one\nline two ✓' });
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ success: false, error });
    }
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
    expect(await api('GET', `/api/workflows/${id}/executions?status=done`)).toEqual({ status: 400, body: { error: 'status: must be one of running, succeeded, failed, cancelled' } });
    expect(await api('GET', `/api/workflows/${id}/executions?limit=0`)).toEqual({ status: 400, body: { error: 'limit: must be a whole number from 1 to 100' } });
    expect(await api('GET', `/api/workflows/${id}/executions?limit=ten`)).toEqual({ status: 400, body: { error: 'limit: must be a whole number from 1 to 100' } });
    // A filter given twice is said so (it was refused as an invalid option, or a limit as NaN).
    expect(await api('GET', `/api/workflows/${id}/executions?status=failed&status=succeeded`)).toEqual({ status: 400, body: { error: 'Query parameter status must be given once' } });
    expect(await api('GET', `/api/workflows/${id}/executions?cursor=`)).toEqual({ status: 400, body: { error: 'cursor: must be the nextCursor of an earlier page' } });
    expect(await api('GET', `/api/workflows/${id}/executions?cursor=xyz`)).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^cursor:/) } });
  });

  it('a condition that throws fails naming the condition as written, not a line of the program the runner made of them', async () => {
    const conditions = [
      { id: 'c1', title: 'if', value: '<start.input.n> > 100' },
      { id: 'c2', title: 'else if', value: '<start.input.obj>.missing.deep > 1' },
      { id: 'c3', title: 'else', value: '' },
    ];
    const { id } = await workflowWith(oneBlock('check', 'condition', 'Check', { conditions }));
    const run = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, { n: 1, obj: {} });
    expect(run.body).toMatchObject({
      success: false,
      error: `Check: Condition evaluation failed in "else if" (<start.input.obj>.missing.deep > 1): TypeError: cannot read property 'deep' of undefined`,
    });
    // A syntax error is named by its condition too.
    const broken = await workflowWith(oneBlock('check', 'condition', 'Check', { conditions: [{ id: 'c1', title: 'if', value: '<start.input.n> >' }] }));
    expect((await api<RunAnswer>('POST', `/api/workflows/${broken.id}/execute`, { n: 1 })).body.error).toMatch(/^Check: Condition evaluation failed in "if" \(<start\.input\.n> >\): SyntaxError/);
  });

  it('starts a run asynchronously with x-execution-mode: async, in any case (202 with the execution id)', async () => {
    const { id } = await workflowWith(computeThen('return 40 + 2'));
    const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, { a: 1 }, { cookie: await defaultCookie(), 'x-execution-mode': 'ASYNC' });
    expect(started.status).toBe(202);
    expect(Object.keys(started.body)).toEqual(['executionId']);
    const done = await untilEnded<ExecutionAnswer>(started.body.executionId);
    expect(done).toMatchObject({ status: 'succeeded', output: { result: 42 }, input: { a: 1 } });
    const unknownMode = await api('POST', `/api/workflows/${id}/execute`, {}, { cookie: await defaultCookie(), 'x-execution-mode': 'later' });
    expect(unknownMode).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^x-execution-mode:/) } });
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
    const { id, starter } = await workflowWith(functionChain(['first', 'First', 'return Math.random()'], ['second', 'Second', 'return <first.result> * 2']));
    const earlier = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(earlier.body.success).toBe(true);
    const random = (earlier.body.logs.find((l) => l.blockId === 'first')?.output as { result: number }).result;
    const rerun = await api<RunAnswer>('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, { fromBlockId: 'second' });
    expect(rerun.status).toBe(200);
    expect(rerun.body).toMatchObject({ success: true, output: { result: random * 2 } });
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${rerun.body.metadata.executionId}`);
    expect(stored.body).toMatchObject({ rerunOf: earlier.body.metadata.executionId, status: 'succeeded' });
    // The reused blocks come first in the log, where they stand in the run (not after the blocks that read them).
    for (const logs of [rerun.body.logs, stored.body.logs ?? []]) {
      expect(logs.map((l) => [l.blockId, l.reused === true])).toEqual([
        [starter, true],
        ['first', true],
        ['second', false],
      ]);
    }
    expect(await api('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, {})).toMatchObject({ status: 400, body: { error: expect.stringContaining('fromBlockId') } });
    expect(await api('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, { fromBlockId: 'nope' })).toMatchObject({ status: 400, body: { error: expect.stringContaining('fromBlockId') } });
  });

  it('a rerun names its blocks in the state the run ran: a block deleted from the draft since streams when chosen, one added since is refused naming it', async () => {
    const agent = (prompt: string) => ({ model: 'gpt-4o', apiKey: 'sk-e2e', userPrompt: prompt });
    const { id, starter } = await workflowWith(oneBlock('writer', 'agent', 'Writer', agent('Say hello')));
    const earlier = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(earlier.body.success, JSON.stringify(earlier.body)).toBe(true);
    const executionId = earlier.body.metadata.executionId;
    // The draft moves on: the Writer deleted, a Critic added.
    const edited = await api('POST', `/api/workflows/${id}/commands`, { commands: [{ type: 'removeBlock', id: 'writer' }, ...oneBlock('critic', 'agent', 'Critic', agent('Criticise'))(starter)] });
    expect(edited.status).toBe(200);

    const streamed = await sse('POST', `/api/executions/${executionId}/rerun`, { fromBlockId: 'writer', selectedOutputs: ['Writer.content'] });
    expect(streamed.status).toBe(200);
    expect(streamed.events.at(-1)?.event).toBe('execution:completed');
    const chunks = streamed.events.filter((e) => e.event === 'stream:chunk');
    expect(chunks.length).toBeGreaterThan(0);
    expect(new Set(chunks.map((c) => c.data.blockId))).toEqual(new Set(['writer']));

    const rerun = `/api/executions/${executionId}/rerun`;
    expect(await api('POST', rerun, { fromBlockId: 'writer', stream: true, selectedOutputs: ['Critic'] })).toMatchObject({
      status: 400,
      body: { error: 'selectedOutputs: no block "Critic" in the workflow this execution ran' },
    });
    expect(await api('POST', rerun, { fromBlockId: 'critic', stream: true })).toMatchObject({ status: 400, body: { error: 'fromBlockId: no block critic in the workflow this execution ran' } });
  });

  it('reruns a child run (one its workflow block started) from a block, with the state the child ran', async () => {
    const child = await workflowWith(functionChain(['roll', 'Roll', 'return Math.random()'], ['twice', 'Twice', 'return <roll.result> * 2']));
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'call', blockType: 'workflow', name: 'Call', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'call', subBlockId: 'workflowId', value: child.id },
      { type: 'addEdge', source: starter, target: 'call' },
    ]);
    const parent = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(parent.body.success).toBe(true);
    const childRunId = `${parent.body.metadata.executionId}-call`;
    const childRun = await untilEnded<ExecutionAnswer>(childRunId);
    expect(childRun).toMatchObject({ workflowId: child.id, trigger: 'workflow', status: 'succeeded' });
    const rolled = (childRun.logs?.find((l) => l.blockId === 'roll')?.output as { result: number }).result;
    // The child's draft changes afterwards: the rerun runs what the child ran.
    await api('POST', `/api/workflows/${child.id}/commands`, { commands: [{ type: 'setSubBlockValue', id: 'twice', subBlockId: 'code', value: 'return 0' }] });
    const rerun = await api<RunAnswer>('POST', `/api/executions/${childRunId}/rerun`, { fromBlockId: 'twice' });
    expect(rerun.status, JSON.stringify(rerun.body)).toBe(200);
    expect(rerun.body).toMatchObject({ success: true, output: { result: rolled * 2 } });
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${rerun.body.metadata.executionId}`);
    expect(stored.body).toMatchObject({ workflowId: child.id, rerunOf: childRunId, status: 'succeeded' });
  });

  it('reruns from a block whose upstream output was over 256 KB: the reused output is read back', async () => {
    const { id } = await workflowWith(functionChain(['big', 'Big', 'return "y".repeat(300000)'], ['len', 'Len', 'return <big.result>.length']));
    const earlier = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(earlier.body).toMatchObject({ success: true, output: { result: 300_000 } });
    const rerun = await api<RunAnswer>('POST', `/api/executions/${earlier.body.metadata.executionId}/rerun`, { fromBlockId: 'len' });
    expect(rerun.body).toMatchObject({ success: true, output: { result: 300_000 } });
  });

  it('puts stored values back into an answer up to 16 MB; the rest stay references, each readable on its own', async () => {
    const MB = 1024 * 1024;
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'loop', blockType: 'loop', name: 'Loop', position: { x: 400, y: 100 }, data: { loopType: 'for', count: 5 } },
      { type: 'addEdge', source: starter, target: 'loop' },
      { type: 'addBlock', id: 'huge', blockType: 'function', name: 'Huge', position: { x: 50, y: 50 }, parentId: 'loop' },
      { type: 'setSubBlockValue', id: 'huge', subBlockId: 'code', value: `return String(<loop.index>).padEnd(${4 * MB}, "z")` },
      { type: 'addEdge', source: 'loop', target: 'huge', sourceHandle: 'loop-start-source' },
    ]);
    const res = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: await defaultCookie() }, body: '{}' });
    const text = await res.text();
    expect(res.status).toBe(200);
    // 15 places hold a 4 MB value (5 iteration logs, the loop's log and the run's output): 60 MB whole.
    expect(text.length).toBeLessThan(17 * MB);
    const body = JSON.parse(text) as RunAnswer;
    expect(body.success).toBe(true);
    const refs = [...text.matchAll(/"\$blobRef":"([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThanOrEqual(11);
    const executionId = body.metadata.executionId;
    const read = await fetch(`${inject('weftUrl')}/api/executions/${executionId}/values?ref=${encodeURIComponent(refs[0] ?? '')}`, { headers: { cookie: await defaultCookie() } });
    expect(read.status).toBe(200);
    const value = (await read.json()) as { result: string };
    expect(value.result).toHaveLength(4 * MB);
    expect(value.result).toMatch(/^[0-4]z+$/);
    expect(await api('GET', `/api/executions/${executionId}/values`)).toMatchObject({ status: 400, body: { error: expect.stringContaining('ref') } });
    expect(await api('GET', `/api/executions/${executionId}/values?ref=${encodeURIComponent(`other-run/${refs[0]?.split('/')[1] ?? ''}`)}`)).toMatchObject({ status: 404 });
    // The stored execution answers within the same budget.
    const stored = await fetch(`${inject('weftUrl')}/api/executions/${executionId}`, { headers: { cookie: await defaultCookie() } });
    expect(stored.status).toBe(200);
    expect((await stored.text()).length).toBeLessThan(17 * MB);
  });

  it('cancels a running run within a second and keeps its partial logs', async () => {
    const { id, starter } = await workflowWith((s) => [
      { type: 'addBlock', id: 'spin', blockType: 'function', name: 'Spin', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'spin', subBlockId: 'code', value: 'let i = 0; while (true) { i++ }' },
      // A minute: far above the bound below, so a loaded machine cannot blur 'at once' and 'after the function'
      // (the cancel stops the sandbox thread through the activity's heartbeat, so it does not spin that long).
      { type: 'setSubBlockValue', id: 'spin', subBlockId: 'timeout', value: '60000' },
      { type: 'addEdge', source: s, target: 'spin' },
    ]);
    const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, {}, { cookie: await defaultCookie(), 'x-execution-mode': 'async' });
    await expect.poll(async () => (await api<ExecutionAnswer>('GET', `/api/executions/${started.body.executionId}`)).body.logs?.some((l) => l.blockId === 'spin'), { timeout: 20_000 }).toBe(true);
    const asked = Date.now();
    const cancelled = await api<ExecutionAnswer>('POST', `/api/executions/${started.body.executionId}/cancel`);
    // The answer does not wait for the one-minute function: the run ends at once (700 ms grace, then recorded;
    // through Temporal, which a loaded machine slows by seconds).
    expect(Date.now() - asked).toBeLessThan(20_000);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.logs?.find((l) => l.blockId === starter)).toMatchObject({ success: true });
    // Cancelling again answers the same ended execution.
    expect((await api<ExecutionAnswer>('POST', `/api/executions/${started.body.executionId}/cancel`)).body.status).toBe('cancelled');
  });

  it('a cancel reaches a running API call: the server that never answers sees the connection closed, the run ends cancelled with its partial log', async () => {
    const slow = await createFakeServer();
    try {
      slow.on('GET', '/hang', { hang: true });
      const { id, starter } = await workflowWith((s) => [
        { type: 'addBlock', id: 'wait', blockType: 'api', name: 'Wait', position: { x: 400, y: 100 } },
        { type: 'setSubBlockValue', id: 'wait', subBlockId: 'url', value: `${slow.url}/hang` },
        { type: 'setSubBlockValue', id: 'wait', subBlockId: 'method', value: 'GET' },
        { type: 'setSubBlockValue', id: 'wait', subBlockId: 'timeout', value: '120000' },
        { type: 'addEdge', source: s, target: 'wait' },
      ]);
      const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, {}, { cookie: await defaultCookie(), 'x-execution-mode': 'async' });
      await expect.poll(() => slow.received('GET', '/hang').length).toBe(1);
      const cancelled = await api<ExecutionAnswer>('POST', `/api/executions/${started.body.executionId}/cancel`);
      expect(cancelled.body.status).toBe('cancelled');
      expect(cancelled.body.logs?.find((l) => l.blockId === starter)).toMatchObject({ success: true });
      // The integrations worker learns of it from its next heartbeat (one a second) and closes the
      // connection, long before the request's own 120 s timeout.
      await expect.poll(() => slow.received('GET', '/hang')[0]?.abandoned, { timeout: 15_000 }).toBe(true);
    } finally {
      await slow.close();
    }
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

  it("an API call's input is read against the starter's input format: text of the field's type taken as it, anything else a 400 naming the field; a JSON or form body without the JSON type read; GET is a 405", async () => {
    const format = [
      { id: 'f1', name: 'name', type: 'string' },
      { id: 'f2', name: 'age', type: 'number' },
      { id: 'f3', name: 'vip', type: 'boolean' },
    ];
    const { id } = await workflowWith((starter) => [
      { type: 'setSubBlockValue', id: starter, subBlockId: 'inputFormat', value: format },
      ...computeThen('return { name: <start.name>, next: <start.age> + 1, vip: <start.vip> }')(starter),
    ]);
    const key = (await api<{ apiKey: string }>('POST', `/api/workflows/${id}/deploy`, {})).body.apiKey;
    const call = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, { method: 'POST', body, headers: { 'x-api-key': key, ...headers } }).then(async (r) => ({ status: r.status, allow: r.headers.get('allow'), body: (await r.json()) as RunAnswer & { error?: string } }));
    const json = { 'content-type': 'application/json' };

    const typed = await call(JSON.stringify({ name: 'Ada', age: '36', vip: 'true' }), json);
    expect(typed).toMatchObject({ status: 200, body: { success: true, output: { result: { name: 'Ada', next: 37, vip: true } } } });
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${typed.body.metadata.executionId}`);
    expect(stored.body.input).toEqual({ name: 'Ada', age: 36, vip: true });
    // curl -d sends a form type: its JSON is read as JSON, a form as its fields.
    expect(await call('{"age": 1}', { 'content-type': 'application/x-www-form-urlencoded' })).toMatchObject({ status: 200, body: { output: { result: { next: 2 } } } });
    expect(await call('name=Bo&age=4', { 'content-type': 'application/x-www-form-urlencoded' })).toMatchObject({ status: 200, body: { output: { result: { name: 'Bo', next: 5 } } } });

    const runsBefore = (await api<{ executions: unknown[] }>('GET', `/api/workflows/${id}/executions`)).body.executions.length;
    expect(await call(JSON.stringify({ age: 'thirty-six' }), json)).toMatchObject({ status: 400, body: { error: 'Input field "age" must be a number (the workflow\'s input format), got text' } });
    expect(await call(JSON.stringify({ vip: 'yes' }), json)).toMatchObject({ status: 400, body: { error: 'Input field "vip" must be true or false (the workflow\'s input format), got text' } });
    expect(await call('[1, 2]', json)).toMatchObject({ status: 400, body: { error: "Request body must be a JSON object of the workflow's input fields (name, age, vip), got an array" } });
    expect(await call('hello', { 'content-type': 'text/plain' })).toMatchObject({
      status: 400,
      body: { error: 'Request body must be JSON (Content-Type: application/json) or a form; Content-Type text/plain that is not JSON was sent' },
    });
    expect(await call(JSON.stringify({ stream: 'true' }), json)).toMatchObject({ status: 400, body: { error: 'stream: must be true or false' } });
    // A personal key's call of the draft is read the same way.
    const personal = await api<{ key: string }>('POST', '/api/auth/api-keys', { name: 'input format' });
    expect(personal.status).toBe(201);
    expect((await call(JSON.stringify({ age: 'x' }), { ...json, 'x-api-key': personal.body.key })).status).toBe(400);
    expect((await api<{ executions: unknown[] }>('GET', `/api/workflows/${id}/executions`)).body.executions).toHaveLength(runsBefore);

    const wrongMethod = await fetch(`${inject('weftUrl')}/api/workflows/${id}/execute`, { headers: { 'x-api-key': key } });
    expect([wrongMethod.status, wrongMethod.headers.get('allow'), await wrongMethod.json()]).toEqual([405, 'POST', { error: `Method GET not allowed on /api/workflows/${id}/execute (allowed: POST)` }]);
  });

  it('the deployment key reads, streams and cancels the deployed runs of its own workflow: 401 for a wrong key, 404 for any other run', async () => {
    const { id } = await workflowWith(computeThen('return 40 + 2'));
    const other = await workflowWith(computeThen('return 1'));
    const key = (await api<{ apiKey: string }>('POST', `/api/workflows/${id}/deploy`, {})).body.apiKey;
    const otherKey = (await api<{ apiKey: string }>('POST', `/api/workflows/${other.id}/deploy`, {})).body.apiKey;

    const started = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, { via: 'key' }, { 'x-api-key': key, 'x-execution-mode': 'async' });
    expect(started.status).toBe(202);
    const done = await untilEnded<ExecutionAnswer>(started.body.executionId, { headers: { 'x-api-key': key } });
    expect(done).toMatchObject({ status: 'succeeded', trigger: 'api', deploymentVersion: 1, output: { result: 42 }, input: { via: 'key' } });
    // The stream replays the whole run to the key.
    const streamed = await fetch(`${inject('weftUrl')}/api/executions/${started.body.executionId}/stream`, { headers: { 'x-api-key': key, accept: 'text/event-stream' } });
    expect(streamed.status).toBe(200);
    const names = (await readSse(streamed)).map((e) => e.event);
    expect([names[0], names.at(-1)]).toEqual(['execution:started', 'execution:completed']);

    // A wrong key is 401 whatever it asks; another workflow's key, and a draft run of this workflow, 404 as an unknown run.
    expect(await api('GET', `/api/executions/${started.body.executionId}`, undefined, { 'x-api-key': 'wf_wrong' })).toEqual({ status: 401, body: { error: 'Invalid API key' } });
    expect((await api('GET', '/api/executions/does-not-exist', undefined, { 'x-api-key': 'wf_wrong' })).status).toBe(401);
    const unknown = await api('GET', '/api/executions/does-not-exist', undefined, { 'x-api-key': key });
    expect(unknown).toEqual({ status: 404, body: { error: 'Execution does-not-exist not found' } });
    const draft = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    for (const [k, executionId] of [
      [otherKey, started.body.executionId],
      [key, draft.body.metadata.executionId],
    ] as const) {
      expect(await api('GET', `/api/executions/${executionId}`, undefined, { 'x-api-key': k })).toEqual({ status: 404, body: { error: `Execution ${executionId} not found` } });
      expect((await api('POST', `/api/executions/${executionId}/cancel`, {}, { 'x-api-key': k })).status).toBe(404);
      expect((await fetch(`${inject('weftUrl')}/api/executions/${executionId}/stream`, { headers: { 'x-api-key': k } })).status).toBe(404);
    }
    // Rerunning and listing stay with the workflow's editors.
    expect((await api('POST', `/api/executions/${started.body.executionId}/rerun`, { fromBlockId: 'compute' }, { 'x-api-key': key })).status).toBe(401);
    expect((await api('GET', `/api/workflows/${id}/executions`, undefined, { 'x-api-key': key })).status).toBe(401);

    // The key cancels an async run it started.
    await api('POST', `/api/workflows/${id}/commands`, {
      commands: [
        { type: 'setSubBlockValue', id: 'compute', subBlockId: 'code', value: 'let i = 0; while (true) { i++ }' },
        { type: 'setSubBlockValue', id: 'compute', subBlockId: 'timeout', value: '8000' },
      ],
    });
    expect((await api('POST', `/api/workflows/${id}/deploy`, {})).status).toBe(200);
    const spinning = await api<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, {}, { 'x-api-key': key, 'x-execution-mode': 'async' });
    await expect.poll(async () => (await api<ExecutionAnswer>('GET', `/api/executions/${spinning.body.executionId}`, undefined, { 'x-api-key': key })).body.logs?.some((l) => l.blockId === 'compute'), { timeout: 20_000 }).toBe(true);
    const cancelled = await api<ExecutionAnswer>('POST', `/api/executions/${spinning.body.executionId}/cancel`, {}, { 'x-api-key': key });
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', deploymentVersion: 2 } });
  });

  it('runs a workflow block with the actor’s environment variables, and keeps a large output outside the history', async () => {
    expect((await api('POST', '/api/environment', { variables: { GREETING: 'hello' } })).status).toBe(200);
    const child = await workflowWith(computeThen('return "{{GREETING}}".toUpperCase()'));
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'big', blockType: 'function', name: 'Big', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'big', subBlockId: 'code', value: 'return "x".repeat(300000)' },
      { type: 'addEdge', source: starter, target: 'big' },
      { type: 'addBlock', id: 'child', blockType: 'workflow', name: 'Child', position: { x: 700, y: 100 } },
      { type: 'setSubBlockValue', id: 'child', subBlockId: 'workflowId', value: child.id },
      { type: 'addEdge', source: 'big', target: 'child' },
      { type: 'addBlock', id: 'sum', blockType: 'function', name: 'Sum', position: { x: 1000, y: 100 } },
      { type: 'setSubBlockValue', id: 'sum', subBlockId: 'code', value: 'return <big.result>.length + ":" + <child.result.result>' },
      { type: 'addEdge', source: 'child', target: 'sum' },
    ]);
    const run = await api<RunAnswer>('POST', `/api/workflows/${id}/execute`, {});
    expect(run.body.error).toBeUndefined();
    expect(run.body).toMatchObject({ success: true, output: { result: '300000:HELLO' } });
    expect(run.body.logs.find((l) => l.blockId === 'child')?.output).toMatchObject({ success: true, result: { result: 'HELLO' } });
    // Over 256 KB: passed by reference inside the run, shown whole in the log.
    const stored = await api<ExecutionAnswer>('GET', `/api/executions/${run.body.metadata.executionId}`);
    expect((stored.body.logs?.find((l) => l.blockId === 'big')?.output as { result: string }).result).toHaveLength(300_000);
    // Temporal's history holds claim checks, not the 300 KB value once per hop (the value loaded back,
    // the next block's input, its logged input): the payloads live in the instance's payload store.
    const history = await temporalHistory(run.body.metadata.executionId);
    expect(history.split(Buffer.from('binary/claim-check').toString('base64')).length - 1).toBeGreaterThanOrEqual(3);
    expect(history.length).toBeLessThan(150_000);
    // Big's output was kept aside by the integrations worker that ran it (its activity answered a
    // reference): the run's only storing activity is for Sum's logged input, which holds the value.
    const scheduled = (JSON.parse(history) as { events: Array<{ activityTaskScheduledEventAttributes?: { activityType?: { name?: string } } }> }).events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(scheduled).toEqual(['executeFunction', 'loadChildWorkflow', 'loadBlob', 'executeFunction', 'storeBlob']);
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

interface Call {
  kind: 'start' | 'done';
  pid: number;
  workflowId: string;
  activityId: string;
  attempt: number;
  code: string;
}

describe('a run survives kill -9 of the runner worker or of an integrations worker (real processes)', () => {
  // A runner of its own (own bus instance, task queues and database) with a stand-in integrations
  // worker that records each call, and a second gateway in front of that runner: this test may kill
  // its runner without touching the stack the other tests use.
  const integrationsScript = fileURLToPath(new URL('./dist/support/runsFakeIntegrations.js', import.meta.url));
  const base = () => inject('weftEnv');
  let instance: { instance: string; cleanup(): Promise<void> };
  let database: { url: string; drop(): Promise<void> } | undefined;
  let runnerAddr: string;
  let dir: string;
  let callsFile: string;
  let gateway: { url: string; stop: () => void } | undefined;
  let runner: TestProcess;
  let integrations: TestProcess;
  const processes: TestProcess[] = [];

  /** The test's runner; healthy once it serves gRPC (its worker is polling by then). */
  async function startRunner(): Promise<TestProcess> {
    const runner = await startService('runner', { ...base(), WEFT_INSTANCE: instance.instance, DATABASE_URL: database?.url ?? '', RUNNER_ADDR: runnerAddr }, runnerAddr);
    processes.push(runner);
    return runner;
  }

  /** A stand-in integrations worker on the test's queue recording each call; answers once it polls (it prints a line "ready"). */
  async function startStandIn(): Promise<TestProcess> {
    const worker = launch(integrationsScript, { ...base(), WEFT_QUEUE: `${instance.instance}-integrations`, WEFT_CALLS_FILE: callsFile }, { stdout: 'pipe' });
    processes.push(worker);
    await new Promise<void>((resolve, reject) => {
      worker.child.stdout?.on('data', (d: Buffer) => {
        if (/^ready$/m.test(d.toString())) resolve();
      });
      worker.child.once('exit', (code) => reject(new Error(`${integrationsScript} exited with ${code}`)));
    });
    return worker;
  }

  const calls = (): Call[] =>
    readFileSync(callsFile, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Call);

  /** `api` through the test's gateway. */
  const call = apiAt(() => gateway?.url ?? '');

  beforeAll(async () => {
    instance = await createTestInstance();
    database = await createScratchDatabase(base().DATABASE_URL ?? '', 'weft_e2e_runs');
    runnerAddr = `127.0.0.1:${await freePort()}`;
    dir = mkdtempSync(join(tmpdir(), 'weft-runs-'));
    callsFile = join(dir, 'calls.jsonl');
    writeFileSync(callsFile, '');
    integrations = await startStandIn();
    runner = await startRunner();
    gateway = await startSecondGateway({ RUNNER_ADDR: runnerAddr, WEFT_INSTANCE: instance.instance });
  }, 240_000);

  afterAll(async () => {
    gateway?.stop();
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await instance?.cleanup();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('killed mid-loop while an activity runs: once a runner is back the run finishes with the same output, and no completed activity ran twice', async () => {
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'rounds', blockType: 'loop', name: 'Rounds', position: { x: 400, y: 100 }, data: { loopType: 'for', count: 3 } },
      { type: 'addBlock', id: 'step', blockType: 'function', name: 'Step', position: { x: 50, y: 50 }, parentId: 'rounds' },
      { type: 'setSubBlockValue', id: 'step', subBlockId: 'code', value: 'await sleep(1500); return <loop.index> * 10 + <start.input.base>' },
      { type: 'addEdge', source: starter, target: 'rounds' },
      { type: 'addEdge', source: 'rounds', target: 'step', sourceHandle: 'loop-start-source' },
      { type: 'addBlock', id: 'total', blockType: 'function', name: 'Total', position: { x: 900, y: 100 } },
      { type: 'setSubBlockValue', id: 'total', subBlockId: 'code', value: 'return <rounds.results>.map((r) => r.result)' },
      { type: 'addEdge', source: 'rounds', target: 'total', sourceHandle: 'loop-end-source' },
    ]);
    // The same run uninterrupted: what the killed one must answer too.
    const reference = await call<RunAnswer>('POST', `/api/workflows/${id}/execute`, { base: 1 });
    expect(reference.body).toMatchObject({ success: true, output: { result: [1, 11, 21] } });

    const started = await call<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, { base: 1 }, { 'x-execution-mode': 'async' });
    expect(started.status).toBe(202);
    const executionId = started.body.executionId;
    const ofRun = () => calls().filter((c) => c.workflowId === executionId);
    // Mid-loop, mid-activity: the second iteration's function has started on the integrations worker.
    await expect.poll(() => ofRun().filter((c) => c.kind === 'start').length, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    await runner.stop('SIGKILL');
    const startedBeforeKill = ofRun().filter((c) => c.kind === 'start').length;
    expect(startedBeforeKill).toBeLessThan(4);
    // With no runner alive the activity still completes; its result waits in Temporal's history.
    await expect.poll(() => ofRun().filter((c) => c.kind === 'done').length, { timeout: 30_000, interval: 50 }).toBe(startedBeforeKill);
    runner = await startRunner();

    const done = await untilEnded<ExecutionAnswer>(executionId, { read: call, timeout: 90_000 });
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual(reference.body.output);
    expect(done.logs?.filter((l) => l.blockId === 'step').map((l) => [l.success, l.output])).toEqual([
      [true, { result: 1, stdout: '' }],
      [true, { result: 11, stdout: '' }],
      [true, { result: 21, stdout: '' }],
    ]);
    // Each activity completed exactly once, on its first attempt.
    const completed = ofRun().filter((c) => c.kind === 'done');
    expect(completed).toHaveLength(4);
    expect(new Set(completed.map((c) => c.activityId)).size).toBe(4);
    expect(completed.every((c) => c.attempt === 1)).toBe(true);
    // The stream of the finished run replays it whole, ending with its completion.
    const stream = await fetch(`${gateway?.url ?? ''}/api/executions/${executionId}/stream`, { headers: { cookie: await defaultCookie() } });
    const events = await readSse(stream);
    expect(events.at(-1)?.event).toBe('execution:completed');
    expect(events.filter((e) => e.event === 'block:completed' && e.data.blockId === 'step')).toHaveLength(3);
  }, 240_000);

  it('an integrations worker killed mid-activity: the call is tried again on the other worker within the heartbeat timeout, same output, no completed activity twice', async () => {
    const second = await startStandIn();
    const workers = [integrations, second];
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'slow', blockType: 'function', name: 'Slow', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'slow', subBlockId: 'code', value: 'await sleep(3000); return <start.input.base> * 2' },
      { type: 'addEdge', source: starter, target: 'slow' },
      { type: 'addBlock', id: 'after', blockType: 'function', name: 'After', position: { x: 800, y: 100 } },
      { type: 'setSubBlockValue', id: 'after', subBlockId: 'code', value: 'return <slow.result> + 1' },
      { type: 'addEdge', source: 'slow', target: 'after' },
    ]);
    const reference = await call<RunAnswer>('POST', `/api/workflows/${id}/execute`, { base: 20 });
    expect(reference.body).toMatchObject({ success: true, output: { result: 41 } });

    const started = await call<{ executionId: string }>('POST', `/api/workflows/${id}/execute`, { base: 20 }, { 'x-execution-mode': 'async' });
    expect(started.status).toBe(202);
    const executionId = started.body.executionId;
    const ofRun = () => calls().filter((c) => c.workflowId === executionId);
    await expect.poll(() => ofRun().filter((c) => c.kind === 'start').length, { timeout: 30_000, interval: 50 }).toBe(1);
    const lost = ofRun()[0] as Call;
    const victim = workers.find((w) => w.child.pid === lost.pid);
    const survivor = workers.find((w) => w !== victim);
    if (!victim || !survivor) throw new Error(`no worker of pid ${lost.pid}`);
    await victim.stop('SIGKILL');
    const killedAt = Date.now();
    // The lost call is seen at the 15 s heartbeat timeout, not at its 40 s start-to-close timeout.
    await expect.poll(() => ofRun().filter((c) => c.kind === 'start').length, { timeout: 60_000, interval: 100 }).toBe(2);
    expect(Date.now() - killedAt).toBeLessThan(35_000);

    const done = await untilEnded<ExecutionAnswer>(executionId, { read: call, timeout: 90_000 });
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual(reference.body.output);
    expect(done.logs?.filter((l) => l.blockId === 'slow').map((l) => [l.success, l.output, l.attempts])).toEqual([[true, { result: 40, stdout: '' }, 2]]);
    // The killed call never completed; each completed call completed once, on the surviving worker.
    const completed = ofRun().filter((c) => c.kind === 'done');
    expect(completed).toHaveLength(2);
    expect(new Set(completed.map((c) => c.activityId)).size).toBe(2);
    expect(completed.map((c) => c.activityId)).not.toContain(lost.activityId);
    expect(completed.every((c) => c.pid === survivor.child.pid)).toBe(true);
    integrations = survivor;
  }, 240_000);
});

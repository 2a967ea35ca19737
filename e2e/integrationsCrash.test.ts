/**
 * Durability of a run when the real integrations worker (services/integrations/dist/main.js, as the
 * stack starts it) is killed with SIGKILL while one of the run's API calls is in flight: once a fresh
 * worker polls, the run finishes with the output of an uninterrupted run, and every call that had
 * completed before the kill was made once. The killed call is lost with its worker: it is seen at the
 * 15 s heartbeat timeout and tried again by the engine (the log shows 2 attempts), so the local
 * server receives that one request twice — the first abandoned when the worker died. The agent's tool
 * loop, a workflow of that worker with its model calls as local activities, is killed while its tool
 * runs: the model call answered before (its result in the loop's history) is not made again.
 *
 * The test has its own runner, integrations worker, database and bus instance (so its own task
 * queues) and a second gateway in front of its runner: killing its worker touches nothing the other
 * tests use. Calls are held open by a local server until the worker is killed, never by a wait.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFakeServer, createTestInstance, uniqueSuffix, type FakeServer } from '@weft/testkit';
import { apiAt } from './support/http.js';
import { FINAL_ANSWER, USE_TOOL_MARK } from './support/modelFake.js';
import { startSecondGateway } from './support/gateway.js';
import { createScratchDatabase } from './support/databases.js';
import { startServiceOnFreePort, type TestProcess } from './support/processes.js';
import { untilEnded } from './support/runs.js';
import { oneBlock, workflowWith } from './support/runStream.js';

interface LogEntry {
  blockId: string;
  success: boolean;
  output?: unknown;
  attempts?: number;
}
interface ExecutionAnswer {
  status: string;
  output: unknown;
  error: string | null;
  logs?: LogEntry[];
}

describe('a run survives kill -9 of the real integrations worker mid-call', () => {
  const base = () => inject('weftEnv');
  let instance: { instance: string; cleanup(): Promise<void> } | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let runnerAddr: string;
  let runner: TestProcess | undefined;
  let integrations: TestProcess | undefined;
  let gateway: { url: string; stop: () => void } | undefined;
  let server: FakeServer;

  /** A fresh integrations worker of this test's instance (its own gRPC port; the activity queue is the instance's). */
  async function startIntegrations(): Promise<TestProcess> {
    const env = { ...base(), WEFT_INSTANCE: instance?.instance ?? '', DATABASE_URL: database?.url ?? '', RUNNER_ADDR: runnerAddr, WEFT_TOOL_BASE_URLS: JSON.stringify({ browserUse: `${server.url}/browser-use` }) };
    return (await startServiceOnFreePort('integrations', env)).service;
  }

  /** `api` through the test's gateway. */
  const call = apiAt(() => gateway?.url ?? '');

  /** Starts a run of `workflowId` through the test's gateway without waiting for it; answers its id. */
  async function start(workflowId: string, input: unknown): Promise<string> {
    const started = await call<{ executionId: string }>('POST', `/api/workflows/${workflowId}/execute`, input, { 'x-execution-mode': 'async' });
    expect(started.status).toBe(202);
    return started.body.executionId;
  }

  /** The run once it has ended, read through the test's gateway. */
  const finished = (executionId: string, timeout: number) => untilEnded<ExecutionAnswer>(executionId, { read: call, timeout, interval: 200 });

  /** Kills the worker while `path`'s request is held open, starts a fresh one, and waits for the call to be tried again. */
  async function crashDuring(path: string): Promise<void> {
    await expect.poll(() => server.received('GET', path).length, { timeout: 60_000, interval: 50 }).toBe(1);
    await integrations?.stop('SIGKILL');
    const killedAt = Date.now();
    // The request in flight dies with its worker: the server sees its connection go.
    await expect.poll(() => server.received('GET', path)[0]?.abandoned, { timeout: 10_000, interval: 50 }).toBe(true);
    integrations = await startIntegrations();
    // Seen lost at the 15 s heartbeat timeout and tried again, on the fresh worker — not at the
    // call's start-to-close timeout, minutes away (the margin is for the worker's start on a loaded machine).
    await expect.poll(() => server.received('GET', path).length, { timeout: 90_000, interval: 100 }).toBe(2);
    expect(Date.now() - killedAt).toBeLessThan(75_000);
  }

  beforeAll(async () => {
    server = await createFakeServer();
    // Each path answers at once unless a test holds it (`once` … `hang`) for a run it crashes.
    server.on('GET', '/step/:tag/:name', (req) => ({ json: { n: (req.path.split('/').pop() ?? '').length, answer: `answered ${req.path.split('/').pop() ?? ''}` } }));
    server.on('GET', '/round/:tag/:index', (req) => ({ json: { n: Number(req.path.split('/').pop()) * 10 } }));
    server.on('GET', '/branch/:tag/:index', (req) => ({ json: { n: Number(req.path.split('/').pop()) * 10 } }));
    instance = await createTestInstance();
    database = await createScratchDatabase(base().DATABASE_URL ?? '', 'weft_e2e_crash');
    ({ service: runner, addr: runnerAddr } = await startServiceOnFreePort('runner', { ...base(), WEFT_INSTANCE: instance.instance, DATABASE_URL: database.url }));
    integrations = await startIntegrations();
    gateway = await startSecondGateway({ RUNNER_ADDR: runnerAddr, WEFT_INSTANCE: instance.instance });
  }, 300_000);

  afterAll(async () => {
    gateway?.stop();
    await Promise.all([runner?.stop('SIGKILL'), integrations?.stop('SIGKILL')]);
    await instance?.cleanup();
    await database?.drop();
    await server?.close();
  });

  it('killed mid-activity (an API call held open): the run finishes with the same output; the calls completed before and after it were made once', async () => {
    // starter → API "Before" → API "Wait" (held in the crashed run) → API "After" → function "Total".
    const api = (id: string, name: string, x: number) => [
      { type: 'addBlock', id, blockType: 'api', name, position: { x, y: 100 } },
      { type: 'setSubBlockValue', id, subBlockId: 'url', value: `${server.url}/step/<start.input.tag>/${id}` },
      { type: 'setSubBlockValue', id, subBlockId: 'method', value: 'GET' },
    ];
    const { id } = await workflowWith((starter) => [
      ...api('before', 'Before', 300),
      { type: 'addEdge', source: starter, target: 'before' },
      ...api('wait', 'Wait', 600),
      { type: 'setSubBlockValue', id: 'wait', subBlockId: 'timeout', value: '120000' },
      { type: 'addEdge', source: 'before', target: 'wait' },
      ...api('after', 'After', 900),
      { type: 'addEdge', source: 'wait', target: 'after' },
      { type: 'addBlock', id: 'total', blockType: 'function', name: 'Total', position: { x: 1200, y: 100 } },
      { type: 'setSubBlockValue', id: 'total', subBlockId: 'code', value: 'return [<before.data.n>, <wait.data.answer>, <after.data.answer>]' },
      { type: 'addEdge', source: 'after', target: 'total' },
    ]);
    // The same run uninterrupted: what the crashed one must answer too.
    const reference = await finished(await start(id, { tag: 'reference' }), 60_000);
    expect(reference).toMatchObject({ status: 'succeeded', output: { result: [6, 'answered wait', 'answered after'] } });

    server.once('GET', '/step/crash/wait', { hang: true });
    const executionId = await start(id, { tag: 'crash' });
    await crashDuring('/step/crash/wait');

    const done = await finished(executionId, 90_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual(reference.output);
    expect(done.logs?.filter((l) => l.blockId !== done.logs?.[0]?.blockId).map((l) => [l.blockId, l.success, l.attempts ?? 1])).toEqual([
      ['before', true, 1],
      ['wait', true, 2],
      ['after', true, 1],
      ['total', true, 1],
    ]);
    // Before completed before the kill and After after it: each called once. Wait, in flight at the
    // kill, was called again — the one call that may legitimately run twice.
    expect(server.received('GET', '/step/crash/before')).toHaveLength(1);
    expect(server.received('GET', '/step/crash/after')).toHaveLength(1);
    expect(server.received('GET', '/step/crash/wait').map((r) => r.abandoned)).toEqual([true, false]);
  }, 300_000);

  it('killed mid-loop (the second round’s call held open): the run finishes with the same output; rounds 0 and 2 were called once', async () => {
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'rounds', blockType: 'loop', name: 'Rounds', position: { x: 400, y: 100 }, data: { loopType: 'for', count: 3 } },
      { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 50, y: 50 }, parentId: 'rounds' },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${server.url}/round/<start.input.tag>/<loop.index>` },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'timeout', value: '120000' },
      { type: 'addEdge', source: starter, target: 'rounds' },
      { type: 'addEdge', source: 'rounds', target: 'fetch', sourceHandle: 'loop-start-source' },
      { type: 'addBlock', id: 'total', blockType: 'function', name: 'Total', position: { x: 900, y: 100 } },
      { type: 'setSubBlockValue', id: 'total', subBlockId: 'code', value: 'return <rounds.results>.map((r) => r.data.n)' },
      { type: 'addEdge', source: 'rounds', target: 'total', sourceHandle: 'loop-end-source' },
    ]);
    const reference = await finished(await start(id, { tag: 'reference' }), 60_000);
    expect(reference).toMatchObject({ status: 'succeeded', output: { result: [0, 10, 20] } });

    server.once('GET', '/round/crash/1', { hang: true });
    const executionId = await start(id, { tag: 'crash' });
    await crashDuring('/round/crash/1');

    const done = await finished(executionId, 90_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual(reference.output);
    expect(done.logs?.filter((l) => l.blockId === 'fetch').map((l) => [l.success, l.attempts ?? 1])).toEqual([
      [true, 1],
      [true, 2],
      [true, 1],
    ]);
    expect(server.received('GET', '/round/crash/0')).toHaveLength(1);
    expect(server.received('GET', '/round/crash/1').map((r) => r.abandoned)).toEqual([true, false]);
    expect(server.received('GET', '/round/crash/2')).toHaveLength(1);
  }, 300_000);

  it('killed mid-parallel (one branch’s call held open, the other two done): the run finishes with the same output; the done branches were called once', async () => {
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'branches', blockType: 'parallel', name: 'Branches', position: { x: 400, y: 100 }, data: { parallelType: 'count', count: 3 } },
      { type: 'addBlock', id: 'fetch', blockType: 'api', name: 'Fetch', position: { x: 50, y: 50 }, parentId: 'branches' },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'url', value: `${server.url}/branch/<start.input.tag>/<parallel.index>` },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'method', value: 'GET' },
      { type: 'setSubBlockValue', id: 'fetch', subBlockId: 'timeout', value: '120000' },
      { type: 'addEdge', source: starter, target: 'branches' },
      { type: 'addEdge', source: 'branches', target: 'fetch', sourceHandle: 'parallel-start-source' },
      { type: 'addBlock', id: 'total', blockType: 'function', name: 'Total', position: { x: 900, y: 100 } },
      { type: 'setSubBlockValue', id: 'total', subBlockId: 'code', value: 'return <branches.results>.map((r) => r.data.n)' },
      { type: 'addEdge', source: 'branches', target: 'total', sourceHandle: 'parallel-end-source' },
    ]);
    const reference = await finished(await start(id, { tag: 'reference' }), 60_000);
    expect(reference).toMatchObject({ status: 'succeeded', output: { result: [0, 10, 20] } });

    server.once('GET', '/branch/crash/1', { hang: true });
    const executionId = await start(id, { tag: 'crash' });
    // Branches 0 and 2 are done — in the run's log, so their results are in Temporal's history — before the kill.
    const doneBranches = async () => (await call<ExecutionAnswer>('GET', `/api/executions/${executionId}`)).body.logs?.filter((l) => l.blockId === 'fetch' && l.success).length;
    await expect.poll(doneBranches, { timeout: 60_000, interval: 100 }).toBe(2);
    await crashDuring('/branch/crash/1');

    const done = await finished(executionId, 90_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    expect(done.output).toEqual(reference.output);
    expect(done.logs?.filter((l) => l.blockId === 'fetch').map((l) => [l.success, l.attempts ?? 1]).sort()).toEqual([
      [true, 1],
      [true, 1],
      [true, 2],
    ]);
    expect(server.received('GET', '/branch/crash/0')).toHaveLength(1);
    expect(server.received('GET', '/branch/crash/1').map((r) => r.abandoned)).toEqual([true, false]);
    expect(server.received('GET', '/branch/crash/2')).toHaveLength(1);
  }, 300_000);

  it('killed while the agent tool loop waits on its tool: the model call answered before the kill is not made again; the tool is tried again and the loop ends', async () => {
    // The worker runs the loop's workflow, its model calls (local activities) and its tool: all die with it.
    const nonce = uniqueSuffix();
    server.on('POST', '/notes/:tag', () => ({ status: 201, json: { saved: true } }));
    server.once('POST', `/notes/${nonce}`, { hang: true });
    const { id } = await workflowWith(
      oneBlock('agent', 'agent', 'Agent 1', {
        model: 'gpt-4o',
        apiKey: 'sk-e2e',
        userPrompt: `${USE_TOOL_MARK} save ${nonce}`,
        tools: [{ type: 'api', params: { url: `${server.url}/notes/${nonce}`, method: 'POST', timeout: '120000' } }],
      }),
    );
    const chats = async () =>
      ((await (await fetch(`${inject('modelFakeUrl')}/_fake/chats`)).json()) as Array<{ body: { messages: Array<{ role: string; content: string }> }; abandoned: boolean }>).filter((c) =>
        c.body.messages.some((m) => m.role === 'user' && m.content.includes(nonce)),
      );
    const executionId = await start(id, {});
    // The tool runs: the model's first answer (the tool call) is in the loop's history.
    await expect.poll(() => server.received('POST', `/notes/${nonce}`).length, { timeout: 60_000, interval: 50 }).toBe(1);
    expect(await chats()).toHaveLength(1);
    await integrations?.stop('SIGKILL');
    await expect.poll(() => server.received('POST', `/notes/${nonce}`)[0]?.abandoned, { timeout: 10_000, interval: 50 }).toBe(true);
    integrations = await startIntegrations();

    const done = await finished(executionId, 120_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    expect(done.output).toMatchObject({ content: FINAL_ANSWER, toolCalls: [{ name: 'http_request', success: true }] });
    // Two model calls in all: the one answered before the kill was not made again; the follow-up carries the tool's answer.
    const made = await chats();
    expect(made.map((c) => [c.body.messages.some((m) => m.role === 'tool'), c.abandoned])).toEqual([
      [false, false],
      [true, false],
    ]);
    expect(made[1]?.body.messages.find((m) => m.role === 'tool')?.content).toContain('"saved":true');
    // The tool, in flight at the kill, was called again (found lost at its heartbeat timeout).
    expect(server.received('POST', `/notes/${nonce}`).map((r) => r.abandoned)).toEqual([true, false]);
  }, 300_000);

  it('killed while a polling tool waits on its job (a browser task): the call tried again joins the job its first try started — the task is started once — and the run ends with its result', async () => {
    // The engine tries the call again as a new activity; the job is the call's, not the activity's (issue 11).
    let taskDone = false;
    server.on('POST', '/browser-use/run-task', () => ({ json: { id: 'task-crash' } }));
    server.on('GET', '/browser-use/task/:id', () => ({ json: { id: 'task-crash', status: taskDone ? 'finished' : 'running', output: taskDone ? 'page read' : null, steps: [] } }));
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'browse', blockType: 'browser_use', name: 'Browse', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'browse', subBlockId: 'task', value: 'read the page' },
      { type: 'setSubBlockValue', id: 'browse', subBlockId: 'apiKey', value: 'bu-e2e-key' },
      { type: 'addEdge', source: starter, target: 'browse' },
    ]);
    const executionId = await start(id, {});
    // The task was started and checked at least once (every 5 s) before the worker dies.
    await expect.poll(() => server.received('GET', '/browser-use/task/:id').length, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    await integrations?.stop('SIGKILL');
    taskDone = true;
    integrations = await startIntegrations();

    const done = await finished(executionId, 120_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');
    expect(done.logs?.find((l) => l.blockId === 'browse')).toMatchObject({ success: true, attempts: 2, output: { id: 'task-crash', success: true, output: 'page read' } });
    expect(server.received('POST', '/browser-use/run-task')).toHaveLength(1);
  }, 300_000);

  it('a run cancelled while its worker is dead mid-call ends cancelled at once, and a fresh worker does not make the call again', async () => {
    const { id } = await workflowWith((starter) => [
      { type: 'addBlock', id: 'wait', blockType: 'api', name: 'Wait', position: { x: 400, y: 100 } },
      { type: 'setSubBlockValue', id: 'wait', subBlockId: 'url', value: `${server.url}/step/<start.input.tag>/wait` },
      { type: 'setSubBlockValue', id: 'wait', subBlockId: 'method', value: 'GET' },
      { type: 'setSubBlockValue', id: 'wait', subBlockId: 'timeout', value: '120000' },
      { type: 'addEdge', source: starter, target: 'wait' },
    ]);
    server.once('GET', '/step/cancelled/wait', { hang: true });
    const executionId = await start(id, { tag: 'cancelled' });
    await expect.poll(() => server.received('GET', '/step/cancelled/wait').length, { timeout: 60_000, interval: 50 }).toBe(1);
    await integrations?.stop('SIGKILL');
    await expect.poll(() => server.received('GET', '/step/cancelled/wait')[0]?.abandoned, { timeout: 10_000, interval: 50 }).toBe(true);

    // The run does not wait for the lost call's heartbeat timeout (15 s) to end.
    const asked = Date.now();
    const cancelled = await call<ExecutionAnswer>('POST', `/api/executions/${executionId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(12_000);

    // A fresh worker runs the next run to its end; the cancelled call was never made again.
    integrations = await startIntegrations();
    const next = await finished(await start(id, { tag: 'next' }), 90_000);
    expect(next).toMatchObject({ status: 'succeeded', output: { data: { answer: 'answered wait' } } });
    expect(server.received('GET', '/step/cancelled/wait')).toHaveLength(1);
    expect((await call<ExecutionAnswer>('GET', `/api/executions/${executionId}`)).body.status).toBe('cancelled');
  }, 300_000);
});

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createLogger, loadConfig, temporalLogger, type Database } from '@weft/platform';
import { backingEnv, createFakeServer, createTestDatabase, uniqueSuffix, type FakeServer } from '@weft/testkit';
import { migrations } from '../migrations/index.js';
import { createToolRuntime, type ToolRuntime } from '../runtime.js';
import { SandboxPool } from '../function/sandbox.js';
import type { IntegrationsDB } from '../db.js';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';

// Polling runs on real Temporal with a short interval (the definitions' is 5 s) and a limit no loaded
// machine reaches, except in the give-up test (the definitions' 180 s limit; its message is theirs).
const POLLING = { intervalMs: 100, timeoutMs: 600_000 };
const SHORT_POLLING = { intervalMs: 100, timeoutMs: 1_500 };
const context = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'u1' };

let database: Database<IntegrationsDB> & { drop(): Promise<void> };
let fake: FakeServer;
let connection: Connection;
let native: NativeConnection;
let bundle: WorkflowBundleWithSourceMap;
let rt: ToolRuntime;
/** The same runtime with a short limit. */
let rtShort: ToolRuntime;
const sandbox = new SandboxPool({ size: 1 });
const taskQueue = `jobs-test-${uniqueSuffix()}`;
/** Status answered by the fake for each task id, read on every check. */
const statuses = new Map<string, string>();

/** Attempts of the test's executeTool activity; the first one dies once the job has started (as a worker would). */
let attempts = 0;
const executeToolOnce = async (input: ExecuteToolInput): Promise<ToolResult> => {
  attempts += 1;
  const result = rt.tools.execute(input, 'throw');
  if (attempts > 1) return result;
  result.catch(() => undefined);
  await expect.poll(() => fake.received('POST', '/run-task').filter((r) => (r.body as { task: string }).task === input.params.task).length, { timeout: 30_000 }).toBe(1);
  throw new Error('worker lost mid-poll');
};

async function startWorker(): Promise<{ stop(): Promise<void> }> {
  const worker = await Worker.create({ connection: native, taskQueue, workflowBundle: bundle, activities: { ...rt.jobActivities, executeToolOnce } });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}

const run = (params: Record<string, unknown>, extra: { skipPostProcess?: boolean } = {}, runtime = () => rt) => runtime().tools.execute({ toolId: 'browser_use_run_task', params: { apiKey: 'bu-secret-key', ...params }, context, ...extra }, 'answer');

beforeAll(async () => {
  try {
    Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
  } catch {
    // installed already in this process
  }
  const { temporalAddress } = await backingEnv();
  connection = await Connection.connect({ address: temporalAddress });
  native = await NativeConnection.connect({ address: temporalAddress });
  bundle = await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./testWorkflows.ts', import.meta.url)), logger: temporalLogger(createLogger('bundle', 'silent')) });
  database = await createTestDatabase<IntegrationsDB>('integrations_jobs', migrations);
  fake = await createFakeServer();
  let next = 0;
  fake.on('POST', '/run-task', (req) => {
    const task = (req.body as { task?: string }).task ?? '';
    if (task === 'invalid') return { status: 422, json: { detail: [{ loc: ['body', 'task'], msg: 'too short' }] } };
    next += 1;
    const id = `${task}-${next}`;
    statuses.set(id, task === 'fails' ? 'failed' : 'running');
    return { json: { id } };
  });
  fake.on('GET', '/task/:id', (req) => {
    const id = req.path.split('/').pop() ?? '';
    const checks = fake.received('GET', '/task/:id').filter((r) => r.path === req.path).length;
    const status = statuses.get(id) ?? 'running';
    // "quick" tasks finish on their third check; "hold" tasks wait for the test to finish them.
    if (id.startsWith('quick') && checks >= 3) return { json: { id, status: 'finished', output: 'done', steps: [{ n: 1 }] } };
    return { json: { id, status, output: null, steps: [] } };
  });
  const config = loadConfig({ ...process.env, WEFT_INSTANCE: 'tjobs' });
  const client = new Client({ connection });
  const runtime = (polling: { intervalMs: number; timeoutMs: number }) => createToolRuntime({
    db: database.db,
    logger: createLogger('integrations', 'silent'),
    config,
    env: { WEFT_TOOL_BASE_URLS: JSON.stringify({ browserUse: fake.url }) },
    registry: { getOAuthToken: () => Promise.reject(new Error('unused')), listCustomTools: () => Promise.resolve({ toolsJson: '[]' }) },
    policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] },
    docsDir: null,
    sandbox,
    jobs: { client, taskQueue, polling },
  });
  rt = runtime(POLLING);
  rtShort = runtime(SHORT_POLLING);
});
afterAll(async () => {
  await rt?.close();
  await rtShort?.close();
  await sandbox.close();
  await fake?.close();
  await database?.drop();
  await native?.close();
  await connection?.close();
});
beforeEach(() => {
  statuses.clear();
});

describe('browser task as a durable polling workflow', () => {
  let worker: { stop(): Promise<void> };
  beforeAll(async () => {
    worker = await startWorker();
  });
  afterAll(async () => worker?.stop());

  it('starts the task once and polls until it is finished', async () => {
    const res = await run({ task: 'quick' });
    expect(res.error).toBeUndefined();
    expect(res).toMatchObject({ success: true, output: { success: true, output: 'done', steps: [{ n: 1 }] } });
    const id = (res.output as { id: string }).id;
    expect(fake.received('POST', '/run-task').filter((r) => (r.body as { task: string }).task === 'quick')).toHaveLength(1);
    expect(fake.received('GET', '/task/:id').filter((r) => r.path === `/task/${id}`)).toHaveLength(3);
    const start = fake.received('POST', '/run-task').at(-1);
    expect(start?.headers.authorization).toBe('Bearer bu-secret-key');
    expect(start?.body).toMatchObject({ task: 'quick', llm_model: 'gpt-4o', save_browser_data: false });
    expect(JSON.stringify(res)).not.toContain('bu-secret-key');
  });

  it('a failed or stopped task ends the polling with its status', async () => {
    expect(await run({ task: 'fails' })).toMatchObject({ success: false, error: 'Browser task failed', output: { success: false } });
  });

  it('gives up after the limit with the spec message', async () => {
    expect(await run({ task: 'hold' }, {}, () => rtShort)).toMatchObject({ success: false, error: 'Task did not complete within the maximum polling time (180s)' });
  });

  it('a 422 at the start is a validation error, and nothing is polled', async () => {
    const before = fake.received('GET', '/task/:id').length;
    const res = await run({ task: 'invalid' });
    expect(res).toMatchObject({ success: false, error: expect.stringMatching(/^Validation error: .*too short/) });
    expect(fake.received('GET', '/task/:id')).toHaveLength(before);
  });

  it('with post-processing skipped the task is started and its id answered without polling', async () => {
    const before = fake.received('GET', '/task/:id').length;
    const res = await run({ task: 'skip' }, { skipPostProcess: true });
    expect(res).toMatchObject({ success: true, output: { id: expect.stringMatching(/^skip-/) } });
    expect(fake.received('GET', '/task/:id')).toHaveLength(before);
  });
});

describe('a worker that dies mid-poll', () => {
  it('a retried tool activity joins the job its first attempt started', async () => {
    const worker = await startWorker();
    try {
      const input: ExecuteToolInput = { toolId: 'browser_use_run_task', params: { task: 'quickretry', apiKey: 'k' }, context };
      const res = await new Client({ connection }).workflow.execute('callTool', { taskQueue, workflowId: `call-${uniqueSuffix()}`, args: [input] });
      expect(attempts).toBe(2);
      expect(res).toMatchObject({ success: true, output: { success: true, output: 'done' } });
      expect(fake.received('POST', '/run-task').filter((r) => (r.body as { task: string }).task === 'quickretry')).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  }, 90_000);

  it('is replaced by another worker, which resumes the polling without starting a second task', async () => {
    const first = await startWorker();
    const pending = run({ task: 'crash' });
    const checksOf = (id: string) => fake.received('GET', '/task/:id').filter((r) => r.path === `/task/${id}`).length;
    // Wait until the task was started and polled at least once, then take the worker away.
    await expect.poll(() => [...statuses.keys()].find((k) => k.startsWith('crash-')), { timeout: 30_000 }).toBeDefined();
    const id = [...statuses.keys()].find((k) => k.startsWith('crash-')) ?? '';
    await expect.poll(() => checksOf(id), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await first.stop();
    statuses.set(id, 'finished');
    const second = await startWorker();
    try {
      expect(await pending).toMatchObject({ success: true, output: { id, success: true } });
      expect(fake.received('POST', '/run-task').filter((r) => (r.body as { task: string }).task === 'crash')).toHaveLength(1);
    } finally {
      await second.stop();
    }
  }, 90_000);
});

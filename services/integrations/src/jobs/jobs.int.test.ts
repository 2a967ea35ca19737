import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createLogger, loadConfig, temporalLogger, type Database } from '@weft/platform';
import { SEARCH_FIXTURES, backingEnv, createFakeSearch, createFakeServer, createTestDatabase, uniqueSuffix, type FakeServer } from '@weft/testkit';
import { keepHistory } from '@weft/testkit/histories';
import { migrations } from '../migrations/index.js';
import { createToolRuntime, type ToolRuntime } from '../runtime.js';
import { SandboxPool } from '../function/sandbox.js';
import { createActivities } from '../activities/index.js';
import type { IntegrationsDB } from '../db.js';
import type { ExecuteToolInput, ToolResult } from '@weft/contracts';

// Polling runs on real Temporal with a short interval (the definitions' is 5 s) and a limit no loaded
// machine reaches, except in the give-up tests (the definitions' 180 s / 300 s limits; their messages are theirs).
// Time skipping is not available here: TestWorkflowEnvironment.createTimeSkipping() must download the
// test server, which fails without internet ("failed to download ephemeral server executable"), so the
// interval and limit are injected (ToolRuntimeOptions.jobs.polling) and tests wait real, short intervals.
const POLLING = { intervalMs: 100, timeoutMs: 600_000 };
const SHORT_POLLING = { intervalMs: 100, timeoutMs: 1_500 };
const context = { workspaceId: 'ws1', workflowId: 'wf1', actorId: 'u1' };

let database: Database<IntegrationsDB> & { drop(): Promise<void> };
let fake: FakeServer;
/** Exa under /exa, Firecrawl under /firecrawl. */
let search: FakeServer;
let connection: Connection;
let native: NativeConnection;
let bundle: WorkflowBundleWithSourceMap;
let rt: ToolRuntime;
/** The same runtime with a short limit. */
let rtShort: ToolRuntime;
const sandbox = new SandboxPool({ size: 1 });
const taskQueue = `jobs-test-${uniqueSuffix()}`;
/** Histories of `pollToolJob` kept for the worker's replay test (replay.int.test.ts) when WEFT_WRITE_HISTORIES is set. */
const historiesDir = fileURLToPath(new URL('./histories/', import.meta.url));
/** Workflow ids of the polling workflows the tool runtime started, newest last. */
const jobIds: string[] = [];
/** Keeps the history of the newest polling workflow (ended by now). */
async function keepNewestJob(name: string): Promise<void> {
  const id = jobIds.at(-1);
  if (!id) throw new Error('no polling workflow was started');
  await keepHistory(new Client({ connection }).workflow.getHandle(id), historiesDir, name);
}
/** Status answered by the fake for each task id, read on every check. */
const statuses = new Map<string, string>();

/** Attempts of the test's executeTool activity; the first one dies once the job has started (as a worker would). */
let attempts = 0;
/** The worker's executeTool activity, but its first attempt dies once the job has started. */
const executeToolOnce = async (input: ExecuteToolInput): Promise<ToolResult> => {
  attempts += 1;
  const result = createActivities({ sandbox, tools: rt.tools }).executeTool(input);
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
  search = await createFakeSearch();
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
  // The runtime's client notes the polling workflows it starts (keepNewestJob).
  const client = new Client({
    connection,
    interceptors: {
      workflow: [
        {
          async start(input, next) {
            const runId = await next(input);
            if (input.workflowType === 'pollToolJob') jobIds.push(input.options.workflowId);
            return runId;
          },
        },
      ],
    },
  });
  const runtime = (polling: { intervalMs: number; timeoutMs: number }) => createToolRuntime({
    db: database.db,
    logger: createLogger('integrations', 'silent'),
    config,
    env: { WEFT_TOOL_BASE_URLS: JSON.stringify({ browserUse: fake.url, exa: `${search.url}/exa`, firecrawl: `${search.url}/firecrawl` }) },
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
  await search?.close();
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
    await keepNewestJob('poll-done');
  });

  it('a failed or stopped task ends the polling with its status', async () => {
    expect(await run({ task: 'fails' })).toMatchObject({ success: false, error: 'Browser task failed', output: { success: false } });
    await keepNewestJob('poll-failed');
  });

  it('gives up after the limit with the spec message', async () => {
    expect(await run({ task: 'hold' }, {}, () => rtShort)).toMatchObject({ success: false, error: 'Task did not complete within the maximum polling time (180s)' });
    await keepNewestJob('poll-timeout');
  });

  it('a 422 at the start is a validation error, and nothing is polled', async () => {
    const before = fake.received('GET', '/task/:id').length;
    const res = await run({ task: 'invalid' });
    expect(res).toMatchObject({ success: false, error: expect.stringMatching(/^Validation error: .*too short/) });
    expect(fake.received('GET', '/task/:id')).toHaveLength(before);
    await keepNewestJob('poll-start-error');
  });

  it('a cancelled call (its activity was cancelled) cancels its polling workflow and stops waiting for it', async () => {
    const stop = new AbortController();
    const pending = rt.tools.execute({ toolId: 'browser_use_run_task', params: { apiKey: 'k', task: 'cancelme' }, context }, 'answer', stop.signal);
    await expect.poll(() => [...statuses.keys()].find((k) => k.startsWith('cancelme-'))).toBeDefined();
    const id = [...statuses.keys()].find((k) => k.startsWith('cancelme-')) ?? '';
    await expect.poll(() => fake.received('GET', '/task/:id').filter((r) => r.path === `/task/${id}`).length).toBeGreaterThanOrEqual(1);
    stop.abort();
    // Without the cancellation the call would wait out the 600 s polling limit.
    expect(await pending).toMatchObject({ success: false });
    const cancelled = async () => {
      const query = `WorkflowType = 'pollToolJob' AND ExecutionStatus = 'Canceled' AND TaskQueue = '${taskQueue}'`;
      for await (const w of new Client({ connection }).workflow.list({ query })) return w.status.name;
      return undefined;
    };
    await expect.poll(cancelled).toBe('CANCELLED');
    await keepNewestJob('poll-cancelled');
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
    attempts = 0;
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

  // The runner's blocks and the agent tool loop try a call again as a new activity (a new activity
  // id), naming the call: the runner by its run's call number (storeLargeOutput.call), the loop by the
  // tool call's number. The second try joins the job the first started: the task is started once.
  it.each([
    { caller: "the runner's blocks", task: 'quickrunner', extra: { storeLargeOutput: { executionId: 'exec-jobs', overLength: 1_000_000, call: 4 } } },
    { caller: 'the agent tool loop', task: 'quickloop', extra: { call: 2 } },
  ])('a call tried again by $caller (a new activity per try) joins the job its first try started', async ({ task, extra }) => {
    const worker = await startWorker();
    attempts = 0;
    try {
      const input: ExecuteToolInput = { toolId: 'browser_use_run_task', params: { task, apiKey: 'k' }, context, ...extra };
      const res = await new Client({ connection }).workflow.execute('callToolTried', { taskQueue, workflowId: `call-${uniqueSuffix()}`, args: [input] });
      expect(attempts).toBe(2);
      expect(res).toMatchObject({ success: true, output: { success: true, output: 'done' } });
      expect(fake.received('POST', '/run-task').filter((r) => (r.body as { task: string }).task === task)).toHaveLength(1);
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
      await keepNewestJob('poll-worker-lost');
    } finally {
      await second.stop();
    }
  }, 90_000);
});

const callTool = (toolId: string, params: Record<string, unknown>, runtime = () => rt) => runtime().tools.execute({ toolId, params, context }, 'answer');
const f = SEARCH_FIXTURES;

describe('Firecrawl crawl as a durable polling workflow', () => {
  let worker: { stop(): Promise<void> };
  beforeAll(async () => {
    worker = await startWorker();
  });
  afterAll(async () => worker?.stop());
  const crawls = (url: string) => search.received('POST', '/firecrawl/crawl').filter((r) => (r.body as { url?: string }).url === url);

  it('starts the crawl once (limit default 100) and polls it until completed', async () => {
    search.once('GET', '/firecrawl/crawl/crawl-1', { json: { status: 'scraping', total: 2, completed: 1 } });
    const before = search.received('GET', '/firecrawl/crawl/crawl-1').length;
    const res = await callTool('firecrawl_crawl', { apiKey: 'fc-secret-key', url: 'https://weft.example/once', onlyMainContent: true });
    expect(res.error).toBeUndefined();
    expect(res.output).toEqual({
      pages: [
        { markdown: '# Home', html: '<h1>Home</h1>', metadata: { sourceURL: 'https://weft.example' } },
        { markdown: '# Docs', metadata: { sourceURL: 'https://weft.example/docs' } },
      ],
      total: 2,
      creditsUsed: 2,
    });
    expect(crawls('https://weft.example/once').map((r) => r.body)).toEqual([{ url: 'https://weft.example/once', limit: 100, scrapeOptions: { onlyMainContent: true } }]);
    expect(crawls('https://weft.example/once')[0]?.headers.authorization).toBe('Bearer fc-secret-key');
    expect(search.received('GET', '/firecrawl/crawl/crawl-1').length - before).toBe(2);
    expect(JSON.stringify(res)).not.toContain('fc-secret-key');
  });

  it('a failed crawl ends the polling with "Crawl job failed"; the limit is parsed as an integer', async () => {
    search.once('GET', '/firecrawl/crawl/crawl-1', { json: { status: 'failed' } });
    expect(await callTool('firecrawl_crawl', { apiKey: 'k', url: 'https://weft.example/fails', limit: '7' })).toMatchObject({ success: false, error: 'Crawl job failed' });
    expect(crawls('https://weft.example/fails')[0]?.body).toMatchObject({ limit: 7 });
  });

  it.each([
    [401, 'Invalid API key. Please check your Firecrawl API key.'],
    [429, 'Rate limit exceeded. Please try again later.'],
    [402, 'Insufficient credits. Please check your Firecrawl plan and usage.'],
  ])('%i at the start answers its §8 message and nothing is polled', async (status, message) => {
    const before = search.received('GET', '/firecrawl/crawl/:id').length;
    search.once('POST', '/firecrawl/crawl', { status, json: { success: false, error: 'refused' } });
    expect(await callTool('firecrawl_crawl', { apiKey: 'k', url: `https://weft.example/${status}` })).toMatchObject({ success: false, error: message });
    expect(search.received('GET', '/firecrawl/crawl/:id')).toHaveLength(before);
  });

  it('a 402 while polling answers its §8 message', async () => {
    search.once('GET', '/firecrawl/crawl/crawl-1', { status: 402, json: { success: false, error: 'Payment required' } });
    expect(await callTool('firecrawl_crawl', { apiKey: 'k', url: 'https://weft.example/402-poll' })).toMatchObject({ success: false, error: 'Insufficient credits. Please check your Firecrawl plan and usage.' });
    await keepNewestJob('poll-check-error');
  });

  it('gives up after the limit with the spec message', async () => {
    search.once('POST', '/firecrawl/crawl', { json: { success: true, id: 'crawl-slow' } });
    search.on('GET', '/firecrawl/crawl/crawl-slow', { json: { status: 'scraping' } });
    expect(await callTool('firecrawl_crawl', { apiKey: 'k', url: 'https://weft.example/slow' }, () => rtShort)).toMatchObject({
      success: false,
      error: 'Crawl job did not complete within the maximum polling time (300s)',
    });
  });
});

describe('Exa research as a durable polling workflow', () => {
  let worker: { stop(): Promise<void> };
  beforeAll(async () => {
    worker = await startWorker();
  });
  afterAll(async () => worker?.stop());
  const tasks = (query: string) => search.received('POST', '/exa/research/v0/tasks').filter((r) => (r.body as { instructions?: string }).instructions === query);

  it('creates the task once and polls it; without a results array it answers one "Research Complete" entry', async () => {
    search.once('GET', '/exa/research/v0/tasks/task-1', { json: { id: 'task-1', status: 'running' } });
    const before = search.received('GET', '/exa/research/v0/tasks/task-1').length;
    const res = await callTool('exa_research', { apiKey: 'exa-secret-key', query: 'market for workflow tools', includeText: true });
    expect(res.error).toBeUndefined();
    expect(res.output).toEqual({
      taskId: 'task-1',
      research: [{ title: 'Research Complete', url: '', summary: f.exaResearchDone.data, score: 1 }],
      citations: [{ title: 'Source', url: 'https://weft.example/s', text: 'source text' }],
    });
    expect(tasks('market for workflow tools').map((r) => r.body)).toEqual([{ instructions: 'market for workflow tools', model: 'exa-research', output: { inferSchema: true } }]);
    expect(tasks('market for workflow tools')[0]?.headers['x-api-key']).toBe('exa-secret-key');
    expect(search.received('GET', '/exa/research/v0/tasks/task-1').length - before).toBe(2);
    expect(JSON.stringify(res)).not.toContain('exa-secret-key');
  });

  it('answers the results array when the task has one', async () => {
    const results = [{ title: 'Report', url: 'https://weft.example/r', summary: 'Findings', score: 0.9 }];
    search.once('GET', '/exa/research/v0/tasks/task-1', { json: { ...f.exaResearchDone, data: { results } } });
    expect(await callTool('exa_research', { apiKey: 'k', query: 'with results' })).toMatchObject({ success: true, output: { research: results, citations: [{ title: 'Source', url: 'https://weft.example/s' }] } });
  });

  it('a failed task answers "Research task failed: …"', async () => {
    search.once('GET', '/exa/research/v0/tasks/task-1', { json: { id: 'task-1', status: 'failed', error: 'quota of the model reached' } });
    expect(await callTool('exa_research', { apiKey: 'k', query: 'fails' })).toMatchObject({ success: false, error: 'Research task failed: quota of the model reached' });
  });

  it.each([
    [401, 'Invalid API key. Please check your Exa AI API key.'],
    [429, 'Rate limit exceeded. Please try again later.'],
  ])('%i answers its §8 message', async (status, message) => {
    search.once('POST', '/exa/research/v0/tasks', { status, json: { error: 'refused' } });
    expect(await callTool('exa_research', { apiKey: 'k', query: `refused ${status}` })).toMatchObject({ success: false, error: message });
  });

  it('gives up after the limit with the spec message', async () => {
    search.once('POST', '/exa/research/v0/tasks', { json: { id: 'task-slow', status: 'running' } });
    search.on('GET', '/exa/research/v0/tasks/task-slow', { json: { id: 'task-slow', status: 'running' } });
    expect(await callTool('exa_research', { apiKey: 'k', query: 'slow' }, () => rtShort)).toMatchObject({
      success: false,
      error: 'Research task did not complete within the maximum polling time (300s)',
    });
  });
});

describe('a worker that dies while a crawl or a research task is polled', () => {
  it.each([
    { toolId: 'firecrawl_crawl', params: { url: 'https://weft.example/crash' }, start: '/firecrawl/crawl', check: '/firecrawl/crawl/job-crash', id: 'job-crash', running: { status: 'scraping' }, done: f.firecrawlCrawlDone, expected: { total: 2, creditsUsed: 2 } },
    { toolId: 'exa_research', params: { query: 'crash' }, start: '/exa/research/v0/tasks', check: '/exa/research/v0/tasks/task-crash', id: 'task-crash', running: { status: 'running' }, done: { ...f.exaResearchDone, id: 'task-crash' }, expected: { taskId: 'task-crash' } },
  ])('$toolId: another worker resumes the polling without starting a second job', async ({ toolId, params, start, check, id, running, done, expected }) => {
    let finished = false;
    search.once('POST', start, { json: { id, status: 'running' } });
    search.on('GET', check, () => ({ json: finished ? done : running }));
    const startsBefore = search.received('POST', start).length;
    const first = await startWorker();
    const pending = callTool(toolId, { apiKey: 'k', ...params });
    // Wait until the job was started and checked at least once, then take the worker away.
    await expect.poll(() => search.received('GET', check).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await first.stop();
    finished = true;
    const second = await startWorker();
    try {
      expect(await pending).toMatchObject({ success: true, output: expected });
      expect(search.received('POST', start).length - startsBefore).toBe(1);
    } finally {
      await second.stop();
    }
  }, 90_000);
});

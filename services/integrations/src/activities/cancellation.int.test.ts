import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { SHARED_WORKFLOW_MODULES } from '@weft/platform/workflowBundle';
import { backingEnv, createFakeServer, uniqueSuffix, type FakeServer } from '@weft/testkit';
import { SandboxPool } from '../function/sandbox.js';
import { createBaseUrls } from '../tools/runtime/baseUrls.js';
import { createToolExecutor } from '../tools/runtime/executeTool.js';
import { createModelActivities } from '../models/activities.js';
import { compatibleEnv, testModelDeps } from '../models/testDeps.js';
import { createActivities, HEARTBEAT_THROTTLE_MAX } from './index.js';

// The runner's run workflow (bundled from its source, started by name) calls this worker's real
// function and tool activities; a cancelled run must stop them, not only stop waiting for them.
const runWorkflowsPath = fileURLToPath(new URL('../../../runner/src/workflows/index.ts', import.meta.url));

interface LogEntry {
  blockId: string;
  success: boolean;
  skipped?: boolean;
}
interface RunResult {
  success: boolean;
  cancelled?: boolean;
  error?: string;
  logs: LogEntry[];
}
type Block = { id: string; type: string; name: string; enabled: boolean; subBlocks: Record<string, { id: string; type: string; value: unknown }> };

const block = (id: string, type: string, values: Record<string, unknown> = {}): Block => ({
  id,
  type,
  name: id,
  enabled: true,
  subBlocks: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { id: k, type: 'short-input', value: v }])),
});
/** starter → `then`. */
const after = (then: Block) => ({ blocks: { s: block('s', 'starter'), [then.id]: then }, edges: [{ id: 'e1', source: 's', target: then.id }] });

const sandbox = new SandboxPool({ size: 1 });
let fake: FakeServer;
let connection: Connection;
let native: NativeConnection;
let client: Client;
let worker: Worker;
let running: Promise<void>;
const queue = `cancel-test-${uniqueSuffix()}`;

beforeAll(async () => {
  try {
    Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
  } catch {
    // installed already in this process
  }
  const { temporalAddress } = await backingEnv();
  connection = await Connection.connect({ address: temporalAddress });
  native = await NativeConnection.connect({ address: temporalAddress });
  client = new Client({ connection });
  fake = await createFakeServer();
  fake.on('GET', '/hang', { hang: true });
  fake.on('POST', '/v1/chat/completions', { hang: true });
  const tools = createToolExecutor({
    policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] },
    baseUrls: createBaseUrls({}, {}),
    credentials: { accessToken: () => Promise.reject(new Error('unused')) },
    customTools: { list: () => Promise.resolve([]) },
    internal: { handle: () => Promise.reject(new Error('unused')) },
    serviceTools: {},
    logger: createLogger('tools', 'silent'),
    runCode: (run) => sandbox.run(run),
  });
  const runnerStubs = {
    recordRunEvent: () => Promise.resolve(),
    storeBlob: () => Promise.reject(new Error('unused')),
    loadBlob: () => Promise.reject(new Error('unused')),
    loadEnvironment: () => Promise.resolve({}),
    startRun: () => Promise.resolve({}),
    loadChildWorkflow: () => Promise.reject(new Error('unused')),
  };
  // One worker serves the run workflow (and the agent's tool loop), the runner's activities (stubs) and the integrations activities.
  worker = await Worker.create({
    connection: native,
    taskQueue: queue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: runWorkflowsPath, preloadModules: SHARED_WORKFLOW_MODULES, logger: temporalLogger(createLogger('bundle', 'silent')) }),
    activities: { ...runnerStubs, ...createActivities({ sandbox, tools }), ...createModelActivities(testModelDeps(compatibleEnv(fake.url))) },
    sinks: { runLog: { record: { fn: () => undefined, callDuringReplay: false } } },
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MAX,
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await sandbox.close();
  await fake?.close();
  await native?.close();
  await connection?.close();
});

function start(state: unknown) {
  const id = `run-${uniqueSuffix()}`;
  return client.workflow.start('runWorkflow', {
    taskQueue: queue,
    workflowId: id,
    args: [{ executionId: id, workflowId: 'wf-cancel', workspaceId: '', state, input: {}, requestId: 'req-cancel', integrationsTaskQueue: queue }],
  });
}

describe('a cancelled run stops its running activities (real Temporal, real sandbox and HTTP client)', () => {
  it('a function block spinning forever: the run ends cancelled with its partial log and the sandbox thread is stopped', async () => {
    const handle = await start(after(block('spin', 'function', { code: 'while (true) {}', timeout: '120000' })));
    await expect.poll(() => sandbox.busy, { timeout: 30_000 }).toBe(1);
    await handle.cancel();
    const result = (await handle.result()) as RunResult;
    expect(result).toMatchObject({ success: false, cancelled: true, error: 'Run cancelled' });
    expect(result.logs.find((l) => l.blockId === 's')).toMatchObject({ success: true });
    // The activity learns of it through its next heartbeat (one a second) and interrupts the code;
    // without that the code would spin for its 120 s timeout. (Polls here wait up to 30 s: the cancellation
    // goes through Temporal, slow on a loaded machine, and 30 s still tells it from the 120 s timeouts.)
    await expect.poll(() => sandbox.busy, { timeout: 30_000 }).toBe(0);
    // The pool (one thread) is usable again at once.
    expect(await sandbox.run({ code: 'return 1 + 1', params: {}, envVars: {} })).toMatchObject({ success: true, result: 2 });
  });

  it('an API block waiting on a server that never answers: the run ends cancelled and the connection is closed', async () => {
    const handle = await start(after(block('api', 'api', { url: `${fake.url}/hang`, method: 'GET', timeout: '120000' })));
    await expect.poll(() => fake.received('GET', '/hang').length, { timeout: 30_000 }).toBe(1);
    await handle.cancel();
    const result = (await handle.result()) as RunResult;
    expect(result).toMatchObject({ success: false, cancelled: true, error: 'Run cancelled' });
    expect(result.logs.find((l) => l.blockId === 's')).toMatchObject({ success: true });
    // Closed through the heartbeat's cancellation, long before the request's own 120 s timeout.
    await expect.poll(() => fake.received('GET', '/hang')[0]?.abandoned, { timeout: 30_000 }).toBe(true);
  });

  it('an agent block waiting on a model that never answers: the run ends cancelled and the model request is closed', async () => {
    const handle = await start(after(block('agent', 'agent', { model: 'gpt-4o', apiKey: 'sk-test', userPrompt: 'Say hi' })));
    await expect.poll(() => fake.received('POST', '/v1/chat/completions').length, { timeout: 30_000 }).toBe(1);
    await handle.cancel();
    const result = (await handle.result()) as RunResult;
    expect(result).toMatchObject({ success: false, cancelled: true, error: 'Run cancelled' });
    await expect.poll(() => fake.received('POST', '/v1/chat/completions')[0]?.abandoned, { timeout: 30_000 }).toBe(true);
  });
});

/**
 * Test harness for the run engine: a real Temporal server (TEMPORAL_ADDRESS), the workflow bundle
 * built once, and fake activities standing in for the integrations worker (functions evaluated in
 * Node, scripted tools) and for the runner's own activities (events, blobs, environment, child
 * workflows kept in memory). Tests only.
 */
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode, type InjectedSinks, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type {
  CallModelInput,
  CallModelOutput,
  ExecuteFunctionInput,
  ExecuteFunctionOutput,
  ExecuteToolInput,
  IntegrationActivities,
  ModelActivities,
  ToolResult,
} from '@weft/contracts';
import { overBytes, utf8Bytes } from '@weft/catalog';
import { backingEnv, uniqueSuffix } from '@weft/testkit';
import { keepHistory } from '@weft/testkit/histories';
import { createLogger, temporalLogger } from '@weft/platform';
import { SHARED_WORKFLOW_MODULES } from '@weft/platform/workflowBundle';
import type { runWorkflow, RunWorkflowArgs } from '../workflows/index.js';
import type { BlobRef, RunEvent, RunLogSinks, RunnableState, RunnerActivities, RunResult } from '../workflows/types.js';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
/** The agent tool loop the integrations worker serves (its stand-ins here serve it too). */
export const toolLoopWorkflowsPath = fileURLToPath(new URL('../../../integrations/src/models/toolLoop.workflow.ts', import.meta.url));
export const historiesDir = fileURLToPath(new URL('../workflows/histories/', import.meta.url));
/** Histories of the integrations worker's agent tool loop, kept by modelBlocks.int.test.ts for that service's replay test. */
export const loopHistoriesDir = fileURLToPath(new URL('../../../integrations/src/jobs/histories/', import.meta.url));

/** The `runLog` sink of a test worker: block events join the recorded ones as they are handed over. */
export function recordedRunLog(events: RunEvent[]): InjectedSinks<RunLogSinks> {
  return {
    runLog: {
      record: { fn: (_info, event) => void events.push(event), callDuringReplay: false },
      end: { fn: () => {}, callDuringReplay: false },
    },
  };
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** The workflow bundle, built once per test file. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath, preloadModules: SHARED_WORKFLOW_MODULES, logger: temporalLogger(createLogger('bundle', 'silent')) });
  return bundle;
}

let loopBundle: Promise<WorkflowBundleWithSourceMap> | undefined;
/** The integrations worker's tool loop workflow, for stand-in integrations workers. */
export function toolLoopBundle(): Promise<WorkflowBundleWithSourceMap> {
  loopBundle ??= bundleWorkflowCode({ workflowsPath: toolLoopWorkflowsPath, preloadModules: SHARED_WORKFLOW_MODULES, logger: temporalLogger(createLogger('bundle', 'silent')) });
  return loopBundle;
}

const now = () => new Date().toISOString();
const timing = () => ({ startTime: now(), endTime: now(), duration: 0 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `n` calls of the same barrier are in flight at once (proves concurrency), or gives up. */
async function barrier(counts: Map<string, number>, name: string, n: number): Promise<boolean> {
  counts.set(name, (counts.get(name) ?? 0) + 1);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if ((counts.get(name) ?? 0) >= n) return true;
    await sleep(20);
  }
  return false;
}

/** Sleeps while heartbeating; a cancelled run cancels it through the heartbeat. */
async function heartbeatSleep(ms: number): Promise<void> {
  const ctx = Context.current();
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    ctx.heartbeat();
    await Promise.race([sleep(100), ctx.cancelled]);
  }
}

export interface Recorded {
  functionCalls: ExecuteFunctionInput[];
  toolCalls: ExecuteToolInput[];
  modelCalls: CallModelInput[];
  events: RunEvent[];
  blobs: Map<string, unknown>;
  /** Code markers seen: `// started:<name>` lines of function calls that began. */
  started: string[];
}

export type ToolScript = (input: ExecuteToolInput, attempt: number) => Promise<ToolResult> | ToolResult;
/** Scripts a model's answer: the content it says (tokens and cost are fixed small numbers). */
export type ModelScript = (input: CallModelInput) => string;

/** A model answer as the model layer's activity returns it. */
export function modelAnswer(input: CallModelInput, content: string): CallModelOutput {
  return {
    content,
    model: input.model,
    provider: 'openai',
    toolCalls: [],
    tokens: { prompt: 10, completion: 2, total: 12 },
    cost: { input: 0.001, output: 0.002, total: 0.003 },
    timing: timing(),
    chunks: 0,
  };
}

/**
 * The fake sandbox: runs the code as an async function of `params` and `environmentVariables` in
 * Node. Markers: `// barrier:<name>:<n>` waits for n concurrent calls; `// sleep:<ms>` sleeps
 * heartbeating; `// started:<name>` is recorded when the call begins.
 */
async function fakeFunction(input: ExecuteFunctionInput, rec: Recorded, barriers: Map<string, number>): Promise<ExecuteFunctionOutput> {
  rec.functionCalls.push(input);
  for (const m of input.code.matchAll(/\/\/ started:(\S+)/g)) rec.started.push(m[1] as string);
  const b = /\/\/ barrier:(\S+):(\d+)/.exec(input.code);
  if (b && !(await barrier(barriers, b[1] as string, Number(b[2])))) {
    return { success: false, output: { result: null, stdout: '' }, error: `barrier ${b[1]} not reached`, timing: timing() };
  }
  const s = /\/\/ sleep:(\d+)/.exec(input.code);
  if (s) await heartbeatSleep(Number(s[1]));
  try {
    const fn = new Function('params', 'environmentVariables', `return (async () => {\n${input.code}\n})()`) as (p: unknown, e: unknown) => Promise<unknown>;
    const result = await fn(input.params, input.envVars);
    return { success: true, output: { result: result ?? null, stdout: '' }, timing: timing() };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { success: false, output: { result: null, stdout: '' }, error: `Line 1:1 - ${message}`, debug: { line: 1, column: 1, errorType: 'Error' }, timing: timing() };
  }
}

export interface EngineHarness {
  client: Client;
  /** Task queue of the run workflows (served in process unless `workflowWorker: false`). */
  queue: string;
  temporalAddress: string;
  rec: Recorded;
  /** Scripts the tool runtime's answers (default: 'Tool not found'). */
  setTools(script: ToolScript): void;
  /** Scripts the model layer's `callModel` answers (default: a non-retryable failure). */
  setModel(script: ModelScript): void;
  /** The environment a run loads; an Error fails the load (not retried). */
  setEnvironment(env: Record<string, string> | Error): void;
  setChildWorkflows(children: Record<string, { name: string; state: RunnableState }>): void;
  start(state: RunnableState, extra?: Partial<RunWorkflowArgs>, workflowId?: string): Promise<WorkflowHandle<typeof runWorkflow>>;
  /** Starts a run, waits for its result and checks that its history replays. */
  run(state: RunnableState, extra?: Partial<RunWorkflowArgs>): Promise<RunResult>;
  /**
   * Checks that a run's history replays and keeps it under workflows/histories/ when
   * WEFT_WRITE_HISTORIES is set (`keepHistory` of `@weft/testkit/histories`: <name>.json for `1`,
   * <name>.<value>.json for another value).
   */
  keepHistory(handle: WorkflowHandle<typeof runWorkflow>, name: string): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts a workflow worker and a fake integrations worker on fresh task queues. `keepAside`: the fake
 * function call keeps an output longer than the run asks (`storeLargeOutput`, UTF-8 bytes) aside in
 * `rec.blobs` and answers its reference, as the integrations worker does.
 */
export async function createEngineHarness(opts: { workflowWorker?: boolean; keepAside?: boolean } = {}): Promise<EngineHarness> {
  try {
    Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
  } catch {
    // Installed already by another test file of this process.
  }
  const { temporalAddress } = await backingEnv();
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const native = await NativeConnection.connect({ address: temporalAddress });
  const queue = `engine-test-${uniqueSuffix()}`;
  const toolQueue = `engine-tools-${uniqueSuffix()}`;
  const rec: Recorded = { functionCalls: [], toolCalls: [], modelCalls: [], events: [], blobs: new Map(), started: [] };
  const barriers = new Map<string, number>();
  let tools: ToolScript = (input) => ({ success: false, output: null, error: `Tool not found: ${input.toolId}`, timing: timing() });
  let model: ModelScript | undefined;
  let env: Record<string, string> | Error = {};
  const environment = (): Promise<Record<string, string>> => (env instanceof Error ? Promise.reject(ApplicationFailure.nonRetryable(env.message)) : Promise.resolve(env));
  let children: Record<string, { name: string; state: RunnableState }> = {};
  const attempts = new Map<string, number>();

  const keptAside = (ask: ExecuteFunctionInput['storeLargeOutput'], output: ExecuteFunctionOutput['output']): ExecuteFunctionOutput['output'] | BlobRef => {
    const json = JSON.stringify(output);
    if (!ask || !overBytes(json, ask.overLength)) return output;
    const ref: BlobRef = { $blobRef: `${ask.executionId}/${rec.blobs.size}`, bytes: utf8Bytes(json) };
    rec.blobs.set(ref.$blobRef, output);
    return ref;
  };
  const integrations: IntegrationActivities = {
    async executeFunction(input) {
      const out = await fakeFunction(input, rec, barriers);
      return opts.keepAside && out.success ? { ...out, output: keptAside(input.storeLargeOutput, out.output) } : out;
    },
    async executeTool(input) {
      rec.toolCalls.push(input);
      const key = `${input.context.executionId ?? ''}/${input.context.blockId ?? ''}`;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      return tools(input, attempt);
    },
  };
  const unavailable = () => Promise.reject(ApplicationFailure.nonRetryable('not served by the engine harness'));
  const models: ModelActivities = {
    callModel(input) {
      rec.modelCalls.push(input);
      if (!model) return Promise.reject(ApplicationFailure.nonRetryable('No model scripted'));
      return Promise.resolve(modelAnswer(input, model(input)));
    },
    createEmbeddings: unavailable,
    generateImage: unavailable,
    listLocalModels: () => Promise.resolve([]),
  };
  const runnerActivities: RunnerActivities = {
    recordRunEvent(event) {
      rec.events.push(event);
      return Promise.resolve();
    },
    storeBlob(executionId, value) {
      const ref: BlobRef = { $blobRef: `${executionId}/${rec.blobs.size}`, bytes: JSON.stringify(value).length };
      rec.blobs.set(ref.$blobRef, value);
      return Promise.resolve(ref);
    },
    loadBlob(ref) {
      return Promise.resolve(rec.blobs.get(ref.$blobRef));
    },
    loadEnvironment() {
      return environment();
    },
    async startRun(event, wanted) {
      const loaded = wanted ? await environment() : {};
      rec.events.push(event);
      return loaded;
    },
    loadChildWorkflow(_workspaceId, workflowId) {
      const child = children[workflowId];
      return child ? Promise.resolve(child) : Promise.reject(new Error(`Workflow ${workflowId} not found`));
    },
  };
  // Without the in-process workflow worker, another process serves `queue` (durability tests).
  const workflowWorker =
    opts.workflowWorker === false
      ? undefined
      : await Worker.create({ connection: native, taskQueue: queue, workflowBundle: await workflowBundle(), activities: runnerActivities, sinks: recordedRunLog(rec.events) });
  // The stand-in integrations worker serves the agent tool loop from the run bundle (the runner's own
  // copy of `modelToolLoop`, one bundle less to build per file); modelBlocks.int.test.ts runs the
  // integrations worker's loop itself (toolLoopBundle).
  const toolWorker = await Worker.create({ connection: native, taskQueue: toolQueue, workflowBundle: await workflowBundle(), activities: { ...integrations, ...models } });
  const running = Promise.all([workflowWorker?.run(), toolWorker.run()]);

  /**
   * Replays a finished run's history with the workflow code: live timing differs from replay, so a
   * run whose commands depend on timing fails here (Temporal would fail it after a worker restart).
   */
  const assertReplays = async (handle: WorkflowHandle<typeof runWorkflow>) => {
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle(), replayName: 'engine-harness' }, history, handle.workflowId);
    return history;
  };

  const start: EngineHarness['start'] = (state, extra = {}, workflowId = `run-${uniqueSuffix()}`) =>
    client.workflow.start<typeof runWorkflow>('runWorkflow', {
      taskQueue: queue,
      workflowId,
      args: [{ executionId: workflowId, workflowId: 'wf-main', workspaceId: 'ws-1', state, input: { x: 1 }, requestId: 'req-1', integrationsTaskQueue: toolQueue, retryInitialIntervalMs: 10, ...extra }],
    });

  return {
    client,
    queue,
    temporalAddress,
    rec,
    setTools: (s) => (tools = s),
    setModel: (s) => (model = s),
    setEnvironment: (e) => (env = e),
    setChildWorkflows: (c) => (children = c),
    start,
    async run(state, extra) {
      const handle = await start(state, extra);
      const result = await handle.result();
      await assertReplays(handle);
      return result;
    },
    async keepHistory(handle, name) {
      await assertReplays(handle);
      await keepHistory(handle, historiesDir, name);
    },
    reset() {
      rec.functionCalls.length = 0;
      rec.toolCalls.length = 0;
      rec.modelCalls.length = 0;
      model = undefined;
      rec.events.length = 0;
      rec.started.length = 0;
      rec.blobs.clear();
      barriers.clear();
      attempts.clear();
      env = {};
      children = {};
    },
    async close() {
      workflowWorker?.shutdown();
      toolWorker.shutdown();
      await running;
      await native.close();
      await connection.close();
    },
  };
}

type BlockSpec = { type?: string; name?: string; values?: Record<string, unknown>; enabled?: boolean; parent?: string; data?: Record<string, unknown>; advancedMode?: boolean };
type EdgeSpec = [string, string] | [string, string, string];

/** Builds a state: blocks by id (a function block unless typed; `code` shorthand), edges as [source, target, handle?]. */
export function graphOf(blocks: Record<string, BlockSpec & { code?: string }>, edges: EdgeSpec[], extra: Partial<RunnableState> = {}): RunnableState {
  const out: RunnableState['blocks'] = {};
  for (const [id, spec] of Object.entries(blocks)) {
    const values = { ...(spec.code !== undefined ? { code: spec.code } : {}), ...(spec.values ?? {}) };
    out[id] = {
      id,
      type: spec.type ?? 'function',
      name: spec.name ?? id,
      enabled: spec.enabled ?? true,
      subBlocks: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { id: k, type: 'short-input', value: v }])),
      data: { ...(spec.parent ? { parentId: spec.parent } : {}), ...(spec.data ?? {}) },
      ...(spec.advancedMode ? { advancedMode: true } : {}),
    };
  }
  return {
    blocks: out,
    edges: edges.map(([source, target, handle], i) => ({ id: `e${i}-${source}-${target}`, source, target, ...(handle ? { sourceHandle: handle } : {}) })),
    ...extra,
  };
}

/** The ids of blocks that ran (not skipped), in log order. */
export function ran(result: RunResult): string[] {
  return result.logs.filter((l) => !l.skipped).map((l) => l.blockId);
}

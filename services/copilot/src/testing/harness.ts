/**
 * A copilot on a real Temporal server for int tests: the turn workflow bundle and the copilot's activities
 * (chat store in a fresh Postgres schema, the in-memory editor), and on the integrations queue the model
 * layer's own activities speaking to an OpenAI fake. Turn events are read from real NATS.
 */
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { connect, type NatsConnection } from 'nats';
import { copilotTurnSubject, runChunksSubject, type CopilotTurnEvent, type ModelActivities, type RunStreamChunk } from '@weft/contracts';
import { createLogger, temporalLogger } from '@weft/platform';
import { WORKFLOW_CONTEXT_MODULES } from '@weft/platform/workflowBundle';
import { backingEnv, createOpenAIFake, createTestDatabase, uniqueSuffix, type OpenAIFake } from '@weft/testkit';
import { createCopilotActivities } from '../activities/index.js';
import type { CopilotDB } from '../db.js';
import { migrations } from '../migrations/index.js';
import type { Ports } from '../ports.js';
import { createChatStore, type ChatStore } from '../store/chatStore.js';
import { createTurns, turnWorkflowId, type StartChatInput, type Turns } from '../turns.js';
import type { TurnResult } from '../types.js';
import { createMemoryEditor, type MemoryEditor } from './memoryEditor.js';

/** The model layer's factories, loaded from the integrations service's source (tests only). */
interface ModelLayer {
  createModelActivities(deps: { config: unknown; instance: string; publish?: (subject: string, chunk: RunStreamChunk) => void; logger: { warn(): void } }): ModelActivities;
  modelConfigFromEnv(env: Record<string, string>): unknown;
}

async function loadModelLayer(): Promise<ModelLayer> {
  const base = new URL('../../../integrations/src/models/', import.meta.url);
  const activities = (await import(new URL('activities.ts', base).href)) as Pick<ModelLayer, 'createModelActivities'>;
  const config = (await import(new URL('config.ts', base).href)) as Pick<ModelLayer, 'modelConfigFromEnv'>;
  return { ...activities, ...config };
}

/** What a client following a turn saw on NATS. */
export interface TurnFeed {
  text: () => string;
  toolStates: () => Array<{ name: string; state: string }>;
  events: CopilotTurnEvent[];
  close(): void;
}

export interface CopilotHarness {
  fake: OpenAIFake;
  editor: MemoryEditor;
  store: ChatStore;
  turns: Turns;
  env: Record<string, string>;
  /** Starts a turn while following its events; answers when the turn ended. */
  chat(input: Partial<StartChatInput> & { message: string; workflowId: string }): Promise<{ result: TurnResult; feed: TurnFeed; chatId: string; turnId: string }>;
  /** Starts a turn while following its events; answers once it started (`result` waits for its end). */
  begin(input: Partial<StartChatInput> & { message: string; workflowId: string }): Promise<{ result: () => Promise<TurnResult>; feed: TurnFeed; chatId: string; turnId: string }>;
  /** The turn's `copilotTurn` workflow (its history, for one). */
  turnHandle(turnId: string): WorkflowHandle;
  /**
   * Holds the `nth` model call from now (the model layer's `callModel` activity, heartbeating while
   * it waits) until `release()`; `reached` says when it is being held.
   */
  holdModelCall(nth: number): { reached: Promise<void>; release(): void };
  /**
   * Stops the copilot's worker (it finishes its tasks in flight) and starts a fresh one, with nothing
   * cached; the workers' identities (in a history's workflow task events) are `copilot-worker-<n>`, from 1.
   */
  replaceCopilotWorker(): Promise<void>;
  close(): Promise<void>;
}

export async function startCopilotHarness(): Promise<CopilotHarness> {
  try {
    Runtime.install({ logger: temporalLogger(createLogger('temporal-test', 'silent')), shutdownSignals: [] });
  } catch {
    // Installed already in this process.
  }
  const { temporalAddress, natsUrl } = await backingEnv();
  const instance = `t${uniqueSuffix()}`;
  const queues = { copilot: `${instance}-copilot`, integrations: `${instance}-integrations` };
  const database = await createTestDatabase<CopilotDB>('copilot', migrations);
  const store = createChatStore(database.db);
  const fake = await createOpenAIFake();
  const nc: NatsConnection = await connect({ servers: natsUrl });
  const editor = createMemoryEditor();
  const env: Record<string, string> = {};
  const ports: Ports = {
    editor,
    registry: { environment: () => Promise.resolve({ ...env }) },
    runs: { lastRun: () => Promise.resolve({ id: 'run-1', status: 'failed', error: 'Slack: channel_not_found', logs: [{ blockId: 'notify', error: 'channel_not_found' }] }) },
  };
  const operator = { model: 'gpt-4o', provider: 'openai' as const };
  const native = await NativeConnection.connect({ address: temporalAddress });
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
  const bundle = await bundleWorkflowCode({ workflowsPath, preloadModules: WORKFLOW_CONTEXT_MODULES, logger: temporalLogger(createLogger('bundle', 'silent')) });
  const copilotActivities = createCopilotActivities({ ports, store, instance, operator, publish: (subject, event) => nc.publish(subject, JSON.stringify(event)) });
  let workers = 0;
  const startCopilotWorker = async () => {
    const identity = `copilot-worker-${++workers}`;
    const worker = await Worker.create({ connection: native, identity, taskQueue: queues.copilot, workflowBundle: bundle, activities: copilotActivities });
    return { worker, running: worker.run() };
  };
  let copilotWorker = await startCopilotWorker();
  const layer = await loadModelLayer();
  const models = layer.createModelActivities({
    config: layer.modelConfigFromEnv({ WEFT_OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'operator-key' }),
    instance,
    publish: (subject, chunk) => nc.publish(subject, JSON.stringify(chunk)),
    logger: { warn: () => undefined },
  });
  let hold: { calls: number; reached(): void; released: Promise<void> } | undefined;
  const callModel: ModelActivities['callModel'] = async (input) => {
    const held = hold && --hold.calls === 0 ? hold : undefined;
    if (held) {
      hold = undefined;
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 1_000);
      held.reached();
      // A worker shutting down cancels what it still runs: the hold ends then too.
      await Promise.race([held.released, context.cancelled]).finally(() => clearInterval(beat));
    }
    return models.callModel(input);
  };
  // Heartbeats as often as the integrations worker sends them, so a stopped turn's model call learns of it within a second.
  const modelWorker = await Worker.create({ connection: native, taskQueue: queues.integrations, activities: { callModel }, maxHeartbeatThrottleInterval: '1 second' });
  const modelRunning = modelWorker.run();
  const turns = createTurns({ client, queues, store, ports, operator });

  function follow(turnId: string): TurnFeed {
    const chunks: RunStreamChunk[] = [];
    const events: CopilotTurnEvent[] = [];
    const a = nc.subscribe(runChunksSubject(instance, turnId), { callback: (_e, m) => void chunks.push(JSON.parse(m.string()) as RunStreamChunk) });
    const b = nc.subscribe(copilotTurnSubject(instance, turnId), { callback: (_e, m) => void events.push(JSON.parse(m.string()) as CopilotTurnEvent) });
    return {
      events,
      text: () => chunks.map((c) => c.chunk).join(''),
      toolStates: () => [
        ...chunks.flatMap((c) => (c.toolCall ? [{ name: c.toolCall.name, state: c.toolCall.state }] : [])),
        ...events.flatMap((e) => (e.type === 'tool_call' ? [{ name: e.name, state: e.state }] : [])),
      ],
      close() {
        a.unsubscribe();
        b.unsubscribe();
      },
    };
  }

  const begin: CopilotHarness['begin'] = async (input) => {
    const turnId = `turn-${uniqueSuffix()}`;
    const feed = follow(turnId);
    await nc.flush();
    const started = await turns.start({ turnId, workspaceId: 'ws-1', actorId: 'user-1', propose: false, ...input });
    const result = async () => {
      const out = await turns.result(turnId);
      await nc.flush();
      return out;
    };
    return { result, feed, chatId: started.chatId, turnId };
  };

  return {
    fake,
    editor,
    store,
    turns,
    env,
    begin,
    async chat(input) {
      const { result, ...started } = await begin(input);
      return { result: await result(), ...started };
    },
    turnHandle: (turnId) => client.workflow.getHandle(turnWorkflowId(turnId)),
    holdModelCall(nth) {
      let reached!: () => void;
      let release!: () => void;
      const reachedP = new Promise<void>((resolve) => (reached = resolve));
      hold = { calls: nth, reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached: reachedP, release };
    },
    async replaceCopilotWorker() {
      copilotWorker.worker.shutdown();
      await copilotWorker.running;
      copilotWorker = await startCopilotWorker();
    },
    async close() {
      copilotWorker.worker.shutdown();
      modelWorker.shutdown();
      await Promise.all([copilotWorker.running, modelRunning]);
      await native.close();
      await connection.close();
      await nc.close();
      await fake.close();
      await database.drop();
    },
  };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backingEnv, createTestInstance } from '@weft/testkit';
import { Metadata } from '@grpc/grpc-js';
import { connectBus, createEnvelope, createLogger, type Bus, type CallContext, type RunningConsumer } from '@weft/platform';
import { editorTestStore } from '../testSupport.js';
import { startEventTail, type EventTail } from '../live/eventTail.js';
import { editorHandlers } from '../adapters/grpc.js';
import { consumeRegistryEvents } from '../adapters/registryEvents.js';
import { createStreamLifecycle, type RegistryPort } from './streamLifecycle.js';

const logger = createLogger('test', 'silent');
const ctx: CallContext = { requestId: 'test', metadata: new Metadata(), signal: new AbortController().signal };
const addFunction = (id: string) => JSON.stringify([{ type: 'addBlock', id, blockType: 'function', position: { x: 0, y: 0 } }]);

/** A registry that knows the workflows in `known` and counts how often it was asked. */
function fakeRegistry(): RegistryPort & { known: Set<string>; asked: string[][] } {
  const known = new Set<string>();
  const asked: string[][] = [];
  return {
    known,
    asked,
    existing(ids) {
      asked.push(ids);
      return Promise.resolve(new Set(ids.filter((id) => known.has(id))));
    },
    copiedFrom: () => Promise.resolve(undefined),
  };
}

describe('catching a workflow up from the registry (real Postgres and NATS)', () => {
  let env: Awaited<ReturnType<typeof editorTestStore>>;
  let bus: Bus;
  let tail: EventTail;
  let consumer: RunningConsumer;
  let cleanup: () => Promise<void>;
  const registry = fakeRegistry();
  let handlers: ReturnType<typeof editorHandlers>;

  beforeAll(async () => {
    const created = await createTestInstance();
    cleanup = created.cleanup;
    env = await editorTestStore(created.instance);
    bus = await connectBus((await backingEnv()).natsUrl, created.instance);
    tail = await startEventTail({ bus, store: env.store, logger });
    const streams = createStreamLifecycle({ db: env.db, store: env.store, registry });
    handlers = editorHandlers(env.store, tail, logger, streams, registry);
    consumer = await consumeRegistryEvents({ bus, db: env.db, store: env.store, logger, afterCommit: () => undefined });
  });

  afterAll(async () => {
    await consumer?.stop();
    await tail?.stop();
    await bus?.close();
    await cleanup?.();
    await env?.database.drop();
  });

  /** Publishes a registry event as the registry's outbox would, and waits until the editor's consumer has handled it. */
  async function deliver(type: 'workflowCreated' | 'workflowDeleted', workflowId: string): Promise<void> {
    const envelope = createEnvelope(`${bus.instance}.registry.workflow.${workflowId}`, type, { workflow: { id: workflowId } });
    await bus.js.publish(envelope.subject, JSON.stringify(envelope), { msgID: envelope.id });
    await expect.poll(async () => (await sql<{ n: number }>`select count(*)::int as n from inbox where event_id = ${envelope.id}`.execute(env.db)).rows[0]?.n, { timeout: 15_000 }).toBe(1);
  }

  async function storedTypes(workflowId: string): Promise<string[]> {
    const rows = await env.db.selectFrom('events').select('type').where('workflow_id', '=', workflowId).orderBy('version').execute();
    return rows.map((r) => r.type);
  }

  it('accepts a command for a workflow the registry knows before its event, and the event arriving later changes nothing', async () => {
    registry.known.add('wf-early');
    const answer = await handlers.executeCommands({ workflowId: 'wf-early', commandsJson: addFunction('f'), actorId: 'u1' }, ctx);
    expect(answer.version).toBe(2);
    expect(await storedTypes('wf-early')).toEqual(['workflowStarted', 'blockAdded']);
    await deliver('workflowCreated', 'wf-early');
    expect(await storedTypes('wf-early')).toEqual(['workflowStarted', 'blockAdded']);
    const state = await handlers.getState({ workflowId: 'wf-early', waitMs: 0 }, ctx);
    expect(state.version).toBe(2);
    expect(Object.keys((JSON.parse(state.stateJson) as { blocks: object }).blocks)).toContain('f');
  });

  it('starts the stream once for many concurrent first commands and reads', async () => {
    registry.known.add('wf-burst');
    const before = registry.asked.length;
    const calls = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => handlers.executeCommands({ workflowId: 'wf-burst', commandsJson: addFunction(`b${i}`), actorId: 'u1' }, ctx).then((r) => r.version)),
      handlers.getFullState({ workflowId: 'wf-burst' }, ctx).then((r) => r.version),
      handlers.getVariables({ workflowId: 'wf-burst' }, ctx).then((r) => r.version),
      handlers.exportYaml({ workflowId: 'wf-burst' }, ctx).then((r) => r.version),
      handlers.readEvents({ workflowId: 'wf-burst', after: 0, waitMs: 0, limit: 0 }, ctx).then((r) => r.version),
      handlers.getStates({ workflowIds: ['wf-burst'] }, ctx).then((r) => r.states['wf-burst']?.version ?? -1),
    ]);
    for (const v of calls) expect(v).toBeGreaterThanOrEqual(1);
    const types = await storedTypes('wf-burst');
    expect(types.filter((t) => t === 'workflowStarted')).toHaveLength(1);
    expect(types.filter((t) => t === 'blockAdded')).toHaveLength(10);
    // Concurrent callers in one process share one question to the registry.
    expect(registry.asked.length - before).toBe(1);
  });

  it('answers 404 for a workflow the registry does not know, asking again each time (it may be created later)', async () => {
    await expect(handlers.executeCommands({ workflowId: 'wf-unknown', commandsJson: addFunction('f'), actorId: 'u1' }, ctx)).rejects.toMatchObject({
      code: 'not_found',
      message: 'Workflow wf-unknown not found',
    });
    await expect(handlers.getFullState({ workflowId: 'wf-unknown' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    await expect(handlers.readEvents({ workflowId: 'wf-unknown', after: 0, waitMs: 0, limit: 0 }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    expect((await handlers.getStates({ workflowIds: ['wf-unknown'] }, ctx)).states).toEqual({});
    expect(await storedTypes('wf-unknown')).toEqual([]);
    registry.known.add('wf-unknown');
    await expect(handlers.executeCommands({ workflowId: 'wf-unknown', commandsJson: addFunction('f'), actorId: 'u1' }, ctx)).resolves.toMatchObject({ version: 2 });
  });

  it('refuses a dropped workflow at once, and neither a late workflowCreated event nor a catch-up starts it again', async () => {
    registry.known.add('wf-gone');
    await handlers.executeCommands({ workflowId: 'wf-gone', commandsJson: addFunction('f'), actorId: 'u1' }, ctx);
    await handlers.dropWorkflows({ workflowIds: ['wf-gone'] }, ctx);
    // The registry is slow to forget it (a stale answer): the tombstone still wins.
    await expect(handlers.executeCommands({ workflowId: 'wf-gone', commandsJson: addFunction('g'), actorId: 'u1' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    await expect(handlers.getState({ workflowId: 'wf-gone', waitMs: 0 }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    await deliver('workflowCreated', 'wf-gone');
    await deliver('workflowDeleted', 'wf-gone');
    expect(await storedTypes('wf-gone')).toEqual([]);
    await expect(handlers.exportYaml({ workflowId: 'wf-gone' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    // Dropping again (the event, or a retried delete) is harmless.
    await expect(handlers.dropWorkflows({ workflowIds: ['wf-gone', 'wf-never'] }, ctx)).resolves.toEqual({});
  });

  it('never leaves a stream beside a tombstone when a catch-up and a drop race', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `wf-race-${i}`);
    for (const id of ids) registry.known.add(id);
    const streams = createStreamLifecycle({ db: env.db, store: env.store, registry });
    await Promise.all(ids.flatMap((id) => [streams.ensure([id]), streams.drop([id])]));
    const left = await env.db.selectFrom('streams').select('workflow_id').where('workflow_id', 'in', ids).execute();
    expect(left).toEqual([]);
    expect(await streams.ensure(ids)).toEqual(new Set());
  });
});

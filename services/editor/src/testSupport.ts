import fc from 'fast-check';
import { Metadata } from '@grpc/grpc-js';
import { getBlock } from '@weft/catalog';
import { createLogger, type CallContext } from '@weft/platform';
import { createTestDatabase } from '@weft/testkit';
import type { Command, DecideContext, WorkflowState } from '@weft/workflow';
import { editorHandlers } from './adapters/grpc.js';
import { createStreamLifecycle, type RegistryPort } from './lifecycle/streamLifecycle.js';
import type { EventTail } from './live/eventTail.js';
import type { EditorDB } from './db.js';
import { migrations } from './migrations/index.js';
import { createEventStore, type EventStore } from './store/eventStore.js';

/** A test clock and id source shared by every store of one test database. */
export function testContextFactory(): (workflowId: string) => DecideContext {
  let n = 0;
  return (workflowId) => ({ now: 1_700_000_000_000 + n, newId: () => `id-${++n}`, blockDefinition: getBlock, workflowId });
}

/** Tests snapshot sooner than production, so a few hundred commands cross several snapshots. */
export const TEST_SNAPSHOT_EVERY = 100;

/** A migrated editor schema of its own and an event store on it (tests only). */
export async function editorTestStore(instance = 'test') {
  const database = await createTestDatabase<EditorDB>('editor', migrations);
  const context = testContextFactory();
  const store = createEventStore({ db: database.db, instance, context, snapshotEvery: TEST_SNAPSHOT_EVERY });
  return {
    database,
    db: database.db,
    store,
    context,
    /** Another store on the same database: a second editor process. */
    secondStore(): EventStore {
      return createEventStore({ db: database.db, instance, context, snapshotEvery: TEST_SNAPSHOT_EVERY });
    },
    async start(workflowId: string): Promise<void> {
      await database.db.transaction().execute((trx) => store.startStream(trx, workflowId));
    },
  };
}

const blockIds = ['a', 'b', 'c', 'd'];
const id = fc.constantFrom(...blockIds);
const position = fc.record({ x: fc.integer({ min: -500, max: 500 }), y: fc.integer({ min: -500, max: 500 }) });
const value = fc.oneof(fc.constantFrom('<agent1.content>', '<variable.x>', 'return 1'), fc.integer(), fc.constant(null));

/** Random editing commands over a few block ids (many are refused, which is part of the point). */
export const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ type: fc.constant('addBlock' as const), id, blockType: fc.constantFrom('function', 'agent', 'api', 'loop', 'parallel'), position, parentId: fc.option(id, { nil: undefined }) }),
  fc.record({ type: fc.constant('moveBlock' as const), id, position }),
  fc.record({ type: fc.constant('resizeBlock' as const), id, width: fc.nat(900), height: fc.nat(900) }),
  fc.record({ type: fc.constant('growBlock' as const), id, minWidth: fc.option(fc.nat(900), { nil: undefined }), minHeight: fc.option(fc.nat(900), { nil: undefined }) }),
  fc.record({ type: fc.constant('setParent' as const), id, parentId: fc.option(id, { nil: null }) }),
  fc.record({ type: fc.constant('removeBlock' as const), id }),
  fc.record({ type: fc.constant('removeBlock' as const), ids: fc.array(id, { minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant('addEdge' as const), source: id, target: id }),
  fc.record({ type: fc.constantFrom('toggleEnabled' as const, 'toggleHandles' as const, 'setWide' as const), id }),
  fc.record({ type: fc.constant('setAdvancedMode' as const), id, advancedMode: fc.boolean() }),
  fc.record({ type: fc.constant('duplicateBlock' as const), id }),
  fc.record({ type: fc.constant('renameBlock' as const), id, name: fc.constantFrom('Agent 1', 'My Api', 'X 9') }),
  fc.record({ type: fc.constant('setSubBlockValue' as const), id, subBlockId: fc.constantFrom('code', 'memories', 'userPrompt'), value }),
  fc.record({ type: fc.constant('updateLoop' as const), id, iterations: fc.integer({ min: -5, max: 80 }) }),
  fc.record({ type: fc.constant('updateParallel' as const), id, count: fc.integer({ min: -5, max: 80 }) }),
  fc.constantFrom<Command>({ type: 'clearWorkflow' }, { type: 'undo' }, { type: 'redo' }),
  fc.record({ type: fc.constant('revertToHistory' as const), index: fc.nat(25) }),
  fc.record({ type: fc.constant('addVariable' as const), name: fc.constantFrom('', 'x', 'variable3'), variableType: fc.constantFrom('plain' as const, 'number' as const), value }),
);

/** Commands that create blocks a..d first, so most random commands find their targets. */
export const seededCommands: Command[] = blockIds.map((blockId, i) => ({ type: 'addBlock', id: blockId, blockType: i === 3 ? 'loop' : 'function', position: { x: i * 100, y: 0 } }));

/** These test calls never read the live tail. */
const noTail: EventTail = { read: () => Promise.reject(new Error('not read here')), stop: () => Promise.resolve() };

/** A call context for handler tests (no caller named). */
export const testCallContext: CallContext = { requestId: 'test', metadata: new Metadata(), signal: new AbortController().signal };

/** The editor's gRPC handlers on a test store of their own, and a reader of a workflow's current state. */
export interface EditorHandlersTestEnv {
  env: Awaited<ReturnType<typeof editorTestStore>>;
  handlers: ReturnType<typeof editorHandlers>;
  stateOf(workflowId: string): Promise<{ version: number; state: WorkflowState }>;
}

/** The editor's gRPC handlers on a test store of their own (tests only); `registry` stands in for the registry. */
export async function editorHandlersTestEnv(registry: RegistryPort): Promise<EditorHandlersTestEnv> {
  const env = await editorTestStore();
  const handlers = editorHandlers(env.store, noTail, createLogger('test', 'silent'), createStreamLifecycle({ db: env.db, store: env.store, registry }), registry);
  return {
    env,
    handlers,
    async stateOf(workflowId) {
      const found = await env.store.current(workflowId);
      if (!found) throw new Error(`no stream ${workflowId}`);
      return found;
    },
  };
}

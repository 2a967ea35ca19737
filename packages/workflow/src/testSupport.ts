import fc from 'fast-check';
import type { Command } from './commands.js';
import type { BlockDefinition, DecideContext } from './context.js';
import { decideBatch } from './decide/decide.js';
import { startWorkflow } from './decide/addBlock.decide.js';
import { WorkflowError } from './errors.js';
import type { WorkflowEvent } from './events.js';
import { replay } from './evolve/evolve.js';
import type { WorkflowState } from './model/state.js';

/** A small catalogue standing in for `@weft/catalog` in tests. */
const definitions: Record<string, BlockDefinition> = {
  starter: {
    subBlocks: [
      { id: 'startWorkflow', type: 'dropdown', defaultValue: 'manual' },
      { id: 'webhookPath', type: 'short-input' },
      { id: 'scheduleType', type: 'dropdown', defaultValue: 'daily' },
      { id: 'timezone', type: 'dropdown', defaultValue: 'UTC' },
    ],
    outputs: { input: 'any' },
  },
  schedule: { name: 'Schedule', category: 'triggers', subBlocks: [{ id: 'scheduleType', type: 'dropdown', defaultValue: 'daily' }], outputs: {} },
  webhook: { name: 'Webhook', category: 'triggers', subBlocks: [{ id: 'webhookPath', type: 'short-input' }], outputs: {} },
  function: { subBlocks: [{ id: 'code', type: 'code', defaultValue: '' }], outputs: { result: 'any', stdout: 'string' } },
  condition: { subBlocks: [{ id: 'conditions', type: 'condition-input' }], outputs: { conditionResult: 'boolean', selectedConditionId: 'string' } },
  agent: {
    subBlocks: [
      { id: 'systemPrompt', type: 'long-input' },
      { id: 'userPrompt', type: 'long-input' },
      { id: 'model', type: 'combobox', defaultValue: 'gpt-4o' },
      { id: 'memories', type: 'short-input' },
      { id: 'tools', type: 'tool-input', defaultValue: [] },
    ],
    outputs: { content: 'string', model: 'string', tokens: 'any' },
  },
  api: {
    subBlocks: [
      { id: 'url', type: 'short-input' },
      { id: 'method', type: 'dropdown', defaultValue: 'GET' },
      { id: 'headers', type: 'table', defaultValue: [] },
    ],
    outputs: { data: 'any', status: 'number' },
  },
};

/** A context with a fixed clock and counting ids: `id-1`, `id-2`… */
function testContext(overrides: Partial<DecideContext> = {}): DecideContext {
  let next = 0;
  return {
    now: 1_000,
    newId: () => `id-${++next}`,
    blockDefinition: (type) => definitions[type],
    workflowId: 'wf-1',
    ...overrides,
  };
}

type Outcome = { events: WorkflowEvent[]; state: WorkflowState; error?: WorkflowError };

/** Given/when/then for the decider: `given(events).when(commands)` decides and folds. */
function given(events: WorkflowEvent[]) {
  const state = replay(events);
  return {
    state,
    when(commands: Command | Command[], overrides: Partial<DecideContext> = {}): Outcome {
      const list = Array.isArray(commands) ? commands : [commands];
      try {
        const decided = decideBatch(state, list, testContext(overrides));
        return { events: decided, state: replay(decided, state) };
      } catch (error) {
        if (error instanceof WorkflowError) return { events: [], state, error };
        throw error;
      }
    },
  };
}

/** Events of a workflow that was just created, with starter block `start`. */
function started(): WorkflowEvent[] {
  return startWorkflow(testContext({ now: 500 }), 'start');
}

/** Events that create a started workflow and then apply the commands, each as a request of its own (one undo step each). */
function history(...commands: Command[]): WorkflowEvent[] {
  const events = started();
  for (const command of commands) {
    const outcome = given(events).when(command, { now: 900 });
    if (outcome.error !== undefined) throw outcome.error;
    events.push(...outcome.events);
  }
  return events;
}

/** Block ids, two named like Object.prototype's members (`constructor` is added, `toString` only sometimes): they must be ids like any other. */
const ids = ['start', 'a', 'b', 'c', 'constructor', 'toString'];
const id = fc.constantFrom(...ids);
const position = fc.record({ x: fc.integer({ min: -500, max: 500 }), y: fc.integer({ min: -500, max: 500 }) });
const name = fc.constantFrom('Agent 1', 'My Api', 'loop', 'X 9');
const value = fc.oneof(fc.constantFrom('<agent1.content>', '<myapi.data>', '<variable.x>'), fc.integer(), fc.constant(null));

/** Random editing commands over the starter and blocks a..c and constructor (many are refused, which is part of the point). */
const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    type: fc.constant('addBlock' as const),
    id,
    blockType: fc.constantFrom('function', 'agent', 'api', 'loop', 'parallel'),
    position,
    parentId: fc.option(id, { nil: undefined }),
  }),
  fc.record({ type: fc.constant('moveBlock' as const), id, position }),
  fc.record({ type: fc.constant('resizeBlock' as const), id, width: fc.nat(900), height: fc.nat(900) }),
  fc.record({ type: fc.constant('growBlock' as const), id, minWidth: fc.option(fc.nat(900), { nil: undefined }), minHeight: fc.option(fc.nat(900), { nil: undefined }) }),
  fc.record({ type: fc.constant('setParent' as const), id, parentId: fc.option(id, { nil: null }) }),
  fc.record({ type: fc.constant('removeBlock' as const), id }),
  fc.record({ type: fc.constant('removeBlock' as const), ids: fc.array(id, { minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant('addEdge' as const), source: id, target: id }),
  fc.record({ type: fc.constant('removeEdge' as const), id: fc.constantFrom('id-1', 'id-2', 'e') }),
  fc.record({ type: fc.constantFrom('toggleEnabled' as const, 'toggleHandles' as const, 'setWide' as const), id }),
  fc.record({ type: fc.constant('setAdvancedMode' as const), id, advancedMode: fc.boolean() }),
  fc.record({ type: fc.constant('duplicateBlock' as const), id, newId: id }),
  fc.record({ type: fc.constant('renameBlock' as const), id, name }),
  fc.record({
    type: fc.constant('setSubBlockValue' as const),
    id,
    subBlockId: fc.constantFrom('code', 'memories', 'userPrompt', 'valueOf'),
    value,
  }),
  fc.record({ type: fc.constant('updateLoop' as const), id, iterations: fc.integer({ min: -5, max: 80 }) }),
  fc.record({ type: fc.constant('updateParallel' as const), id, count: fc.integer({ min: -5, max: 80 }), parallelType: fc.string() }),
  fc.constantFrom<Command>({ type: 'clearWorkflow' }, { type: 'undo' }, { type: 'redo' }),
  fc.record({ type: fc.constant('revertToHistory' as const), index: fc.nat(25) }),
  fc.record({ type: fc.constant('addVariable' as const), name: fc.constantFrom('', 'x', 'variable3'), variableType: fc.constant('plain' as const), value }),
);

/** Commands that add blocks a..c and constructor first, so that most random commands find their targets. */
const seededArbitrary: fc.Arbitrary<Command[]> = fc.tuple(
  ...['a', 'b', 'c', 'constructor'].map((blockId) =>
    fc.record({
      type: fc.constant('addBlock' as const),
      id: fc.constant(blockId),
      blockType: fc.constantFrom('function', 'agent', 'api', 'loop', 'parallel'),
      position,
    }),
  ),
);

export { definitions, testContext, given, started, history, commandArbitrary, seededArbitrary };

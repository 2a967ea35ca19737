import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command, CommandType } from './commands.js';
import { decide } from './decide/decide.js';
import { WorkflowError } from './errors.js';
import { evolve, replay } from './evolve/evolve.js';
import type { WorkflowEvent } from './events.js';
import { graphOf } from './model/state.js';
import type { WorkflowState } from './model/state.js';
import { started, testContext } from './testSupport.js';

const ids = ['start', 'a', 'b', 'c', 'd'];
const id = fc.constantFrom(...ids);
const position = fc.record({ x: fc.integer({ min: -500, max: 500 }), y: fc.integer({ min: -500, max: 500 }) });
const name = fc.constantFrom('Agent 1', 'My Api', 'loop', 'X 9');
const value = fc.oneof(fc.constantFrom('<agent1.content>', '<myapi.data>', '<variable.x>'), fc.integer(), fc.constant(null));

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    type: fc.constant('addBlock' as const),
    id,
    blockType: fc.constantFrom('function', 'agent', 'api', 'loop', 'parallel'),
    position,
    parentId: fc.option(id, { nil: undefined }),
  }),
  fc.record({ type: fc.constant('moveBlock' as const), id, position }),
  fc.record({ type: fc.constant('resizeBlock' as const), id, width: fc.nat(900), height: fc.nat(900) }),
  fc.record({ type: fc.constant('setParent' as const), id, parentId: fc.option(id, { nil: null }) }),
  fc.record({ type: fc.constant('removeBlock' as const), id }),
  fc.record({ type: fc.constant('addEdge' as const), source: id, target: id }),
  fc.record({ type: fc.constant('removeEdge' as const), id: fc.constantFrom('id-1', 'id-2', 'e') }),
  fc.record({ type: fc.constantFrom('toggleEnabled' as const, 'toggleHandles' as const, 'setWide' as const), id }),
  fc.record({ type: fc.constant('setAdvancedMode' as const), id, advancedMode: fc.boolean() }),
  fc.record({ type: fc.constant('duplicateBlock' as const), id, newId: id }),
  fc.record({ type: fc.constant('renameBlock' as const), id, name }),
  fc.record({
    type: fc.constant('setSubBlockValue' as const),
    id,
    subBlockId: fc.constantFrom('code', 'memories', 'userPrompt'),
    value,
  }),
  fc.record({ type: fc.constant('updateLoop' as const), id, iterations: fc.integer({ min: -5, max: 80 }) }),
  fc.record({ type: fc.constant('updateParallel' as const), id, count: fc.integer({ min: -5, max: 80 }), parallelType: fc.string() }),
  fc.constantFrom<Command>({ type: 'clearWorkflow' }, { type: 'undo' }, { type: 'redo' }),
  fc.record({ type: fc.constant('revertToHistory' as const), index: fc.nat(25) }),
  fc.record({ type: fc.constant('addVariable' as const), name: fc.constantFrom('', 'x', 'variable3'), variableType: fc.constant('plain' as const), value }),
);

/** Blocks a..d exist first so that most random commands find their targets. */
const seeded: fc.Arbitrary<Command[]> = fc.tuple(
  ...['a', 'b', 'c', 'd'].map((blockId) =>
    fc.record({
      type: fc.constant('addBlock' as const),
      id: fc.constant(blockId),
      blockType: fc.constantFrom('function', 'agent', 'api', 'loop', 'parallel'),
      position,
    }),
  ),
);

/** Commands that record a history entry when they change anything. */
const NOT_RECORDED: ReadonlySet<CommandType> = new Set(['undo', 'redo', 'revertToHistory', 'addVariable']);

function step(state: WorkflowState, next: Command, now: number): WorkflowEvent[] {
  let n = 0;
  try {
    return decide(state, next, testContext({ now, newId: () => `id-${now}-${++n}` }));
  } catch (error) {
    if (error instanceof WorkflowError) return [];
    throw error;
  }
}

describe('undo property (issue 3 Tests)', () => {
  it('§4 Undo: after any recorded command, undo restores the prior blocks, edges, loops, parallels and values exactly', () => {
    let undoChecks = 0;
    fc.assert(
      fc.property(seeded, fc.array(command, { minLength: 5, maxLength: 40 }), (seeds, random) => {
        const commands = [...seeds, ...random];
        const log = [...started()];
        let state = replay(log);
        commands.forEach((next, i) => {
          const events = step(state, next, 1_000 + i);
          const after = events.reduce(evolve, state);
          if (events.length > 0 && !NOT_RECORDED.has(next.type)) {
            undoChecks++;
            const undone = step(after, { type: 'undo' }, 5_000);
            expect(undone.map((e) => e.type)).toEqual(['undone']);
            expect(graphOf(undone.reduce(evolve, after))).toEqual(graphOf(state));
          }
          expect(after.history.present.state).toEqual(graphOf(after));
          log.push(...events);
          state = after;
        });
        expect(replay(JSON.parse(JSON.stringify(log)))).toEqual(state);
      }),
      { numRuns: 300 },
    );
    // Guard against a vacuous property: most random commands must have been accepted and checked.
    expect(undoChecks).toBeGreaterThan(2_000);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, evolve, initialState, startWorkflow, type Command, type WorkflowState } from '@weft/workflow';
import { commandArbitrary, seededCommands, testContextFactory } from '../testSupport.js';
import { decodeSnapshot, encodeSnapshot } from './snapshotCodec.js';

function fold(commands: Command[]): WorkflowState {
  const context = testContextFactory();
  let state = startWorkflow(context('wf')).reduce(evolve, initialState());
  for (const command of commands) {
    try {
      state = decide(state, command, context('wf')).reduce(evolve, state);
    } catch {
      // refused commands change nothing
    }
  }
  return state;
}

const roundTrip = (state: WorkflowState) => decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(state))));

describe('lean snapshot codec', () => {
  it('decodes to the state it encoded, history included, for random editing sessions', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary, { maxLength: 60 }), (random) => {
        const state = fold([...seededCommands, ...random]);
        expect(roundTrip(state)).toEqual(JSON.parse(JSON.stringify(state)));
      }),
      { numRuns: 150 },
    );
  });

  it('writes a 200-block workflow with a full history in about one copy of the graph, not one per entry', () => {
    const adds: Command[] = Array.from({ length: 200 }, (_, i) => ({ type: 'addBlock', id: `b${i}`, blockType: 'agent', position: { x: i, y: 0 } }));
    const moves: Command[] = Array.from({ length: 30 }, (_, i) => ({ type: 'moveBlock', id: `b${i}`, position: { x: 0, y: i } }));
    const state = fold([...adds, ...moves]);
    const plain = JSON.stringify(state).length;
    const lean = JSON.stringify(encodeSnapshot(state)).length;
    expect(state.history.past).toHaveLength(20);
    expect(lean).toBeLessThan(plain / 10);
    expect(roundTrip(state)).toEqual(JSON.parse(JSON.stringify(state)));
  });

  it('still reads a snapshot written as a plain state', () => {
    const state = fold(seededCommands);
    expect(decodeSnapshot(JSON.parse(JSON.stringify(state)))).toEqual(JSON.parse(JSON.stringify(state)));
  });
});

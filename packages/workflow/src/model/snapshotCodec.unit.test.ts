import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Command } from '../commands.js';
import { decide } from '../decide/decide.js';
import { WorkflowError } from '../errors.js';
import { evolve, replay } from '../evolve/evolve.js';
import { commandArbitrary, seededArbitrary, started, testContext } from '../testSupport.js';
import { decodeSnapshot, encodeSnapshot } from './snapshotCodec.js';
import type { WorkflowState } from './state.js';

/** The started workflow with the commands decided in order; refused commands change nothing. */
function fold(commands: Command[]): WorkflowState {
  let n = 0;
  const newId = () => `id-${++n}`;
  let state = replay(started());
  commands.forEach((command, i) => {
    try {
      state = decide(state, command, testContext({ now: 1_000 + i, newId })).reduce(evolve, state);
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
    }
  });
  return state;
}

const plain = (state: WorkflowState): unknown => JSON.parse(JSON.stringify(state));
const roundTrip = (state: WorkflowState) => decodeSnapshot(JSON.parse(JSON.stringify(encodeSnapshot(state))));

describe('lean snapshot codec', () => {
  it('decodes to the state it encoded, history included, for random editing sessions', () => {
    fc.assert(
      fc.property(seededArbitrary, fc.array(commandArbitrary, { maxLength: 60 }), (seeds, random) => {
        const state = fold([...seeds, ...random]);
        expect(roundTrip(state)).toEqual(plain(state));
      }),
      { numRuns: 150 },
    );
  });

  it('writes a 200-block workflow with a full history in about one copy of the graph, not one per entry', () => {
    const adds: Command[] = Array.from({ length: 200 }, (_, i) => ({ type: 'addBlock', id: `b${i}`, blockType: 'agent', position: { x: i, y: 0 } }));
    const moves: Command[] = Array.from({ length: 30 }, (_, i) => ({ type: 'moveBlock', id: `b${i}`, position: { x: 0, y: i } }));
    const state = fold([...adds, ...moves]);
    const lean = JSON.stringify(encodeSnapshot(state)).length;
    expect(state.history.past).toHaveLength(20);
    expect(lean).toBeLessThan(JSON.stringify(state).length / 10);
    expect(roundTrip(state)).toEqual(plain(state));
  });

  it('keeps undo and redo working on the decoded state', () => {
    const state = fold([
      { type: 'addBlock', id: 'a', blockType: 'agent', position: { x: 0, y: 0 } },
      { type: 'moveBlock', id: 'a', position: { x: 50, y: 50 } },
      { type: 'undo' },
    ]);
    const decoded = roundTrip(state);
    expect(decoded.history.future).toHaveLength(1);
    const redo = (s: WorkflowState) => decide(s, { type: 'redo' }, testContext()).reduce(evolve, s);
    expect(redo(decoded).blocks.a?.position).toEqual({ x: 50, y: 50 });
    expect(plain(redo(decoded))).toEqual(plain(redo(state)));
  });

  it('keeps the variables a revert to deployed replaced, so its undo after a reload brings the draft\'s back', () => {
    let state = fold([
      { type: 'addVariable', id: 'v1', name: 'x', variableType: 'plain', value: 'draft' },
      { type: 'addBlock', id: 'a', blockType: 'function', position: { x: 0, y: 0 } },
    ]);
    const start = state.blocks['start'];
    if (start === undefined) throw new Error('starter missing');
    const deployedState = { blocks: { start }, edges: [], deployedAt: 42, variables: { v1: { id: 'v1', name: 'x', type: 'plain' as const, value: 'deployed' } } };
    state = decide(state, { type: 'revertToDeployed' }, testContext({ deployedState })).reduce(evolve, state);
    const undo = (s: WorkflowState) => decide(s, { type: 'undo' }, testContext()).reduce(evolve, s);
    expect(undo(roundTrip(state)).variables['v1']?.value).toBe('draft');
    expect(plain(undo(roundTrip(state)))).toEqual(plain(undo(state)));
  });

  it('still reads a snapshot written as a plain state', () => {
    const state = fold([{ type: 'addBlock', id: 'a', blockType: 'function', position: { x: 0, y: 0 } }, { type: 'undo' }]);
    expect(decodeSnapshot(plain(state))).toEqual(plain(state));
  });
});

import { describe, expect, it } from 'vitest';
import { decideAndApply, replay, startWorkflow, type Command, type DecideContext, type WorkflowState } from '@weft/workflow';
import { historyRows } from './history';

let clock = 1_000;
const context = (): DecideContext => ({ now: (clock += 1_000), newId: () => 'agent-1', blockDefinition: () => ({ subBlocks: [], outputs: {} }) });
const apply = (state: WorkflowState, command: Command) => decideAndApply(state, [command], context()).state;

function edited(): WorkflowState {
  let state = replay(startWorkflow(context(), 'start'));
  state = apply(state, { type: 'addBlock', id: 'agent-1', blockType: 'agent', position: { x: 0, y: 0 } });
  state = apply(state, { type: 'moveBlock', id: 'agent-1', position: { x: 300, y: 40 } });
  return apply(state, { type: 'undo' });
}

describe('history rows', () => {
  it('list past, present and future oldest first, with the present marked', () => {
    const rows = historyRows(edited().history);

    expect(rows.map((r) => [r.index, r.action, r.place])).toEqual([
      [0, 'Initial state', 'past'],
      [1, 'Add agent block', 'present'],
      [2, 'Move block', 'future'],
    ]);
    expect(rows[2]?.timestamp).toBeGreaterThan(rows[1]?.timestamp ?? Infinity);
  });

  it('number entries as revertToHistory takes them', () => {
    const state = edited();
    for (const row of historyRows(state.history)) {
      const reverted = apply(state, { type: 'revertToHistory', index: row.index });
      const present = historyRows(reverted.history).find((r) => r.place === 'present');
      expect(present).toEqual({ ...row, place: 'present' });
    }
  });
});

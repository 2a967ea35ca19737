import { describe, expect, it } from 'vitest';
import { parseCommand } from '../commands.js';
import { graphOf } from '../model/state.js';
import { given, history } from '../testSupport.js';

describe('replaceState (issue 3: POST /api/workflows/sync)', () => {
  it("replaces the workflow's blocks and edges as one undoable event; flags take §3 defaults", () => {
    const command = parseCommand({
      type: 'replaceState',
      blocks: { l: { id: 'l', type: 'loop', name: 'Loop 1', position: { x: 0, y: 0 }, data: { count: 80 } } },
      edges: [],
    });
    const base = history({ type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 } });
    const { events, state } = given(base).when(command);
    expect(events.map((e) => e.type)).toEqual(['stateReplaced']);
    expect(state.blocks['l']).toMatchObject({ enabled: true, horizontalHandles: true, isWide: false, height: 0, advancedMode: false });
    expect(state.loops['l']?.iterations).toBe(50);
    const undone = given([...base, ...events]).when({ type: 'undo' });
    expect(graphOf(undone.state)).toEqual(graphOf(given(base).state));
  });
});

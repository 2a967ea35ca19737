import { describe, expect, it } from 'vitest';
import { replay, startWorkflow, type DecideContext } from '@weft/workflow';
import { toNodes } from './flow';

const context: DecideContext = { now: 1, newId: () => 'id', blockDefinition: () => ({ name: 'Start', subBlocks: [], outputs: {} }) };

describe('canvas nodes', () => {
  it('draw a block as the state says: disabled, wide, handle orientation', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const plain = toNodes(state, [], () => undefined)[0];
    expect(plain?.className).toBe('block block-starter');
    expect(plain?.data.horizontal).toBe(true);
    const changed = { ...state, blocks: { start: { ...start, enabled: false, isWide: true, horizontalHandles: false } } };
    const node = toNodes(changed, [], () => undefined)[0];
    expect(node?.className).toBe('block block-starter disabled wide');
    expect(node?.data.horizontal).toBe(false);
  });
});

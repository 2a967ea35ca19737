import { describe, expect, it } from 'vitest';
import type { WorkflowState } from '@weft/workflow';
import { selectedOutputs, streamableBlocks } from './RunStreamChoice';

const block = (id: string, type: string, name: string, enabled = true) => ({ id, type, name, enabled, position: { x: 0, y: 0 }, subBlocks: {}, outputs: {}, data: {} });
const blocks = (...list: ReturnType<typeof block>[]) => Object.fromEntries(list.map((b) => [b.id, b])) as unknown as WorkflowState['blocks'];

describe('choosing which blocks stream in the editor’s run', () => {
  it('offers the enabled agent, translate and vision blocks, and keeps the same list while they are the same', () => {
    const state = blocks(block('s', 'starter', 'Start'), block('a', 'agent', 'Writer'), block('t', 'translate', 'Translate'), block('f', 'function', 'Tidy'), block('v', 'vision', 'Look', false));
    const first = streamableBlocks(state, []);
    expect(first).toEqual([
      { id: 'a', name: 'Writer' },
      { id: 't', name: 'Translate' },
    ]);
    expect(streamableBlocks({ ...state }, first)).toBe(first);
    expect(streamableBlocks({ ...state, a: { ...state.a, name: 'Author' } } as WorkflowState['blocks'], first)).toEqual([
      { id: 'a', name: 'Author' },
      { id: 't', name: 'Translate' },
    ]);
  });

  it('sends no selectedOutputs while every block streams, else the ids still chosen (none at all is an empty list)', () => {
    const streamable = [
      { id: 'a', name: 'Writer' },
      { id: 't', name: 'Translate' },
    ];
    expect(selectedOutputs(streamable, new Set())).toBeUndefined();
    expect(selectedOutputs(streamable, new Set(['gone']))).toBeUndefined();
    expect(selectedOutputs(streamable, new Set(['t']))).toEqual(['a']);
    expect(selectedOutputs(streamable, new Set(['a', 't']))).toEqual([]);
  });
});

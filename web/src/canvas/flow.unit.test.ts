import { describe, expect, it } from 'vitest';
import { replay, startWorkflow, type DecideContext } from '@weft/workflow';
import { toEdges, toNodes } from './flow';

const context: DecideContext = { now: 1, newId: () => 'id', blockDefinition: () => ({ name: 'Start', subBlocks: [], outputs: {} }) };

describe('canvas nodes', () => {
  it('draw a block as the state says: disabled, wide, handle orientation', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const plain = toNodes(state, [], () => undefined)[0];
    expect(plain?.className).toBe('block block-starter');
    expect(plain?.data.horizontal).toBe(true);
    expect(plain?.data.hasTarget).toBe(false);
    expect(plain?.data.handles.map((h) => h.id)).toEqual(['source']);
    const changed = { ...state, blocks: { start: { ...start, enabled: false, isWide: true, horizontalHandles: false } } };
    const node = toNodes(changed, [], () => undefined)[0];
    expect(node?.className).toBe('block block-starter disabled wide');
    expect(node?.data.horizontal).toBe(false);
  });

  it('keep the node object of a block that did not change, and redraw one that did', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const first = toNodes(state, [], () => ({ name: 'Start', color: '#000' }));
    const again = toNodes({ ...state }, first, () => ({ name: 'Start', color: '#000' }));
    expect(again[0]).toBe(first[0]);
    const moved = toNodes({ ...state, blocks: { start: { ...start, position: { x: 5, y: 6 } } } }, first, () => ({ name: 'Start', color: '#000' }));
    expect(moved[0]).not.toBe(first[0]);
    expect(moved[0]?.position).toEqual({ x: 5, y: 6 });
  });

  it('draw containers at their size with children after them, and error edges apart', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const loop = { ...start, id: 'loop', type: 'loop', name: 'Loop 1', data: { width: 640, height: 320 } };
    const child = { ...start, id: 'child', type: 'agent', name: 'Agent 1', data: { parentId: 'loop', extent: 'parent' as const } };
    const s = { ...state, blocks: { child, loop, start }, edges: [{ id: 'e', source: 'start', target: 'loop' }, { id: 'f', source: 'child', target: 'child', sourceHandle: 'error' }] };
    const nodes = toNodes(s, [], () => undefined);
    expect(nodes.map((n) => n.id).indexOf('loop')).toBeLessThan(nodes.map((n) => n.id).indexOf('child'));
    const container = nodes.find((n) => n.id === 'loop');
    expect(container?.type).toBe('container');
    expect(container?.style).toEqual({ width: 640, height: 320 });
    expect(nodes.find((n) => n.id === 'child')?.parentId).toBe('loop');
    const edges = toEdges(s, []);
    expect(edges.map((e) => [e.ariaLabel, e.className])).toEqual([
      ['Connection from Start to Loop 1', undefined],
      ['Connection from Agent 1 to Agent 1', 'edge-error'],
    ]);
  });
});

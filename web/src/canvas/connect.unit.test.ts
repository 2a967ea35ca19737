import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { connectionProblem, edgeFor } from './connect';
import { conditionRows, retitle, sourceHandles } from './handles';

function block(id: string, type: string, parentId?: string): BlockState {
  return {
    id,
    type,
    name: id,
    position: { x: 0, y: 0 },
    subBlocks: {},
    outputs: {},
    enabled: true,
    horizontalHandles: true,
    isWide: false,
    height: 0,
    advancedMode: false,
    data: parentId ? { parentId, extent: 'parent' } : {},
  } as BlockState;
}

function state(blocks: BlockState[], edges: WorkflowState['edges'] = []): WorkflowState {
  return { blocks: Object.fromEntries(blocks.map((b) => [b.id, b])), edges } as unknown as WorkflowState;
}

describe('connections', () => {
  const s = state([block('start', 'starter'), block('a', 'agent'), block('b', 'agent'), block('r', 'router'), block('res', 'response'), block('loop', 'loop'), block('in', 'agent', 'loop')], [
    { id: 'e1', source: 'start', target: 'a' },
  ]);
  it('refuse with a reason', () => {
    expect(connectionProblem(s, { source: 'a', target: 'a' })).toBe('A block cannot connect to itself');
    expect(connectionProblem(s, { source: 'a', target: 'start' })).toMatch(/starts the workflow/);
    expect(connectionProblem(s, { source: 'res', target: 'a' })).toMatch(/final block/);
    expect(connectionProblem(s, { source: 'start', target: 'a', sourceHandle: 'source' })).toBe('These blocks are already connected');
    expect(connectionProblem(s, { source: 'a', target: 'in' })).toMatch(/same container/);
    expect(connectionProblem(s, { source: 'loop', target: 'a', sourceHandle: 'loop-start-source' })).toMatch(/inside it/);
    expect(connectionProblem(state(Object.values(s.blocks), [...s.edges, { id: 'e2', source: 'a', target: 'b' }]), { source: 'b', target: 'a' })).toMatch(/cycle/);
  });
  it('accept what is valid', () => {
    expect(connectionProblem(s, { source: 'a', target: 'b' })).toBeNull();
    expect(connectionProblem(s, { source: 'a', target: 'b', sourceHandle: 'error' })).toBeNull();
    expect(connectionProblem(s, { source: 'loop', target: 'in', sourceHandle: 'loop-start-source' })).toBeNull();
    expect(connectionProblem(s, { source: 'loop', target: 'b', sourceHandle: 'loop-end-source' })).toBeNull();
  });
  it('name a router’s target in its handle', () => {
    expect(edgeFor(s, { source: 'r', target: 'b', sourceHandle: 'source' }).sourceHandle).toBe('router-b');
    expect(edgeFor(s, { source: 'a', target: 'b', sourceHandle: 'error' }).sourceHandle).toBe('error');
  });
  it('give handles per condition row and per router target', () => {
    const cond = { ...block('c', 'condition'), subBlocks: { conditions: { id: 'conditions', type: 'condition-input', value: JSON.stringify([{ id: 'x', title: 'if', value: '1' }, { id: 'y', title: 'else', value: '' }]) } } };
    expect(sourceHandles(cond, []).map((h) => h.id)).toEqual(['condition-x', 'condition-y', 'error']);
    expect(sourceHandles(block('c2', 'condition'), []).map((h) => h.id)).toEqual(['condition-c2-if', 'condition-c2-else', 'error']);
    expect(sourceHandles(block('r', 'router'), [{ id: 'e', source: 'r', target: 'b', sourceHandle: 'router-b' }]).map((h) => h.id)).toEqual(['router-b', 'source', 'error']);
    expect(sourceHandles(block('res', 'response'), [])).toEqual([]);
    expect(sourceHandles(block('l', 'loop'), []).map((h) => h.id)).toEqual(['loop-start-source', 'loop-end-source']);
  });
  it('read and retitle condition rows', () => {
    expect(conditionRows('c', [{ id: 'a', title: 'if', value: 'x' }])).toEqual([{ id: 'a', title: 'if', value: 'x' }]);
    expect(conditionRows('c', 'nonsense')).toHaveLength(2);
    expect(retitle([{ id: '1', title: '', value: '' }, { id: '2', title: '', value: '' }, { id: '3', title: '', value: '' }]).map((r) => r.title)).toEqual(['if', 'else if', 'else']);
  });
});

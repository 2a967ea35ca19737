import { describe, expect, it } from 'vitest';
import { replay, startWorkflow, type DecideContext } from '@weft/workflow';
import { applyNodeChanges, type NodeChange } from '@xyflow/react';
import { applyFew, applyMeasured, blockCount, blockDiff, drawnFor, sameLook, estimatedLayout, nextEdges, nextNodes, NOTHING_DRAWN, toEdges, toNodes, type BlockNode } from './flow';

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

  it('label a router’s handles with the names of the blocks it routes to (the id once the block is gone), renamed as they are', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const router = { ...start, id: 'router1', type: 'router', name: 'Router 1' };
    const agent = { ...start, id: 'agent-block-0001', type: 'agent', name: 'Support agent' };
    const routed = {
      ...state,
      blocks: { start, router1: router, 'agent-block-0001': agent },
      edges: [
        { id: 'e1', source: 'router1', target: 'agent-block-0001', sourceHandle: 'router-agent-block-0001' },
        { id: 'e2', source: 'router1', target: 'gone-block-0002', sourceHandle: 'router-gone-block-0002' },
      ],
    };
    const labels = (nodes: BlockNode[]) => nodes.find((n) => n.id === 'router1')?.data.handles.filter((h) => h.kind === 'router').map((h) => h.label);
    const nodes = toNodes(routed, [], () => undefined);
    expect(labels(nodes)).toEqual(['Support agent', 'gone-block-0002']);
    const renamed = { ...routed, blocks: { ...routed.blocks, 'agent-block-0001': { ...agent, name: 'Billing agent' } } };
    expect(labels(nextNodes(renamed, routed, nodes, () => undefined))).toEqual(['Billing agent', 'gone-block-0002']);
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

  it('map only the blocks an event changed, and answer the same arrays when nothing drawn changed', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const other = { ...start, id: 'b', type: 'function', name: 'Step' };
    const s1 = { ...state, blocks: { start, b: other }, edges: [{ id: 'e', source: 'start', target: 'b' }] };
    const describe = () => ({ name: 'Block', color: '#000' });
    const nodes = nextNodes(s1, undefined, [], describe);
    const edges = nextEdges(s1, undefined, []);
    // A variable or deploy flag changed: nothing to draw again.
    const s2 = { ...s1, isDeployed: true };
    expect(nextNodes(s2, s1, nodes, describe)).toBe(nodes);
    expect(nextEdges(s2, s1, edges)).toBe(edges);
    // One block moved: its node is new, the other keeps its object; edges stay.
    const s3 = { ...s2, blocks: { ...s2.blocks, b: { ...other, position: { x: 9, y: 9 } } } };
    const moved = nextNodes(s3, s2, nodes, describe);
    expect(moved).not.toBe(nodes);
    expect(moved[0]).toBe(nodes[0]);
    expect(moved[1]?.position).toEqual({ x: 9, y: 9 });
    expect(nextEdges(s3, s2, edges)).toBe(edges);
    // A rename changes the labels of its edges.
    const s4 = { ...s3, blocks: { ...s3.blocks, b: { ...other, name: 'Renamed' } } };
    expect(nextEdges(s4, s3, edges)[0]?.ariaLabel).toBe('Connection from Start to Renamed');
    // A block added maps the whole state, keeping unchanged nodes.
    const s5 = { ...s4, blocks: { ...s4.blocks, c: { ...other, id: 'c' } } };
    const added = nextNodes(s5, s4, moved, describe);
    expect(added.map((n) => n.id)).toEqual(['start', 'b', 'c']);
    expect(added[0]).toBe(nodes[0]);
  });

  it('give plain blocks of a large canvas their drawn size and handles until React Flow measures them', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const plain = { ...start, id: 'f', type: 'function' };
    const layout = estimatedLayout(plain, [{ id: 'source', label: 'Out', kind: 'source' }, { id: 'error', label: 'Error', kind: 'error' }]);
    expect(layout?.measured).toEqual({ width: 240, height: 60 });
    expect(layout?.handles.map((h) => [h.type, h.id, h.position])).toEqual([
      ['target', null, 'left'],
      ['source', 'source', 'right'],
      ['source', 'error', 'bottom'],
    ]);
    expect(estimatedLayout({ ...plain, isWide: true }, [])?.measured.width).toBe(480);
    // Rows (condition, router) and containers are measured instead.
    expect(estimatedLayout(plain, [{ id: 'condition-x', label: 'if', kind: 'condition' }])).toBeUndefined();
    expect(estimatedLayout({ ...plain, type: 'loop' }, [])).toBeUndefined();
    const s = { ...state, blocks: { f: plain } };
    const [node] = toNodes(s, [], () => undefined, true);
    expect(node?.handles).toHaveLength(3);
    const change: NodeChange<BlockNode> = { type: 'dimensions', id: 'f', dimensions: { width: 240, height: 72 } };
    const [measured] = applyMeasured([change], [node as BlockNode]);
    expect(measured?.handles).toBeUndefined();
    expect(measured?.measured).toEqual({ width: 240, height: 72 });
    // Once measured, a changed block keeps React Flow's measurement.
    const [after] = toNodes({ ...s, blocks: { f: { ...plain, position: { x: 1, y: 2 } } } }, [measured as BlockNode], () => undefined, true);
    expect(after?.handles).toBeUndefined();
  });

  it('tell in one pass which blocks an edit changed, whether one was renamed, and when blocks came or went', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const b = { ...start, id: 'b', type: 'function', name: 'Step' };
    const s1 = { ...state, blocks: { start, b } };
    expect(blockDiff({ ...s1 }, s1)).toEqual({ changed: [], renamed: false });
    const moved = { ...b, position: { x: 3, y: 4 } };
    const s2 = { ...s1, blocks: { ...s1.blocks, b: moved } };
    expect(blockDiff(s2, s1)).toEqual({ changed: [moved], renamed: false });
    expect(blockCount(s2.blocks)).toBe(2);
    const renamed = { ...moved, name: 'Other' };
    expect(blockDiff({ ...s2, blocks: { ...s2.blocks, b: renamed } }, s2)).toEqual({ changed: [renamed], renamed: true });
    // Added, removed, or moved into a container: every block is mapped again; a rename still shows.
    expect(blockDiff({ ...s2, blocks: { ...s2.blocks, c: { ...b, id: 'c' } } }, s2).changed).toBeNull();
    expect(blockDiff({ ...s2, blocks: { start } }, s2).changed).toBeNull();
    const swapped = blockDiff({ ...s2, blocks: { start: { ...start, name: 'Begin' }, c: { ...b, id: 'c' } } }, s2);
    expect(swapped).toEqual({ changed: null, renamed: true });
    expect(blockDiff({ ...s2, blocks: { ...s2.blocks, b: { ...moved, data: { parentId: 'start' } } } }, s2).changed).toBeNull();
  });

  it('bring what is drawn up to a new state while rendering: the same object for the same state, only changed blocks mapped again', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const b = { ...start, id: 'b', type: 'function', name: 'Step' };
    const s1 = { ...state, blocks: { start, b }, edges: [{ id: 'e', source: 'start', target: 'b' }] };
    const describe = () => ({ name: 'Block', color: '#000' });
    const first = drawnFor(NOTHING_DRAWN, s1, describe, 1);
    expect(first.nodes.map((n) => n.id)).toEqual(['start', 'b']);
    expect(first.edges.map((e) => e.id)).toEqual(['e']);
    expect(first.large).toBe(true);
    // A render for the same state (React rendering again, a selection) keeps everything.
    expect(drawnFor(first, s1, describe, 1)).toBe(first);
    // Nodes changed here (a selection) are kept when the next state maps one other block.
    const selected = { ...first, nodes: first.nodes.map((n) => (n.id === 'start' ? { ...n, selected: true } : n)) };
    const s2 = { ...s1, blocks: { ...s1.blocks, b: { ...b, position: { x: 7, y: 8 } } } };
    const next = drawnFor(selected, s2, describe, 1);
    expect(next.nodes[0]).toBe(selected.nodes[0]);
    expect(next.nodes[1]?.position).toEqual({ x: 7, y: 8 });
    expect(next.edges).toBe(first.edges);
    // A new catalogue lookup draws every node again; more blocks than the threshold make a large canvas.
    const again = drawnFor(next, s2, () => ({ name: 'Other', color: '#fff' }), 2);
    expect(again.nodes[0]).not.toBe(next.nodes[0]);
    expect(again.nodes[0]?.selected).toBe(true);
    expect(again.nodes[0]?.data.typeName).toBe('Other');
    expect(again.large).toBe(false);
  });

  it('apply changes for a few nodes without a pass over every node, as React Flow would', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const blocks = Object.fromEntries(Array.from({ length: 40 }, (_v, i) => [`b${i}`, { ...start, id: `b${i}`, type: 'function', name: `Step ${i}` }]));
    const nodes = toNodes({ ...state, blocks }, [], () => undefined);
    const changes: NodeChange<BlockNode>[] = [
      { type: 'position', id: 'b3', position: { x: 5, y: 6 }, dragging: true },
      { type: 'select', id: 'b3', selected: true },
      { type: 'select', id: 'b7', selected: false },
      { type: 'dimensions', id: 'b9', dimensions: { width: 240, height: 72 } },
      { type: 'position', id: 'gone', position: { x: 1, y: 1 } },
    ];
    const few = applyFew(changes, nodes);
    expect(few).toEqual(applyNodeChanges(changes, nodes));
    expect(few[3]).toMatchObject({ position: { x: 5, y: 6 }, dragging: true, selected: true });
    expect(few[0]).toBe(nodes[0]);
    expect(nodes[3]?.position).not.toEqual({ x: 5, y: 6 });
    expect(applyFew([], nodes)).toBe(nodes);
    // Changes for many nodes, and removals, take React Flow's own pass.
    const many: NodeChange<BlockNode>[] = nodes.map((n) => ({ type: 'select', id: n.id, selected: true }));
    expect(applyFew(many, nodes)).toEqual(applyNodeChanges(many, nodes));
    expect(applyFew([{ type: 'remove', id: 'b1' }], nodes)).toHaveLength(39);
  });

  it('tell when a changed block still draws the same card (moved), and when it does not', () => {
    const state = replay(startWorkflow(context, 'start'));
    const start = state.blocks.start;
    if (!start) throw new Error('no starter');
    const b = { ...start, id: 'b', type: 'function', name: 'Step' };
    const describe = () => ({ name: 'Function', color: '#000', icon: 'fn' });
    const s1 = { ...state, blocks: { b } };
    const [node] = toNodes(s1, [], describe);
    const look = (block: typeof b) => toNodes({ ...s1, blocks: { b: block } }, [], describe)[0]?.data;
    if (!node) throw new Error('no node');
    const moved = look({ ...b, position: { x: 50, y: 60 } });
    expect(moved).not.toBe(node.data);
    expect(sameLook(node.data, moved as BlockNode['data'])).toBe(true);
    expect(sameLook(node.data, look({ ...b, name: 'Renamed' }) as BlockNode['data'])).toBe(false);
    expect(sameLook(node.data, look({ ...b, horizontalHandles: false }) as BlockNode['data'])).toBe(false);
    expect(sameLook(node.data, { ...node.data, handles: [...node.data.handles, { id: 'error', label: 'Error', kind: 'error' }] })).toBe(false);
    expect(sameLook(node.data, { ...node.data, color: '#fff' })).toBe(false);
  });
});

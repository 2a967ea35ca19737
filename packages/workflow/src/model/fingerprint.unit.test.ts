import { describe, expect, it } from 'vitest';
import type { Command, CommandOf } from '../commands.js';
import { given, history } from '../testSupport.js';
import { blocksHashedCount, graphFingerprint, type FingerprintInput } from './fingerprint.js';

const add = (id: string, blockType: string, extra: Partial<CommandOf<'addBlock'>> = {}): CommandOf<'addBlock'> => ({
  type: 'addBlock',
  id,
  blockType,
  position: { x: 0, y: 0 },
  ...extra,
});

const base = history(
  add('f', 'function'),
  add('loop1', 'loop'),
  add('g', 'function', { parentId: 'loop1' }),
  { type: 'addEdge', source: 'start', target: 'f' },
  { type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 1' },
);
const before = graphFingerprint(given(base).state);
const after = (command: Command | Command[]) => graphFingerprint(given(base).when(command).state);

describe('graphFingerprint: what would run, not how it is drawn', () => {
  it('ignores layout: moving, resizing, wide and handles', () => {
    expect(after({ type: 'moveBlock', id: 'f', position: { x: 300, y: 40 } })).toBe(before);
    expect(after({ type: 'moveBlock', id: 'g', position: { x: 10, y: 10 } })).toBe(before);
    expect(after({ type: 'resizeBlock', id: 'loop1', width: 900, height: 700 })).toBe(before);
    expect(after({ type: 'setWide', id: 'f' })).toBe(before);
    expect(after({ type: 'toggleHandles', id: 'f' })).toBe(before);
  });

  it('changes with a value, a name, enabled, advanced mode, a parent, a loop setting and an edge', () => {
    const changed = [
      after({ type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 2' }),
      after({ type: 'renameBlock', id: 'f', name: 'Compute' }),
      after({ type: 'toggleEnabled', id: 'f' }),
      after({ type: 'setAdvancedMode', id: 'f', advancedMode: true }),
      after({ type: 'setParent', id: 'f', parentId: 'loop1' }),
      after({ type: 'updateLoop', id: 'loop1', iterations: 9 }),
      after({ type: 'addEdge', id: 'e2', source: 'f', target: 'loop1' }),
      after({ type: 'removeBlock', id: 'g' }),
    ];
    changed.forEach((fingerprint, i) => expect([i, fingerprint]).not.toEqual([i, before]));
    expect(new Set(changed).size).toBe(changed.length);
  });

  it('is equal again after undo, and after setting a value back', () => {
    const edited = [...base, ...given(base).when({ type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 2' }).events];
    expect(graphFingerprint(given(edited).when({ type: 'undo' }).state)).toBe(before);
    expect(graphFingerprint(given(edited).when({ type: 'setSubBlockValue', id: 'f', subBlockId: 'code', value: 'return 1' }).state)).toBe(before);
  });

  it('does not depend on the order of blocks, keys or edges, on edge ids, or on a trip through JSON', () => {
    const graph = given(base).state;
    const reordered = {
      blocks: Object.fromEntries(Object.entries(graph.blocks).reverse().map(([id, block]) => [id, Object.fromEntries(Object.entries(block).reverse())])),
      edges: [...graph.edges].reverse().map((edge) => ({ ...edge, id: `other-${edge.id}` })),
      loops: Object.fromEntries(Object.entries(graph.loops).map(([id, loop]) => [id, { ...loop, nodes: [...loop.nodes].reverse() }])),
      parallels: graph.parallels,
    };
    expect(graphFingerprint(reordered)).toBe(before);
    const json: FingerprintInput = JSON.parse(JSON.stringify({ ...graph, edges: graph.edges.map((edge) => ({ ...edge, sourceHandle: undefined })) }));
    expect(graphFingerprint(json)).toBe(before);
  });

  it('tells a duplicated edge from a single one', () => {
    const once = given(base).state;
    const [edge] = once.edges;
    if (edge === undefined) throw new Error('the base has an edge');
    expect(graphFingerprint({ ...once, edges: [edge, { ...edge, id: 'copy' }] })).not.toBe(before);
  });

  it('counts the workflow variables a run reads (name, type, value), in any order and whatever their ids', () => {
    const limit: Command = { type: 'addVariable', id: 'v1', name: 'limit', variableType: 'number', value: 3 };
    const withLimit = [...base, ...given(base).when(limit).events];
    const counted = graphFingerprint(given(withLimit).state);
    expect(counted).not.toBe(before);
    expect(graphFingerprint(given(withLimit).when({ type: 'updateVariable', id: 'v1', value: 4 }).state)).not.toBe(counted);
    expect(graphFingerprint(given(withLimit).when({ type: 'updateVariable', id: 'v1', name: 'max' }).state)).not.toBe(counted);
    expect(graphFingerprint(given(withLimit).when({ type: 'updateVariable', id: 'v1', variableType: 'plain' }).state)).not.toBe(counted);
    expect(graphFingerprint(given(withLimit).when({ type: 'deleteVariable', id: 'v1' }).state)).toBe(before);
    const state = given(withLimit).state;
    const renumbered = { ...state, variables: Object.fromEntries(Object.values(state.variables).map((v) => [`other-${v.id}`, { ...v, id: `other-${v.id}` }])) };
    expect(graphFingerprint(renumbered)).toBe(counted);
  });

  it('hashes a graph without variables as before they counted (fingerprints stored then still match)', () => {
    const graph = given(base).state;
    expect(graphFingerprint({ blocks: graph.blocks, edges: graph.edges, loops: graph.loops, parallels: graph.parallels })).toBe(before);
    expect(graphFingerprint({ blocks: {}, edges: [], variables: {} })).toBe('2db3ad0cc63a07ef');
  });

  it('hashes only the moved block of a 200-block workflow again', () => {
    const many = history(...Array.from({ length: 199 }, (_, i) => add(`b${i}`, i % 2 ? 'agent' : 'function')));
    const workflow = given(many);
    const { state } = workflow;
    graphFingerprint(state);
    const hashed = blocksHashedCount();
    const moved = workflow.when({ type: 'moveBlock', id: 'b7', position: { x: 1, y: 2 } }).state;
    expect(Object.keys(moved.blocks)).toHaveLength(200);
    expect(graphFingerprint(moved)).toBe(graphFingerprint(state));
    expect(blocksHashedCount() - hashed).toBe(1);
  });
});

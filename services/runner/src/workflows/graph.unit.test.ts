import { describe, expect, it } from 'vitest';
import { compileGraph, namesInheritedIds } from './graph.js';
import type { RunnableBlock, RunnableState } from './types.js';

const block = (id: string, type = 'function', parentId?: string): RunnableBlock => ({ id, type, name: id, enabled: true, subBlocks: {}, data: parentId ? { parentId } : {} });
const state = (blocks: RunnableBlock[], edges: Array<[string, string]>): RunnableState => ({
  blocks: Object.fromEntries(blocks.map((b) => [b.id, b])),
  edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })),
});

describe('the graph looks blocks up by own ids', () => {
  const dangling = state([block('s', 'starter'), block('f')], [['s', 'f'], ['constructor', 'f'], ['toString', 'f'], ['f', 'hasOwnProperty']]);

  it('drops an edge from or to constructor, toString or hasOwnProperty when no block has that id', () => {
    const top = compileGraph(dangling).scopes.get(null);
    expect(top?.incoming.get('f')?.map((e) => e.source)).toEqual(['s']);
    expect(top?.outgoing.has('f')).toBe(false);
    expect(top?.outgoing.has('constructor')).toBe(false);
    expect(compileGraph(dangling).blocks.constructor).toBeUndefined();
  });

  it('with ownIds false (runs recorded before patch own-block-ids) keeps them, as that code did', () => {
    const top = compileGraph(dangling, undefined, false).scopes.get(null);
    expect(top?.incoming.get('f')?.map((e) => e.source)).toEqual(['s', 'constructor', 'toString']);
  });

  it('a trigger block id or a parent named like a built-in that no block has is none: the run starts at the starter, the block sits at the top level', () => {
    const graph = compileGraph(state([block('s', 'starter'), block('f', 'function', 'constructor')], [['s', 'f']]), 'toString');
    expect(graph.entryId).toBe('s');
    expect(graph.parentOf.has('f')).toBe(false);
  });

  it('blocks whose ids are constructor and toString are blocks like any other', () => {
    const own = state([block('s', 'starter'), block('constructor', 'loop'), block('toString', 'function', 'constructor')], [['s', 'constructor']]);
    const graph = compileGraph(own);
    expect(graph.parentOf.get('toString')).toBe('constructor');
    expect(graph.scopes.get(null)?.incoming.get('constructor')?.map((e) => e.source)).toEqual(['s']);
    expect(graph.byName.get('constructor')).toEqual(['constructor']);
    expect(namesInheritedIds(own)).toBe(false);
  });

  it('namesInheritedIds: whether an edge, a parent, a container or the trigger block names an inherited id no block has', () => {
    const plain = state([block('s', 'starter'), block('f')], [['s', 'f']]);
    expect(namesInheritedIds(plain)).toBe(false);
    expect(namesInheritedIds(dangling)).toBe(true);
    expect(namesInheritedIds(state([block('s', 'starter'), block('f')], [['s', 'valueOf']]))).toBe(true);
    expect(namesInheritedIds(state([block('s', 'starter'), block('f', 'function', 'constructor')], []))).toBe(true);
    expect(namesInheritedIds({ ...plain, loops: { l: { id: 'toString', nodes: ['f'] } } })).toBe(true);
    expect(namesInheritedIds(plain, 'hasOwnProperty')).toBe(true);
    expect(namesInheritedIds(plain, 'nosuch')).toBe(false);
  });
});

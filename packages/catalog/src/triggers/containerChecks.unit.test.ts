import { describe, expect, it } from 'vitest';
import { containerParents, containerPlan, type MembershipState } from './containerChecks.js';

type Blocks = MembershipState['blocks'];
const b = (id: string, type: string, parentId?: string) => ({ id, type, ...(parentId === undefined ? {} : { data: { parentId } }) });
const blocks = (...list: Array<ReturnType<typeof b>>): Blocks => Object.fromEntries(list.map((x) => [x.id, x]));

describe('containerParents (which loop or parallel a block sits in, as a run reads it)', () => {
  it("reads a block's data.parentId, else the loop and parallel lists", () => {
    const state: MembershipState = {
      blocks: blocks(b('s', 'starter'), b('l', 'loop'), b('p', 'parallel'), b('a', 'function', 'l'), b('x', 'function'), b('y', 'function'), b('top', 'function')),
      loops: { l: { id: 'l', nodes: ['x'] } },
      parallels: { p: { id: 'p', nodes: ['y'] } },
    };
    expect(containerParents(state)).toEqual(new Map([['a', 'l'], ['x', 'l'], ['y', 'p']]));
  });

  it('data.parentId naming a block wins over the lists; one naming a block that is no container places it at the top level', () => {
    const state: MembershipState = {
      blocks: blocks(b('l', 'loop'), b('p', 'parallel'), b('f', 'function'), b('a', 'function', 'p'), b('c', 'function', 'f')),
      loops: { l: { id: 'l', nodes: ['a', 'c'] } },
    };
    // As the runner's graph: a parentId of an existing block is taken as it is, and only a container keeps the block.
    expect(containerParents(state)).toEqual(new Map([['a', 'p']]));
  });

  it('falls back to the lists when data.parentId names no block; the first list naming a block wins (loops before parallels)', () => {
    const state: MembershipState = {
      blocks: blocks(b('l', 'loop'), b('p', 'parallel'), b('a', 'function', 'gone'), b('both', 'function')),
      loops: { l: { id: 'l', nodes: ['a', 'both'] } },
      parallels: { p: { id: 'p', nodes: ['both'] } },
    };
    expect(containerParents(state)).toEqual(new Map([['a', 'l'], ['both', 'l']]));
  });

  it('ignores list entries that are no lists, name no block, or name an inherited member', () => {
    const state: MembershipState = {
      blocks: blocks(b('l', 'loop'), b('a', 'function', 'constructor'), b('c', 'function')),
      loops: { gone: { id: 'gone', nodes: ['c'] }, bad: 'x', noNodes: { id: 'l', nodes: 'c' }, proto: { id: 'toString', nodes: ['c'] } },
    };
    expect(containerParents(state)).toEqual(new Map());
  });
});

describe('containerPlan (what a container runs over, as the runner reads it)', () => {
  const loop = (data?: Record<string, unknown>) => ({ id: 'l', type: 'loop', name: 'Loop', ...(data ? { data } : {}) });
  const parallel = (data?: Record<string, unknown>) => ({ id: 'p', type: 'parallel', name: 'Par', ...(data ? { data } : {}) });

  it("reads the block's data first, then the state's list entry", () => {
    expect(containerPlan(loop({ loopType: 'for', count: 3 }), { loops: { l: { loopType: 'forEach', iterations: 9 } } })).toEqual({ field: 'count', value: 3 });
    expect(containerPlan(loop(), { loops: { l: { id: 'l', loopType: 'forEach', forEachItems: '[1]' } } })).toEqual({ field: 'collection', value: '[1]' });
    expect(containerPlan(loop({ count: 4 }), { loops: { l: { id: 'l', iterations: 9 } } })).toEqual({ field: 'count', value: 4 });
    expect(containerPlan(loop(), { loops: { l: { id: 'l', iterations: 9 } } })).toEqual({ field: 'count', value: 9 });
    expect(containerPlan(parallel(), { parallels: { p: { id: 'p', parallelType: 'count', count: 7 } } })).toEqual({ field: 'count', value: 7 });
    expect(containerPlan(parallel(), { parallels: { p: { id: 'p', distribution: '["a"]' } } })).toEqual({ field: 'collection', value: '["a"]' });
    expect(containerPlan(parallel())).toEqual({ field: 'collection', value: '' });
  });
});

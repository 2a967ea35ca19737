import { describe, expect, it } from 'vitest';
import { given, history } from '../testSupport.js';

const base = history(
  { type: 'addBlock', id: 'loop1', blockType: 'loop', position: { x: 0, y: 0 } },
  { type: 'addBlock', id: 'par1', blockType: 'parallel', position: { x: 0, y: 0 } },
  { type: 'addBlock', id: 'f', blockType: 'function', position: { x: 0, y: 0 }, parentId: 'loop1' },
);

describe('loops (§3 Loop, §5, §9)', () => {
  it('§3: nodes are the child block ids; defaults 5 iterations and for', () => {
    expect(given(base).state.loops['loop1']).toEqual({ id: 'loop1', nodes: ['f'], iterations: 5, loopType: 'for', forEachItems: '' });
  });

  it('§5/§9: iterations clamp to 1..50', () => {
    expect(given(base).when({ type: 'updateLoop', id: 'loop1', iterations: 500 }).state.loops['loop1']?.iterations).toBe(50);
    expect(given(base).when({ type: 'updateLoop', id: 'loop1', iterations: -3 }).state.loops['loop1']?.iterations).toBe(1);
  });

  it('§3: forEachItems text is parsed as JSON when it starts with [ or {', () => {
    const list = given(base).when({ type: 'updateLoop', id: 'loop1', loopType: 'forEach', forEachItems: '[1, 2, 3]' });
    expect(list.state.loops['loop1']).toMatchObject({ loopType: 'forEach', forEachItems: [1, 2, 3] });
    const map = given(base).when({ type: 'updateLoop', id: 'loop1', forEachItems: '{"a": 1}' });
    expect(map.state.loops['loop1']?.forEachItems).toEqual({ a: 1 });
    const text = given(base).when({ type: 'updateLoop', id: 'loop1', forEachItems: '<start.input>' });
    expect(text.state.loops['loop1']?.forEachItems).toBe('<start.input>');
  });

  it('§5: only loop blocks accept loop updates', () => {
    const { error, events } = given(base).when({ type: 'updateLoop', id: 'par1', iterations: 3 });
    expect(error?.code).toBe('validation');
    expect(events).toEqual([]);
  });
});

describe('parallels (§3 Parallel, §5, §9)', () => {
  it('§3: defaults count 5, type collection, empty distribution', () => {
    expect(given(base).state.parallels['par1']).toEqual({ id: 'par1', nodes: [], distribution: '', count: 5, parallelType: 'collection' });
  });

  it('§5/§9: count clamps to 1..50; anything but count is treated as collection', () => {
    const counted = given(base).when({ type: 'updateParallel', id: 'par1', count: 99, parallelType: 'count', distribution: '[1]' });
    expect(counted.state.parallels['par1']).toMatchObject({ count: 50, parallelType: 'count', distribution: '[1]' });
    const odd = given(base).when({ type: 'updateParallel', id: 'par1', count: 0, parallelType: 'weird' });
    expect(odd.state.parallels['par1']).toMatchObject({ count: 1, parallelType: 'collection' });
  });

  it('§5: only parallel blocks accept parallel updates', () => {
    expect(given(base).when({ type: 'updateParallel', id: 'loop1', count: 2 }).error?.code).toBe('validation');
  });
});

import { describe, expect, it } from 'vitest';
import { executionOrder } from './graph.js';
import type { RunnableBlock, RunnableState } from './types.js';

const block = (id: string, type = 'function', enabled = true): RunnableBlock => ({ id, type, name: id, enabled, subBlocks: {} });
const state = (blocks: RunnableBlock[], edges: Array<[string, string]>): RunnableState => ({
  blocks: Object.fromEntries(blocks.map((b) => [b.id, b])),
  edges: edges.map(([source, target], i) => ({ id: `e${i}`, source, target })),
});

describe('execution order', () => {
  it('runs a block after every block that feeds it', () => {
    const s = state([block('s', 'starter'), block('a'), block('b'), block('c')], [['s', 'a'], ['s', 'b'], ['a', 'c'], ['b', 'c']]);
    const order = executionOrder(s);
    expect(order[0]).toBe('s');
    expect(order.indexOf('c')).toBeGreaterThan(Math.max(order.indexOf('a'), order.indexOf('b')));
    expect(order).toHaveLength(4);
  });

  it('skips unreachable and disabled blocks', () => {
    const s = state([block('s', 'starter'), block('a'), block('off', 'function', false), block('lonely')], [['s', 'a'], ['a', 'off']]);
    expect(executionOrder(s)).toEqual(['s', 'a']);
  });

  it('refuses a workflow without a starter or with a cycle', () => {
    expect(() => executionOrder(state([block('a')], []))).toThrow('The workflow has no starter block');
    expect(() => executionOrder(state([block('s', 'starter'), block('a'), block('b')], [['s', 'a'], ['a', 'b'], ['b', 'a']]))).toThrow('cycle');
  });
});

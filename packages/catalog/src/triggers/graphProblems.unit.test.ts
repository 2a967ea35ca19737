import { describe, expect, it } from 'vitest';
import { checkDeployable, type DeployableState } from './checkDeployable.js';
import { findCycles, graphProblems } from './graphProblems.js';

type Edge = [string, string] | [string, string, string];
function state(blocks: Array<[string, string, string, string?]>, edges: Edge[]): DeployableState {
  return {
    blocks: Object.fromEntries(blocks.map(([id, type, name, parentId]) => [id, { id, type, name, enabled: true, subBlocks: type === 'function' ? { code: { value: 'return 1' } } : {}, ...(parentId ? { data: { parentId } } : {}) }])),
    edges: edges.map(([source, target, sourceHandle]) => ({ source, target, ...(sourceHandle ? { sourceHandle } : {}) })),
  };
}
const S: [string, string, string] = ['s', 'starter', 'Start'];

describe('findCycles', () => {
  it('finds each cycle (a self edge too) in walking order, the first block repeated at the end; none in a diamond', () => {
    const next = (edges: Record<string, string[]>) => (id: string) => edges[id] ?? [];
    expect(findCycles(['s', 'a', 'b'], next({ s: ['a'], a: ['b'], b: ['a'] }))).toEqual([['a', 'b', 'a']]);
    expect(findCycles(['a'], next({ a: ['a'] }))).toEqual([['a', 'a']]);
    expect(findCycles(['s', 'a', 'b', 'j'], next({ s: ['a', 'b'], a: ['j'], b: ['j'] }))).toEqual([]);
    expect(findCycles(['a', 'b', 'c', 'd'], next({ a: ['b'], b: ['a'], c: ['d'], d: ['c'] }))).toEqual([['a', 'b', 'a'], ['c', 'd', 'c']]);
  });

  it('walks a long chain without recursion', () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => `n${i}`);
    expect(findCycles(ids, (id) => [`n${Number(id.slice(1)) + 1}`].filter((n) => n !== 'n50000'))).toEqual([]);
  });
});

describe('graphProblems (what every run of the state refuses)', () => {
  it("refuses s → a → b → a on the edges, naming the cycle's blocks in the runner's words", () => {
    const s = state([S, ['a', 'function', 'Fetch'], ['b', 'function', 'Parse']], [['s', 'a'], ['a', 'b'], ['b', 'a']]);
    const expected = { blockId: 'a', blockName: 'Fetch', field: 'edges', message: 'The workflow has a cycle outside a loop block: Fetch → Parse → Fetch' };
    expect(graphProblems(s)).toEqual([expected]);
    expect(checkDeployable(s)).toEqual([expected]);
  });

  it('refuses a state without a starter block', () => {
    const s = state([['a', 'function', 'Fetch']], []);
    // A problem of the whole workflow names no block: no blockId or blockName at all (absent from its JSON too).
    expect(graphProblems(s)).toEqual([{ field: 'blocks', message: 'The workflow has no starter block' }]);
    expect(checkDeployable(s)).toContainEqual({ field: 'blocks', message: 'The workflow has no starter block' });
    expect(JSON.stringify(graphProblems(s))).toBe('[{"field":"blocks","message":"The workflow has no starter block"}]');
  });

  it("reads a body from the state's loop and parallel lists as the runner does: an edge across scopes is no cycle", () => {
    // Inner sits in the loop by the loops list only (no data.parentId): Back → Inner → Back crosses scopes.
    const listed: DeployableState = {
      ...state([S, ['loop', 'loop', 'Loop'], ['a', 'function', 'Inner'], ['c', 'function', 'Back']], [['s', 'loop'], ['loop', 'a', 'loop-start-source'], ['c', 'a'], ['a', 'c']]),
      loops: { loop: { id: 'loop', nodes: ['a'] } },
    };
    expect(graphProblems(listed)).toEqual([]);
    // Without the list Inner is a top-level block, and the two edges a cycle.
    expect(graphProblems({ ...listed, loops: {} }).map((p) => p.message)).toEqual(['The workflow has a cycle outside a loop block: Inner → Back → Inner']);
    // Two blocks listed in a parallel cycling inside its body.
    const body: DeployableState = {
      ...state([S, ['par', 'parallel', 'Fan'], ['a', 'function', 'One'], ['b', 'function', 'Two']], [['s', 'par'], ['par', 'a', 'parallel-start-source'], ['a', 'b'], ['b', 'a']]),
      parallels: { par: { id: 'par', nodes: ['a', 'b'] } },
    };
    expect(graphProblems(body).map((p) => p.message)).toEqual(['The workflow has a cycle outside a loop block: One → Two → One']);
  });

  it('a loop repeats through its container: its start edge into the body, body → container and container → next are no cycle', () => {
    const s = state(
      [S, ['loop', 'loop', 'Loop'], ['a', 'function', 'Body', 'loop'], ['b', 'function', 'After']],
      [['s', 'loop'], ['loop', 'a', 'loop-start-source'], ['a', 'loop'], ['loop', 'b', 'loop-end-source']],
    );
    expect(graphProblems(s)).toEqual([]);
  });

  it("refuses a cycle inside a container's body and one through the container at the top level", () => {
    const inBody = state(
      [S, ['loop', 'loop', 'Loop'], ['a', 'function', 'One', 'loop'], ['b', 'function', 'Two', 'loop']],
      [['s', 'loop'], ['loop', 'a', 'loop-start-source'], ['a', 'b'], ['b', 'a']],
    );
    expect(graphProblems(inBody).map((p) => p.message)).toEqual(['The workflow has a cycle outside a loop block: One → Two → One']);
    const around = state([S, ['par', 'parallel', 'Fan'], ['a', 'function', 'Inner', 'par'], ['c', 'function', 'Back']], [['s', 'par'], ['par', 'c', 'parallel-end-source'], ['c', 'par']]);
    expect(graphProblems(around).map((p) => p.blockName)).toEqual(['Fan']);
  });

  it('an edge to a block the state does not have is no cycle', () => {
    expect(graphProblems(state([S, ['a', 'function', 'A']], [['s', 'a'], ['a', 'gone'], ['gone', 'a']]))).toEqual([]);
  });
});

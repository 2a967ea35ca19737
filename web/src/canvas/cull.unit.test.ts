import { describe, expect, it } from 'vitest';
import type { Edge, Node } from '@xyflow/react';
import { boundsOf, boxesOf, cull, cullAgain, sameOr, viewOf, windowAround, windowServes, type Culled } from './cull';

const node = (id: string, x: number, y: number, extra: Partial<Node> = {}): Node => ({ id, position: { x, y }, data: {}, ...extra });
const edge = (source: string, target: string, extra: Partial<Edge> = {}): Edge => ({ id: `${source}-${target}`, source, target, ...extra });
const ids = (items: readonly { id: string }[]) => items.map((i) => i.id);

/** A row of blocks 300 apart, each connected to the one before (like the canvas benchmark's chain). */
const row = (n: number) => {
  const nodes = Array.from({ length: n }, (_, i) => node(`b${i}`, i * 300, 0));
  const edges = nodes.slice(1).map((b, i) => edge(`b${i}`, b.id));
  return { nodes, edges };
};
const view = { x: 0, y: -100, width: 1_000, height: 400 };

describe('cull', () => {
  it('gives the blocks that meet the window, the edges between them, and the far ends of edges leaving it', () => {
    const { nodes, edges } = row(20);
    const given = cull(nodes, edges, view);
    // b0..b3 meet x < 1000; b4 is given as the far end of b3's edge, and nothing beyond it.
    expect(ids(given.nodes)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    expect(ids(given.edges)).toEqual(['b0-b1', 'b1-b2', 'b2-b3', 'b3-b4']);
  });

  it('always gives selected and dragged blocks and selected edges, with their ends', () => {
    const { nodes, edges } = row(20);
    nodes[15] = { ...(nodes[15] as Node), selected: true };
    nodes[10] = { ...(nodes[10] as Node), dragging: true };
    edges[6] = { ...(edges[6] as Edge), selected: true };
    const given = cull(nodes, edges, view);
    expect(ids(given.nodes)).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b6', 'b7', 'b9', 'b10', 'b11', 'b14', 'b15', 'b16']);
    expect(ids(given.edges)).toEqual(['b0-b1', 'b1-b2', 'b2-b3', 'b3-b4', 'b6-b7', 'b9-b10', 'b10-b11', 'b14-b15', 'b15-b16']);
  });

  it('gives an edge that crosses the window with both of its ends outside it', () => {
    const nodes = [node('left', -5_000, 0), node('right', 5_000, 0), node('away', 5_000, 5_000)];
    const given = cull(nodes, [edge('left', 'right'), edge('right', 'away')], view);
    expect(ids(given.nodes)).toEqual(['left', 'right']);
    expect(ids(given.edges)).toEqual(['left-right']);
  });

  it('gives the containers of a block given, placed by their positions added up', () => {
    const nodes = [
      node('outer', 5_000, 5_000, { width: 9_000, height: 9_000 }),
      node('inner', -4_900, -4_900, { parentId: 'outer', width: 500, height: 300 }),
      node('child', 10, 10, { parentId: 'inner' }),
      node('far', 9_000, 9_000),
    ];
    // child is at (110, 110): in view; inner (100, 100) is too; outer is at (5000, 5000) and given as their container.
    expect(ids(cull(nodes, [], view).nodes)).toEqual(['outer', 'inner', 'child']);
    expect(boxesOf(nodes).boxes.slice(8, 12)).toEqual(new Float64Array([110, 110, 240, 60]));
  });

  it('gives back the same arrays when everything is given', () => {
    const { nodes, edges } = row(3);
    const given = cull(nodes, edges, view);
    expect(given.nodes).toBe(nodes);
    expect(given.edges).toBe(edges);
  });
});

describe('cullAgain', () => {
  const earlier = (nodes: Node[], edges: Edge[], window = view): Culled<Node, Edge> => ({ all: nodes, edges, window, given: cull(nodes, edges, window) });
  const moved = (nodes: Node[], i: number, x: number, y = 0, extra: Partial<Node> = {}) => nodes.map((n, j) => (j === i ? { ...n, position: { x, y }, ...extra } : n));

  it('gives what cull gives when a block near the view moves and stays near it, without a pass over the edges', () => {
    const { nodes, edges } = row(20);
    const before = earlier(nodes, edges);
    const after = moved(nodes, 2, 620, 30);
    const again = cullAgain(before, after, edges, view);
    expect(again?.nodes).toEqual(cull(after, edges, view).nodes);
    expect(again?.edges).toBe(before.given.edges);
    // A dragged block is near wherever it goes.
    const dragged = moved(nodes, 1, 4_000, 0, { dragging: true, selected: true });
    const withDragged = { ...before, all: moved(nodes, 1, 300, 0, { dragging: true, selected: true }) };
    withDragged.given = cull(withDragged.all, edges, view);
    expect(ids(cullAgain(withDragged, dragged, edges, view)?.nodes ?? [])).toEqual(ids(cull(dragged, edges, view).nodes));
  });

  it('leaves it to cull when a block leaves or enters the view, a container moves, the ids or the edges or the window change', () => {
    const { nodes, edges } = row(20);
    const before = earlier(nodes, edges);
    expect(cullAgain(before, moved(nodes, 2, 5_000), edges, view)).toBeUndefined();
    expect(cullAgain(before, moved(nodes, 10, 600), edges, view)).toBeUndefined();
    expect(cullAgain(before, moved(nodes, 2, 620, 0, { type: 'container' }), edges, view)).toBeUndefined();
    expect(cullAgain(before, moved(nodes, 2, 620, 0, { id: 'other' }), edges, view)).toBeUndefined();
    expect(cullAgain(before, moved(nodes, 2, 620), edges.slice(1), view)).toBeUndefined();
    expect(cullAgain(before, moved(nodes, 2, 620), edges, { ...view })).toBeUndefined();
    expect(cullAgain(undefined, nodes, edges, view)).toBeUndefined();
    expect(cullAgain(before, nodes, edges, view)).toBe(before.given);
  });
});

describe('the window', () => {
  it('is the view with half a view around it, and serves until the view nears its edge or zooms in', () => {
    const v = viewOf([-200, -100, 0.5], 1_000, 800);
    expect(v).toEqual({ x: 400, y: 200, width: 2_000, height: 1_600 });
    const w = windowAround(v);
    expect(w).toEqual({ x: -600, y: -600, width: 4_000, height: 3_200 });
    expect(windowServes(w, v)).toBe(true);
    // Panned right by over a quarter of a view: less than a fifth of a view is left on the right.
    expect(windowServes(w, { ...v, x: v.x + 700 })).toBe(false);
    expect(windowServes(w, { ...v, x: v.x + 500 })).toBe(true);
    // Zoomed in twice: the window spans four views.
    expect(windowServes(w, { x: 900, y: 600, width: 1_000, height: 800 })).toBe(false);
    // Zoomed out: the view no longer fits.
    expect(windowServes(w, { x: 0, y: 0, width: 4_000, height: 3_200 })).toBe(false);
  });

  it('knows the bounds of every node', () => {
    expect(boundsOf(boxesOf([]))).toBeUndefined();
    expect(boundsOf(boxesOf([node('a', -10, 5), node('b', 100, 200, { measured: { width: 50, height: 20 } })]))).toEqual({ x: -10, y: 5, width: 240, height: 215 });
  });
});

describe('sameOr', () => {
  it('keeps the earlier array while its items are the same objects', () => {
    const a = { id: 'a' };
    const prev = [a];
    expect(sameOr(prev, [a])).toBe(prev);
    expect(sameOr(prev, [{ id: 'a' }])).not.toBe(prev);
    expect(sameOr(undefined, prev)).toBe(prev);
  });
});

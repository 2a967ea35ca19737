import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { absolutePosition, blockRect, clickPlacement, CONTAINER_INSET, containerAt, dropPlacement, FOOTPRINT, freeSpot, growCommands, mayNest, NEXT_GAP, nextSpot, resizeCommands, type Placement, type Rect } from './place';

const block = (id: string, type: string, x: number, y: number, data: BlockState['data'] = {}): BlockState =>
  ({ id, type, name: id, position: { x, y }, subBlocks: {}, outputs: {}, enabled: true, horizontalHandles: true, isWide: false, height: 0, advancedMode: false, data }) as BlockState;
const state = (blocks: BlockState[]) => ({ blocks: Object.fromEntries(blocks.map((b) => [b.id, b])), edges: [] }) as unknown as WorkflowState;

describe('placing blocks', () => {
  it('puts a new block at the centre when it is free, and never on top of another block', () => {
    expect(freeSpot({ x: 500, y: 500 }, state([]))).toEqual({ x: 370, y: 445 });
    const s = state([block('a', 'agent', 370, 445)]);
    const spot = freeSpot({ x: 500, y: 500 }, s);
    const a = blockRect(s, s.blocks.a as BlockState);
    const overlap = spot.x < a.x + a.width && a.x < spot.x + 260 && spot.y < a.y + a.height && a.y < spot.y + 110;
    expect(overlap).toBe(false);
    // The nearest free spot, below the block in the way before above it.
    expect(spot.y).toBeGreaterThan(445);
    // Many clicks in a row: every block gets its own place.
    let many = state([]);
    for (let i = 0; i < 12; i++) {
      const p = freeSpot({ x: 0, y: 0 }, many);
      many = state([...Object.values(many.blocks), block(`b${i}`, 'agent', p.x, p.y)]);
    }
    const rects = Object.values(many.blocks).map((b) => blockRect(many, b));
    for (const r of rects) for (const o of rects) if (r !== o) expect(r.x < o.x + o.width && o.x < r.x + r.width && r.y < o.y + o.height && o.y < r.y + r.height).toBe(false);
  });

  it('click-to-add puts a block right of the selected or right-most block on its row, then further right, then below, never on a block', () => {
    const start = block('start', 'starter', 0, 0);
    const right = 260 + NEXT_GAP;
    // Only the starter: right of it on its row, not above or below it (nearer to the view's centre).
    expect(nextSpot(state([start]), [], { x: 130, y: 55 })).toEqual({ x: right, y: 0 });
    // Nothing selected: right of the right-most block; selected: right of that one.
    const two = state([start, block('a', 'agent', right, 0), block('low', 'agent', 0, 400)]);
    expect(nextSpot(two, [], { x: 0, y: 0 })).toEqual({ x: right * 2, y: 0 });
    expect(nextSpot(two, ['low'], { x: 0, y: 0 })).toEqual({ x: right, y: 400 });
    // The spot right of the selected block is taken: further right on the same row first…
    expect(nextSpot(two, ['start'], { x: 0, y: 0 })).toEqual({ x: right + 260, y: 0 });
    // …and when the row is full that far too, below the taken spot.
    const row = state([start, block('a', 'agent', right, 0), block('b', 'agent', right + 260, 0)]);
    expect(nextSpot(row, ['start'], { x: 0, y: 0 })).toEqual({ x: right, y: 130 });
    // No block at all: the view's centre.
    expect(nextSpot(state([]), [], { x: 500, y: 500 })).toEqual({ x: 370, y: 445 });
    // Many clicks with the starter selected: every block gets its own place, none left of or above the starter.
    let many = state([start]);
    for (let i = 0; i < 12; i++) {
      const p = nextSpot(many, ['start'], { x: 0, y: 0 });
      expect(p.x).toBeGreaterThan(0);
      expect(p.y).toBeGreaterThanOrEqual(0);
      many = state([...Object.values(many.blocks), block(`b${i}`, 'agent', p.x, p.y)]);
    }
    const rects = Object.values(many.blocks).map((b) => blockRect(many, b));
    for (const r of rects) for (const o of rects) if (r !== o) expect(r.x < o.x + o.width && o.x < r.x + r.width && r.y < o.y + o.height && o.y < r.y + r.height).toBe(false);
  });

  it('places a block going into a container inside it: the container and those around it do not cover the spot, its other children do', () => {
    const s = state([block('outer', 'loop', 0, 0, { width: 800, height: 600 }), block('inner', 'parallel', 100, 100, { parentId: 'outer', width: 500, height: 400 })]);
    expect(freeSpot({ x: 300, y: 300 }, s, undefined, 'inner')).toEqual({ x: 170, y: 245 });
    expect(freeSpot({ x: 300, y: 300 }, s)).not.toEqual({ x: 170, y: 245 });
    const busy = state([...Object.values(s.blocks), block('c', 'agent', 70, 145, { parentId: 'inner' })]);
    expect(freeSpot({ x: 300, y: 300 }, busy, undefined, 'inner')).not.toEqual({ x: 170, y: 245 });
  });

  it('finds the innermost container under a point, never the dragged block or its inside', () => {
    const s = state([block('outer', 'loop', 0, 0, { width: 800, height: 600 }), block('inner', 'parallel', 100, 100, { parentId: 'outer', width: 300, height: 200 }), block('x', 'agent', 20, 20, { parentId: 'inner' })]);
    expect(absolutePosition(s, 'x')).toEqual({ x: 120, y: 120 });
    expect(containerAt(s, { x: 150, y: 150 })?.id).toBe('inner');
    expect(containerAt(s, { x: 700, y: 500 })?.id).toBe('outer');
    expect(containerAt(s, { x: 150, y: 150 }, 'inner')?.id).toBe('outer');
    expect(containerAt(s, { x: 150, y: 150 }, 'outer')).toBeUndefined();
    expect(containerAt(s, { x: 900, y: 900 })).toBeUndefined();
  });
});

describe('resizing a container', () => {
  const s = state([block('loop', 'loop', 100, 100, { width: 500, height: 300 }), block('a', 'agent', 40, 50, { parentId: 'loop' }), block('b', 'agent', 900, 900)]);

  it('from the top or left edge, shifts its children back so they stay where they are on the canvas', () => {
    const before = absolutePosition(s, 'a');
    const commands = resizeCommands(s, 'loop', 560, 340, { x: 40, y: 60 });
    expect(commands).toEqual([
      { type: 'resizeBlock', id: 'loop', width: 560, height: 340 },
      { type: 'moveBlock', id: 'loop', position: { x: 40, y: 60 } },
      { type: 'moveBlock', id: 'a', position: { x: 100, y: 90 } },
    ]);
    const after = state([block('loop', 'loop', 40, 60), block('a', 'agent', 100, 90, { parentId: 'loop' })]);
    expect(absolutePosition(after, 'a')).toEqual(before);
  });

  it('from the bottom or right edge, only resizes', () => {
    expect(resizeCommands(s, 'loop', 600, 400, { x: 100, y: 100 })).toEqual([{ type: 'resizeBlock', id: 'loop', width: 600, height: 400 }]);
    expect(resizeCommands(s, 'gone', 600, 400, { x: 0, y: 0 })).toEqual([]);
  });
});

describe('click-to-add into a container', () => {
  const loop = block('loop', 'loop', 1000, 100, { width: 500, height: 300 });
  const child = block('child', 'agent', 40, 60, { parentId: 'loop' });
  const start = block('start', 'starter', 0, 100);
  const s = state([start, loop, child]);

  it('with a block inside a loop selected, puts the new block into that loop right of it, and the loop grows to hold it', () => {
    const placed = clickPlacement(s, ['child'], { x: 0, y: 0 });
    expect(placed).toEqual({ at: { x: 1040 + 260 + NEXT_GAP, y: 160 }, parentId: 'loop' });
    // Its right edge is past the loop's (1500): the loop grows right to it, keeping its corner.
    // A growBlock: "at least" this size, so a concurrent grow by another user is not shrunk back.
    expect(growCommands(s, placed.parentId, { ...placed.at, ...FOOTPRINT })).toEqual([{ type: 'growBlock', id: 'loop', minWidth: 1400 + 260 - 1000, minHeight: 300 }]);
    // The spot right of it taken by a sibling: the loop's own area, row by row, before it grows.
    const busy = state([...Object.values(s.blocks), block('sib', 'agent', 400, 60, { parentId: 'loop' })]);
    const inArea = clickPlacement(busy, ['child'], { x: 0, y: 0 });
    expect(inArea).toEqual({ at: { x: 1000 + CONTAINER_INSET.x, y: 100 + 300 - FOOTPRINT.height }, parentId: 'loop' });
    expect(growCommands(busy, 'loop', { ...inArea.at, ...FOOTPRINT })).toEqual([]);
  });

  it('with a loop selected, puts the new block inside it at its first free spot, row by row, then grows it', () => {
    const empty = state([start, loop]);
    const first = clickPlacement(empty, ['loop'], { x: 0, y: 0 });
    expect(first).toEqual({ at: { x: 1000 + CONTAINER_INSET.x, y: 100 + CONTAINER_INSET.y }, parentId: 'loop' });
    // Within the loop's edges: no growing.
    expect(growCommands(empty, 'loop', { ...first.at, ...FOOTPRINT })).toEqual([]);
    // The first spot taken: the next free one below it, still inside the loop's edges.
    const one = state([start, loop, block('a', 'agent', CONTAINER_INSET.x, CONTAINER_INSET.y, { parentId: 'loop' })]);
    const second = clickPlacement(one, ['loop'], { x: 0, y: 0 });
    expect(second.parentId).toBe('loop');
    expect(second.at.x).toBe(1000 + CONTAINER_INSET.x);
    expect(second.at.y).toBeGreaterThanOrEqual(100 + CONTAINER_INSET.y + FOOTPRINT.height);
    expect(second.at.y + FOOTPRINT.height).toBeLessThanOrEqual(100 + 300);
    // Full: a spot right of or below the inset corner, and the loop grows to hold it.
    const full = state([...Object.values(one.blocks), block('b', 'agent', second.at.x - 1000, second.at.y - 100, { parentId: 'loop' })]);
    const third = clickPlacement(full, ['loop'], { x: 0, y: 0 });
    expect(third.parentId).toBe('loop');
    const grown = growCommands(full, 'loop', { ...third.at, ...FOOTPRINT });
    expect(grown).toHaveLength(1);
    const after = state([...Object.values(full.blocks).filter((b) => b.id !== 'loop'), block('loop', 'loop', 1000, 100, grown[0]?.type === 'growBlock' ? { width: grown[0].minWidth, height: grown[0].minHeight } : {}), block('c', 'agent', third.at.x - 1000, third.at.y - 100, { parentId: 'loop' })]);
    const box = blockRect(after, after.blocks.loop as BlockState);
    const rects = ['a', 'b', 'c'].map((id) => blockRect(after, after.blocks[id] as BlockState));
    for (const r of rects) expect(r.x + r.width <= box.x + box.width && r.y + r.height <= box.y + box.height).toBe(true);
    for (const r of rects) for (const o of rects) if (r !== o) expect(r.x < o.x + o.width && o.x < r.x + r.width && r.y < o.y + o.height && o.y < r.y + r.height).toBe(false);
  });

  it('grows the containers around a nested one too, and never shrinks one', () => {
    const outer = block('outer', 'parallel', 0, 0, { width: 700, height: 400 });
    const inner = block('inner', 'loop', 100, 50, { parentId: 'outer', width: 500, height: 300 });
    const nested = state([outer, inner]);
    expect(growCommands(nested, 'inner', { x: 500, y: 300, ...FOOTPRINT })).toEqual([
      { type: 'growBlock', id: 'inner', minWidth: 500 + 260 - 100, minHeight: 300 + 110 - 50 },
      { type: 'growBlock', id: 'outer', minWidth: 100 + 660, minHeight: 50 + 360 },
    ]);
    expect(growCommands(nested, 'inner', { x: 120, y: 60, ...FOOTPRINT })).toEqual([]);
    expect(growCommands(nested, undefined, { x: 5000, y: 5000, ...FOOTPRINT })).toEqual([]);
  });

  it('keeps blocks that may not nest, and a click with no block in a container selected, at the top level as nextSpot places them', () => {
    expect(mayNest('agent', 'blocks')).toBe(true);
    expect(mayNest('loop', undefined)).toBe(true);
    expect(mayNest('webhook', 'triggers')).toBe(false);
    expect(mayNest('starter', 'blocks')).toBe(false);
    // A trigger with a block in the loop selected: beside the loop, not inside it.
    const trigger = clickPlacement(s, ['child'], { x: 0, y: 0 }, FOOTPRINT, false);
    expect(trigger).toEqual({ at: nextSpot(s, ['child'], { x: 0, y: 0 }) });
    const loopRect = blockRect(s, loop);
    expect(trigger.at.x >= loopRect.x + loopRect.width || trigger.at.y >= loopRect.y + loopRect.height).toBe(true);
    // Nothing selected (the loop is the right-most block) or the starter selected: the top level.
    expect(clickPlacement(s, [], { x: 0, y: 0 })).toEqual({ at: nextSpot(s, [], { x: 0, y: 0 }) });
    expect(clickPlacement(s, ['start'], { x: 0, y: 0 })).toEqual({ at: { x: 260 + NEXT_GAP, y: 100 } });
  });
});

/** The state after click-to-add or a drop: its containers grown as growCommands asks, the new block `new` in place. */
function placed(s: WorkflowState, at: Placement): WorkflowState {
  const grown = new Map(growCommands(s, at.parentId, { ...at.at, ...FOOTPRINT }).flatMap((c) => (c.type === 'growBlock' ? [[c.id, c] as const] : [])));
  const blocks = Object.values(s.blocks).map((b) => {
    const g = grown.get(b.id);
    return g ? { ...b, data: { ...b.data, width: Math.max(b.data.width ?? 500, g.minWidth ?? 0), height: Math.max(b.data.height ?? 300, g.minHeight ?? 0) } } : b;
  });
  const base = at.parentId ? absolutePosition(s, at.parentId) : { x: 0, y: 0 };
  return state([...blocks, block('new', 'agent', at.at.x - base.x, at.at.y - base.y, at.parentId ? { parentId: at.parentId } : {})]);
}
const covers = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
/** Whether `container` (grown) covers a block that is neither inside it nor around it. */
function coversOthers(s: WorkflowState, container: string): boolean {
  const inside = (b: BlockState, id: string): boolean => b.id === id || (b.data.parentId !== undefined && inside(s.blocks[b.data.parentId] as BlockState, id));
  const c = s.blocks[container] as BlockState;
  return Object.values(s.blocks).some((b) => !inside(b, container) && !inside(c, b.id) && covers(blockRect(s, c), blockRect(s, b)));
}

describe('click-to-add never grows a container over blocks that are not its own', () => {
  it('a block in a loop selected, a top-level block right of the loop: the loop\'s own area, not past that block', () => {
    const s = state([block('loop', 'loop', 0, 0, { width: 500, height: 300 }), block('a', 'agent', 110, 60, { parentId: 'loop' }), block('b', 'agent', 600, 100)]);
    const at = clickPlacement(s, ['a'], { x: 0, y: 0 });
    // Right of `a` the loop would grow over `b`: the next row of its own area, and it does not grow.
    expect(at).toEqual({ at: { x: 110, y: 190 }, parentId: 'loop' });
    expect(growCommands(s, 'loop', { ...at.at, ...FOOTPRINT })).toEqual([]);
    expect(coversOthers(placed(s, at), 'loop')).toBe(false);
  });

  it('a loop inside a parallel: the loop does not grow over a sibling block in the parallel', () => {
    const s = state([
      block('par', 'parallel', 0, 0, { width: 1200, height: 500 }),
      block('loop', 'loop', 50, 50, { parentId: 'par', width: 500, height: 300 }),
      block('a', 'agent', 110, 60, { parentId: 'loop' }),
      block('c', 'agent', 650, 100, { parentId: 'par' }),
    ]);
    const at = clickPlacement(s, ['a'], { x: 0, y: 0 });
    expect(at.parentId).toBe('loop');
    const after = placed(s, at);
    expect(coversOthers(after, 'loop')).toBe(false);
    expect(coversOthers(after, 'par')).toBe(false);
    expect(at.at).toEqual({ x: 50 + 110, y: 50 + 60 + 130 });
  });

  it('a full loop selected: it grows down, not right over a top-level block; rightward only when below is taken', () => {
    const full = [block('loop', 'loop', 0, 0, { width: 500, height: 300 }), block('a', 'agent', 110, 60, { parentId: 'loop' }), block('b', 'agent', 110, 190, { parentId: 'loop' })];
    const s = state([...full, block('t', 'agent', 600, 0)]);
    const at = clickPlacement(s, ['loop'], { x: 0, y: 0 });
    expect(at).toEqual({ at: { x: 110, y: 320 }, parentId: 'loop' });
    expect(growCommands(s, 'loop', { ...at.at, ...FOOTPRINT })).toEqual([{ type: 'growBlock', id: 'loop', minWidth: 500, minHeight: 430 }]);
    expect(coversOthers(placed(s, at), 'loop')).toBe(false);
    // A top-level block under the loop instead: it grows right, not down over that block.
    const below = state([...full, block('u', 'agent', 0, 320)]);
    const right = clickPlacement(below, ['loop'], { x: 0, y: 0 });
    expect(right).toEqual({ at: { x: 370, y: 60 }, parentId: 'loop' });
    expect(growCommands(below, 'loop', { ...right.at, ...FOOTPRINT })).toEqual([{ type: 'growBlock', id: 'loop', minWidth: 630, minHeight: 300 }]);
    expect(coversOthers(placed(below, right), 'loop')).toBe(false);
  });

  it('with no spot that leaves the other blocks uncovered, the block goes to the top level as nextSpot places it', () => {
    const walled = state([
      block('loop', 'loop', 0, 0, { width: 500, height: 300 }),
      block('a', 'agent', 110, 60, { parentId: 'loop' }),
      block('b', 'agent', 110, 190, { parentId: 'loop' }),
      block('wall', 'parallel', 510, -20000, { width: 40000, height: 40000 }),
      block('floor', 'parallel', -20000, 310, { width: 40000, height: 40000 }),
    ]);
    expect(clickPlacement(walled, ['loop'], { x: 0, y: 0 })).toEqual({ at: nextSpot(walled, ['loop'], { x: 0, y: 0 }) });
    expect(clickPlacement(walled, ['a'], { x: 0, y: 0 })).toEqual({ at: nextSpot(walled, ['a'], { x: 0, y: 0 }) });
  });
});

describe('dropping a block from the palette', () => {
  const loop = block('loop', 'loop', 1000, 100, { width: 500, height: 300 });

  it('near a container\'s left or top edge: inside it, never left of or above its inset corner', () => {
    const s = state([loop]);
    expect(dropPlacement(s, { x: 1050, y: 110 })).toEqual({ at: { x: 1000 + CONTAINER_INSET.x, y: 100 + CONTAINER_INSET.y }, parentId: 'loop' });
    expect(dropPlacement(s, { x: 1300, y: 105 })).toEqual({ at: { x: 1300 - 130, y: 100 + CONTAINER_INSET.y }, parentId: 'loop' });
    expect(dropPlacement(s, { x: 1010, y: 300 })).toEqual({ at: { x: 1000 + CONTAINER_INSET.x, y: 270 }, parentId: 'loop' });
  });

  it('away from containers: its top near the pointer, off any block', () => {
    const s = state([loop]);
    expect(dropPlacement(s, { x: 200, y: 200 })).toEqual({ at: { x: 70, y: 170 } });
    expect(dropPlacement(s, { x: 200, y: 200 })).toEqual({ at: freeSpot({ x: 200, y: 170 + FOOTPRINT.height / 2 }, s) });
  });

  it('a block that may not nest (a trigger, the starter) dropped on a container stays at the top level, off the container', () => {
    const s = state([loop]);
    const at = dropPlacement(s, { x: 1300, y: 250 }, FOOTPRINT, mayNest('webhook', 'triggers'));
    expect(at.parentId).toBeUndefined();
    expect(at).toEqual({ at: freeSpot({ x: 1300, y: 220 + FOOTPRINT.height / 2 }, s) });
    const box = blockRect(s, loop);
    const rect = { ...at.at, ...FOOTPRINT };
    expect(rect.x >= box.x + box.width || rect.x + rect.width <= box.x || rect.y >= box.y + box.height || rect.y + rect.height <= box.y).toBe(true);
    expect(dropPlacement(s, { x: 1300, y: 250 }, FOOTPRINT, mayNest('starter', 'blocks')).parentId).toBeUndefined();
    expect(dropPlacement(s, { x: 1300, y: 250 }, FOOTPRINT, mayNest('agent', 'blocks')).parentId).toBe('loop');
  });

  it('into a container next to a top-level block: the container does not grow over it', () => {
    const s = state([loop, block('t', 'agent', 1600, 100)]);
    const at = dropPlacement(s, { x: 1450, y: 150 });
    expect(at.parentId).toBe('loop');
    expect(coversOthers(placed(s, at), 'loop')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { absolutePosition, blockRect, containerAt, freeSpot, NEXT_GAP, nextSpot, resizeCommands } from './place';

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

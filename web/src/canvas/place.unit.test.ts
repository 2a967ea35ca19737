import { describe, expect, it } from 'vitest';
import type { BlockState, WorkflowState } from '@weft/workflow';
import { absolutePosition, blockRect, containerAt, freeSpot } from './place';

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

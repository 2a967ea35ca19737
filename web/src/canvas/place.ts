import type { BlockState, Command, Position, WorkflowState } from '@weft/workflow';
import { CONTAINER_SIZE } from './flow';

/** Room a plain block takes on the canvas (its drawn size plus a margin). */
export const FOOTPRINT = { width: 260, height: 110 };

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A block's position on the canvas, adding up its containers' positions. */
export function absolutePosition(state: WorkflowState, id: string): Position {
  let x = 0;
  let y = 0;
  let block: BlockState | undefined = state.blocks[id];
  for (let guard = 0; block && guard < 100; guard++) {
    x += block.position.x;
    y += block.position.y;
    block = block.data.parentId !== undefined ? state.blocks[block.data.parentId] : undefined;
  }
  return { x, y };
}

const isContainer = (b: BlockState) => b.type === 'loop' || b.type === 'parallel';

/** The rectangle a block covers on the canvas. */
export function blockRect(state: WorkflowState, block: BlockState): Rect {
  const at = absolutePosition(state, block.id);
  if (isContainer(block)) return { ...at, width: block.data.width ?? CONTAINER_SIZE.width, height: block.data.height ?? CONTAINER_SIZE.height };
  return { ...at, width: block.isWide ? FOOTPRINT.width * 2 : FOOTPRINT.width, height: FOOTPRINT.height };
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Where a new block goes near `center` (its top-left there) covering no block: the spot itself, or
 * the nearest free one found on rings around it. With `inside` (the container it goes into), that
 * container and those around it do not count as covered.
 */
export function freeSpot(center: Position, state: WorkflowState, size: { width: number; height: number } = FOOTPRINT, inside?: string): Position {
  const around = new Set<string>();
  for (let at = inside === undefined ? undefined : state.blocks[inside]; at && !around.has(at.id); at = at.data.parentId === undefined ? undefined : state.blocks[at.data.parentId]) around.add(at.id);
  const rects = Object.values(state.blocks)
    .filter((b) => !around.has(b.id))
    .map((b) => blockRect(state, b));
  const free = (p: Position) => !rects.some((r) => overlaps(r, { ...p, ...size }));
  const start = { x: Math.round(center.x - size.width / 2), y: Math.round(center.y - size.height / 2) };
  if (free(start)) return start;
  for (let ring = 1; ring < 60; ring++) {
    // The ring's spots nearest first; at equal distance, right of the centre before left, below before above.
    const spots: Array<{ p: Position; d: number; dx: number; dy: number }> = [];
    for (let dy = -ring; dy <= ring; dy++) {
      for (let dx = -ring; dx <= ring; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        const p = { x: start.x + dx * (size.width / 2), y: start.y + dy * (size.height / 2 + 10) };
        spots.push({ p, d: Math.hypot(p.x - start.x, p.y - start.y), dx, dy });
      }
    }
    spots.sort((a, b) => a.d - b.d || b.dx - a.dx || b.dy - a.dy);
    const found = spots.find((s) => free(s.p));
    if (found) return found.p;
  }
  return { x: start.x, y: start.y + rects.reduce((m, r) => Math.max(m, r.y + r.height), 0) };
}

/** Room left between a block and the one click-to-add puts to its right (space for the edge between them). */
export const NEXT_GAP = 100;

/**
 * Where click-to-add puts a new block: to the right of the selected block (the right-most of `selected`), or
 * of the right-most block when none is selected, on its row (tops level). When that spot would cover a block, the next one
 * further right, then below, then right and below (nearest ring first: right before below) — never on a
 * block, as `freeSpot` guarantees. With no block at all, `fallback` (the view's centre) as `freeSpot` places it.
 */
export function nextSpot(state: WorkflowState, selected: readonly string[], fallback: Position, size: { width: number; height: number } = FOOTPRINT): Position {
  const chosen = selected.map((id) => state.blocks[id]).filter((b): b is BlockState => b !== undefined);
  const anchor = rightMost(state, chosen.length > 0 ? chosen : Object.values(state.blocks));
  if (!anchor) return freeSpot(fallback, state, size);
  const from = blockRect(state, anchor);
  const start = { x: from.x + from.width + NEXT_GAP, y: from.y };
  const rects = Object.values(state.blocks).map((b) => blockRect(state, b));
  const free = (p: Position) => !rects.some((r) => overlaps(r, { ...p, ...size }));
  const step = { x: size.width / 2, y: size.height / 2 + 10 };
  for (let ring = 0; ring < 60; ring++) {
    // On ring n (n steps right or n steps down at most, one of them exactly n): the row first, then down.
    for (let dy = 0; dy <= ring; dy++) {
      for (let dx = dy === ring ? 0 : ring; dx <= ring; dx++) {
        const p = { x: start.x + dx * step.x, y: start.y + dy * step.y };
        if (free(p)) return p;
      }
    }
  }
  return { x: start.x, y: rects.reduce((m, r) => Math.max(m, r.y + r.height), start.y) };
}

/** The one of `blocks` reaching furthest right on the canvas (the top one of a tie). */
function rightMost(state: WorkflowState, blocks: readonly BlockState[]): BlockState | undefined {
  let best: { block: BlockState; right: number; top: number } | undefined;
  for (const b of blocks) {
    const r = blockRect(state, b);
    const right = r.x + r.width;
    if (!best || right > best.right || (right === best.right && r.y < best.top)) best = { block: b, right, top: r.y };
  }
  return best?.block;
}

/** The innermost container under a point, other than `exclude` and the blocks inside it. */
export function containerAt(state: WorkflowState, point: Position, exclude?: string): BlockState | undefined {
  let best: { block: BlockState; area: number } | undefined;
  for (const b of containersOf(state.blocks)) {
    if (exclude !== undefined && within(state.blocks, b, exclude)) continue;
    const r = blockRect(state, b);
    if (point.x >= r.x && point.x <= r.x + r.width && point.y >= r.y && point.y <= r.y + r.height) {
      const area = r.width * r.height;
      if (!best || area < best.area) best = { block: b, area };
    }
  }
  return best?.block;
}

/** The containers among the blocks, found once per blocks object (a drag asks on every mouse move). */
const containerLists = new WeakMap<Record<string, BlockState>, BlockState[]>();
function containersOf(blocks: Record<string, BlockState>): BlockState[] {
  let list = containerLists.get(blocks);
  if (!list) {
    list = Object.values(blocks).filter(isContainer);
    containerLists.set(blocks, list);
  }
  return list;
}

/** Whether `block` is `id` or inside it (at any depth). */
function within(blocks: Record<string, BlockState>, block: BlockState, id: string): boolean {
  let at: BlockState | undefined = block;
  for (let depth = 0; at !== undefined && depth < 100; depth++) {
    if (at.id === id) return true;
    at = at.data.parentId === undefined ? undefined : blocks[at.data.parentId];
  }
  return false;
}

/**
 * The commands that resize a container to `width` x `height` with its top-left at `position`
 * (relative to its parent). When a top or left edge moved, its children's positions (relative to the
 * container) shift back by as much, so they stay where they are on the canvas.
 */
export function resizeCommands(state: WorkflowState, id: string, width: number, height: number, position: Position): Command[] {
  const block = state.blocks[id];
  if (!block) return [];
  const dx = position.x - block.position.x;
  const dy = position.y - block.position.y;
  const commands: Command[] = [{ type: 'resizeBlock', id, width, height }];
  if (dx === 0 && dy === 0) return commands;
  commands.push({ type: 'moveBlock', id, position });
  for (const child of Object.values(state.blocks)) {
    if (child.data.parentId === id) commands.push({ type: 'moveBlock', id: child.id, position: { x: child.position.x - dx, y: child.position.y - dy } });
  }
  return commands;
}

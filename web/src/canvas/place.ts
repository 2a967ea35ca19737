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

type Size = { width: number; height: number };
/** Rings searched around a spot before giving up and going below every block. */
const RINGS = 60;

/** The rectangles a new block must not cover: every block's, but for `inside` (the container it goes into) and the containers around that one. */
function obstacles(state: WorkflowState, inside?: string): Rect[] {
  const around = new Set<string>();
  for (let at = inside === undefined ? undefined : state.blocks[inside]; at && !around.has(at.id); at = at.data.parentId === undefined ? undefined : state.blocks[at.data.parentId]) around.add(at.id);
  return Object.values(state.blocks)
    .filter((b) => !around.has(b.id))
    .map((b) => blockRect(state, b));
}

/** Offsets (in steps) of one ring around a spot, in the order they are tried. */
type RingOrder = (ring: number, step: Position) => Array<[number, number]>;

/**
 * The spots `freeSpot` and `nextSpot` try: ring by ring around `start`, a step being half a block
 * across and a little over half a block down, each ring's offsets in `order`.
 */
function* ringSpots(start: Position, size: Size, order: RingOrder): Generator<Position> {
  const step = { x: size.width / 2, y: size.height / 2 + 10 };
  for (let ring = 0; ring < RINGS; ring++) for (const [dx, dy] of order(ring, step)) yield { x: start.x + dx * step.x, y: start.y + dy * step.y };
}

/** The first of `spots` where a block of `size` covers none of `rects`; when none is free, below them all at `start`'s left. */
function firstFree(spots: Iterable<Position>, rects: readonly Rect[], size: Size, start: Position): Position {
  for (const p of spots) if (!rects.some((r) => overlaps(r, { ...p, ...size }))) return p;
  return { x: start.x, y: rects.reduce((m, r) => Math.max(m, r.y + r.height), start.y) };
}

/** All around: the ring's spots nearest first; at equal distance, right of the centre before left, below before above. */
const AROUND: RingOrder = (ring, step) => {
  const spots: Array<{ dx: number; dy: number; d: number }> = [];
  for (let dy = -ring; dy <= ring; dy++) {
    for (let dx = -ring; dx <= ring; dx++) if (Math.max(Math.abs(dx), Math.abs(dy)) === ring) spots.push({ dx, dy, d: Math.hypot(dx * step.x, dy * step.y) });
  }
  spots.sort((a, b) => a.d - b.d || b.dx - a.dx || b.dy - a.dy);
  return spots.map((s) => [s.dx, s.dy]);
};

/** Right and down only: on ring n (n steps right or n steps down at most, one of them exactly n), the row first, then down. */
const RIGHT_THEN_DOWN: RingOrder = (ring) => {
  const spots: Array<[number, number]> = [];
  for (let dy = 0; dy <= ring; dy++) for (let dx = dy === ring ? 0 : ring; dx <= ring; dx++) spots.push([dx, dy]);
  return spots;
};

/**
 * Where a new block goes near `center` (its top-left there) covering no block: the spot itself, or
 * the nearest free one found on rings around it. With `inside` (the container it goes into), that
 * container and those around it do not count as covered.
 */
export function freeSpot(center: Position, state: WorkflowState, size: Size = FOOTPRINT, inside?: string): Position {
  const start = { x: Math.round(center.x - size.width / 2), y: Math.round(center.y - size.height / 2) };
  return firstFree(ringSpots(start, size, AROUND), obstacles(state, inside), size, start);
}

/** Room left between a block and the one click-to-add puts to its right (space for the edge between them). */
export const NEXT_GAP = 100;

/**
 * Where click-to-add puts a new block: to the right of the selected block (the right-most of `selected`), or
 * of the right-most block when none is selected, on its row (tops level). When that spot would cover a block, the next one
 * further right, then below, then right and below (nearest ring first: right before below) — never on a
 * block, as `freeSpot` guarantees. With no block at all, `fallback` (the view's centre) as `freeSpot` places it.
 */
export function nextSpot(state: WorkflowState, selected: readonly string[], fallback: Position, size: Size = FOOTPRINT): Position {
  const anchor = anchorOf(state, selected);
  return anchor ? rightOf(state, anchor, size) : freeSpot(fallback, state, size);
}

/** The block click-to-add goes beside: the right-most selected one, else the right-most of all. */
function anchorOf(state: WorkflowState, selected: readonly string[]): BlockState | undefined {
  const chosen = selected.map((id) => state.blocks[id]).filter((b): b is BlockState => b !== undefined);
  return rightMost(state, chosen.length > 0 ? chosen : Object.values(state.blocks));
}

/** The first free spot right of `anchor` on its row, then further right, then below (`RIGHT_THEN_DOWN`). */
function rightOf(state: WorkflowState, anchor: BlockState, size: Size, inside?: string): Position {
  const from = blockRect(state, anchor);
  const start = { x: from.x + from.width + NEXT_GAP, y: from.y };
  return firstFree(ringSpots(start, size, RIGHT_THEN_DOWN), obstacles(state, inside), size, start);
}

/** Where the first block inside a container goes, from its top-left corner: below its title, right of its Start pill. */
export const CONTAINER_INSET = { x: 110, y: 60 };

/**
 * The first free spot inside a container, row by row from its inset corner while a block (its
 * footprint, margin included) fits within its edges; when none does, right of that corner then down
 * (`RIGHT_THEN_DOWN`), the container to grow.
 */
function insideSpot(state: WorkflowState, container: BlockState, size: Size): Position {
  const box = blockRect(state, container);
  const start = { x: box.x + CONTAINER_INSET.x, y: box.y + CONTAINER_INSET.y };
  const step = { x: size.width / 2, y: size.height / 2 + 10 };
  function* spots(): Generator<Position> {
    for (let y = start.y; y + size.height <= box.y + box.height; y += step.y) {
      for (let x = start.x; x + size.width <= box.x + box.width; x += step.x) yield { x, y };
    }
    yield* ringSpots(start, size, RIGHT_THEN_DOWN);
  }
  return firstFree(spots(), obstacles(state, container.id), size, start);
}

/** Whether a block of this type may go inside a loop or parallel: not the starter, nor a trigger (a run starts there, never inside a container). */
export function mayNest(blockType: string, category: string | undefined): boolean {
  return blockType !== 'starter' && category !== 'triggers';
}

/** Where click-to-add puts a block (its top-left on the canvas) and the container it goes into, if any. */
export interface Placement {
  at: Position;
  parentId?: string;
}

/**
 * Click-to-add's placement. With a block inside a loop or parallel selected, the new block goes into
 * that container right of it (as `nextSpot`, the container not counting as covered); with a container
 * selected, into it at its first free spot. Otherwise, and for a block that may not nest
 * (`mayNest` false), `nextSpot`'s spot at the top level. `growCommands` then fits the container to it.
 */
export function clickPlacement(state: WorkflowState, selected: readonly string[], fallback: Position, size: Size = FOOTPRINT, nests = true): Placement {
  const anchor = nests ? anchorOf(state, selected) : undefined;
  // Only a selected block leads inside (with nothing selected, the right-most block may be in a container).
  if (anchor && selected.includes(anchor.id)) {
    if (isContainer(anchor)) return { at: insideSpot(state, anchor, size), parentId: anchor.id };
    const parent = anchor.data.parentId === undefined ? undefined : state.blocks[anchor.data.parentId];
    if (parent && isContainer(parent)) return { at: rightOf(state, anchor, size, parent.id), parentId: parent.id };
  }
  return { at: nextSpot(state, selected, fallback, size) };
}

/**
 * The commands that grow container `parentId`, and the containers around it, so that `rect` (a
 * block's footprint on the canvas, its margin included) lies within it.
 * Containers only grow, to the right and down: their corner and their children stay where they are.
 */
export function growCommands(state: WorkflowState, parentId: string | undefined, rect: Rect): Command[] {
  const commands: Command[] = [];
  let need = rect;
  const seen = new Set<string>();
  for (let id = parentId; id !== undefined && !seen.has(id); ) {
    seen.add(id);
    const container = state.blocks[id];
    if (!container || !isContainer(container)) break;
    const box = blockRect(state, container);
    const width = Math.max(box.width, Math.ceil(need.x + need.width - box.x));
    const height = Math.max(box.height, Math.ceil(need.y + need.height - box.y));
    if (width !== box.width || height !== box.height) commands.push(...resizeCommands(state, id, width, height, container.position));
    need = { ...box, width, height };
    id = container.data.parentId;
  }
  return commands;
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

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
function rightOf(state: WorkflowState, anchor: BlockState, size: Size): Position {
  const start = besideOf(state, anchor);
  return firstFree(ringSpots(start, size, RIGHT_THEN_DOWN), obstacles(state), size, start);
}

/** The spot right of a block on its row, `NEXT_GAP` from it. */
function besideOf(state: WorkflowState, anchor: BlockState): Position {
  const from = blockRect(state, anchor);
  return { x: from.x + from.width + NEXT_GAP, y: from.y };
}

/** Where the first block inside a container goes, from its top-left corner: below its title, right of its Start pill. */
export const CONTAINER_INSET = { x: 110, y: 60 };

/**
 * Spots inside a container (its box `box`), from its inset corner: its own area row by row (while a
 * block, its footprint's margin included, fits within its right edge), the rows going on below its
 * bottom edge (it grows down); then ring by ring right and down (`RIGHT_THEN_DOWN`: it grows right).
 */
function* containerSpots(box: Rect, size: Size): Generator<Position> {
  const start = { x: box.x + CONTAINER_INSET.x, y: box.y + CONTAINER_INSET.y };
  const step = { x: size.width / 2, y: size.height / 2 + 10 };
  for (let row = 0; row < RINGS; row++) {
    const y = start.y + row * step.y;
    for (let x = start.x; x === start.x || x + size.width <= box.x + box.width; x += step.x) yield { x, y };
  }
  yield* ringSpots(start, size, RIGHT_THEN_DOWN);
}

/** Spots for a block going beside `anchor` in its container: right of it, on along its row within the container's edges, then `containerSpots`. */
function* besideSpots(state: WorkflowState, anchor: BlockState, box: Rect, size: Size): Generator<Position> {
  const start = besideOf(state, anchor);
  yield start;
  for (let x = start.x + size.width / 2; x + size.width <= box.x + box.width; x += size.width / 2) yield { x, y: start.y };
  yield* containerSpots(box, size);
}

/** A container on the way out from where a new block goes: its box now, and grown right and down (never shrunk) to hold the block. */
interface Growth {
  block: BlockState;
  box: Rect;
  grown: Rect;
}

/** Container `parentId` and the containers around it, each grown so that `rect` (and the one inside it, grown) lies within it. */
function growths(state: WorkflowState, parentId: string | undefined, rect: Rect): Growth[] {
  const out: Growth[] = [];
  let need = rect;
  const seen = new Set<string>();
  for (let id = parentId; id !== undefined && !seen.has(id); ) {
    seen.add(id);
    const container = state.blocks[id];
    if (!container || !isContainer(container)) break;
    const box = blockRect(state, container);
    const grown = { ...box, width: Math.max(box.width, Math.ceil(need.x + need.width - box.x)), height: Math.max(box.height, Math.ceil(need.y + need.height - box.y)) };
    out.push({ block: container, box, grown });
    need = grown;
    id = container.data.parentId;
  }
  return out;
}

/** What a container's growing adds to its box: the strip right of it and the strip below it. */
function addedStrips({ box, grown }: Growth): Rect[] {
  const right = box.x + box.width;
  const bottom = box.y + box.height;
  const strips = [
    { x: right, y: grown.y, width: grown.x + grown.width - right, height: grown.height },
    { x: grown.x, y: bottom, width: grown.width, height: grown.y + grown.height - bottom },
  ];
  return strips.filter((r) => r.width > 0 && r.height > 0);
}

/** For container `parentId` and each container around it: the rectangles of the blocks its growing must not cover (all but those inside it and around it). */
function foreignRects(state: WorkflowState, parentId: string): Map<string, Rect[]> {
  const foreign = new Map<string, Rect[]>();
  const all = Object.values(state.blocks).map((b) => ({ b, rect: blockRect(state, b) }));
  for (const { block } of growths(state, parentId, { x: 0, y: 0, width: 0, height: 0 })) {
    foreign.set(
      block.id,
      all.filter(({ b }) => !within(state.blocks, b, block.id) && !within(state.blocks, block, b.id)).map(({ rect }) => rect),
    );
  }
  return foreign;
}

/**
 * The first of `spots` where a block of `size` going into container `parentId` covers no block, and
 * where growing that container and those around it to hold it (`growCommands`) covers none either:
 * a container only grows over its own blocks. None such: undefined.
 */
function firstFit(state: WorkflowState, parentId: string, spots: Iterable<Position>, size: Size): Position | undefined {
  const rects = obstacles(state, parentId);
  const foreign = foreignRects(state, parentId);
  for (const p of spots) {
    const rect = { ...p, ...size };
    if (rects.some((r) => overlaps(r, rect))) continue;
    const covers = growths(state, parentId, rect).some((g) => addedStrips(g).some((strip) => (foreign.get(g.block.id) ?? []).some((r) => overlaps(strip, r))));
    if (!covers) return p;
  }
  return undefined;
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
 * that container: right of it on its row, then on along that row within the container's edges; with a
 * container selected, into it. Then (both) the container's own area row by row from its inset corner,
 * then rows below it (it grows down), then right and down (it grows right) — never on a block, and never
 * where the container, or one around it, would grow over a block that is not its own (`firstFit`); when
 * no such spot is found, or for a block that may not nest (`mayNest` false), `nextSpot`'s spot at the
 * top level. `growCommands` then fits the container to it.
 */
export function clickPlacement(state: WorkflowState, selected: readonly string[], fallback: Position, size: Size = FOOTPRINT, nests = true): Placement {
  const anchor = nests ? anchorOf(state, selected) : undefined;
  // Only a selected block leads inside (with nothing selected, the right-most block may be in a container).
  if (anchor && selected.includes(anchor.id)) {
    const parent = anchor.data.parentId === undefined ? undefined : state.blocks[anchor.data.parentId];
    const into = isContainer(anchor) ? anchor : parent && isContainer(parent) ? parent : undefined;
    if (into) {
      const box = blockRect(state, into);
      const at = firstFit(state, into.id, into === anchor ? containerSpots(box, size) : besideSpots(state, anchor, box, size), size);
      if (at) return { at, parentId: into.id };
    }
  }
  return { at: nextSpot(state, selected, fallback, size) };
}

/**
 * A palette drop's placement: the block's top near the pointer (`point`), off any block it would
 * cover (`freeSpot`). Dropped on a container, it goes into the innermost one under the pointer, its
 * spot never left of or above the container's inset corner (below its title, right of its Start pill),
 * and never where the container would grow over a block that is not its own (`firstFit`: the nearest
 * such spot, else the container's own area as click-to-add fills it); none, or for a block that may
 * not nest (`nests`: `mayNest` false, a trigger or the starter), at the top level, off the container.
 */
export function dropPlacement(state: WorkflowState, point: Position, size: Size = FOOTPRINT, nests = true): Placement {
  const center = { x: point.x, y: point.y - 30 + size.height / 2 };
  const into = nests ? containerAt(state, point) : undefined;
  if (into) {
    const box = blockRect(state, into);
    const min = { x: box.x + CONTAINER_INSET.x, y: box.y + CONTAINER_INSET.y };
    const start = { x: Math.max(min.x, Math.round(center.x - size.width / 2)), y: Math.max(min.y, Math.round(center.y - size.height / 2)) };
    function* spots(): Generator<Position> {
      for (const p of ringSpots(start, size, AROUND)) if (p.x >= min.x && p.y >= min.y) yield p;
      yield* containerSpots(box, size);
    }
    const at = firstFit(state, into.id, spots(), size);
    if (at) return { at, parentId: into.id };
  }
  return { at: freeSpot(center, state, size) };
}

/**
 * The commands that grow container `parentId`, and the containers around it, so that `rect` (a
 * block's footprint on the canvas, its margin included) lies within it: a `growBlock` each ("at
 * least" this size, decided against the server's state, so a concurrent grow by another user is
 * kept, never shrunk back). Containers only grow, to the right and down: their corner and their
 * children stay where they are.
 */
export function growCommands(state: WorkflowState, parentId: string | undefined, rect: Rect): Command[] {
  return growths(state, parentId, rect)
    .filter(({ box, grown }) => grown.width !== box.width || grown.height !== box.height)
    .map(({ block, grown }) => ({ type: 'growBlock', id: block.id, minWidth: grown.width, minHeight: grown.height }));
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

import type { BlockState, Command, Edge, Position, WorkflowState } from '@weft/workflow';
import { absolutePosition, blockRect, freeSpot } from './place';

/** What copy keeps: the chosen blocks with everything inside them, and the edges among them. */
export interface Clip {
  blocks: BlockState[];
  edges: Edge[];
}

const STORAGE_KEY = 'weft.clipboard';

/** The selected blocks with their descendants, and the edges between the blocks copied. */
export function copyBlocks(state: WorkflowState, ids: readonly string[]): Clip | null {
  const chosen = new Set(ids.filter((id) => state.blocks[id]));
  let grew = true;
  while (grew) {
    grew = false;
    for (const b of Object.values(state.blocks)) {
      if (!chosen.has(b.id) && b.data.parentId !== undefined && chosen.has(b.data.parentId)) {
        chosen.add(b.id);
        grew = true;
      }
    }
  }
  if (chosen.size === 0) return null;
  // A block copied out of a container that is not copied keeps where it is on the canvas, not inside the container.
  const blocks = Object.values(state.blocks)
    .filter((b) => chosen.has(b.id))
    .map((b) => (b.data.parentId !== undefined && !chosen.has(b.data.parentId) ? { ...b, position: absolutePosition(state, b.id) } : b));
  return { blocks: structuredClone(blocks), edges: structuredClone(state.edges.filter((e) => chosen.has(e.source) && chosen.has(e.target))) };
}

/**
 * `clip` without its starter blocks (and their edges) when `state` has a starter already: a workflow
 * has one starter (the palette offers none), so pasting or duplicating one would make a second.
 * Answers how many were left out.
 */
export function withoutSecondStarter(clip: Clip, state: WorkflowState): { clip: Clip; skipped: number } {
  if (!Object.values(state.blocks).some((b) => b.type === 'starter')) return { clip, skipped: 0 };
  const starters = new Set(clip.blocks.filter((b) => b.type === 'starter').map((b) => b.id));
  if (starters.size === 0) return { clip, skipped: 0 };
  return {
    clip: { blocks: clip.blocks.filter((b) => !starters.has(b.id)), edges: clip.edges.filter((e) => !starters.has(e.source) && !starters.has(e.target)) },
    skipped: starters.size,
  };
}

/**
 * `clip` with each trigger block (the starter, a schedule, a webhook: `isTrigger`) that sits inside a
 * copied loop or parallel moved to the top level, at the same place on the canvas. Such a nesting was
 * possible before the server refused it; pasted as it is, the server would refuse the whole paste.
 * Answers the ids of those moved.
 */
export function withTriggersAtTopLevel(clip: Clip, isTrigger: (blockType: string) => boolean): { clip: Clip; lifted: string[] } {
  const byId = new Map(clip.blocks.map((b) => [b.id, b]));
  const nested = (b: BlockState) => b.data.parentId !== undefined && byId.has(b.data.parentId) && isTrigger(b.type);
  if (!clip.blocks.some(nested)) return { clip, lifted: [] };
  const lifted: string[] = [];
  const blocks = clip.blocks.map((b) => {
    if (!nested(b)) return b;
    lifted.push(b.id);
    // Its place on the canvas: its position plus those of the copied containers around it (the outermost one's is absolute).
    let { x, y } = b.position;
    let parent = byId.get(b.data.parentId as string);
    for (let guard = 0; parent && guard < 100; guard++) {
      x += parent.position.x;
      y += parent.position.y;
      parent = parent.data.parentId !== undefined ? byId.get(parent.data.parentId) : undefined;
    }
    const { parentId: _parent, extent: _extent, ...data } = b.data;
    return { ...b, position: { x, y }, data };
  });
  return { clip: { blocks, edges: clip.edges }, lifted };
}

/** The blocks of a clip that are not inside another block of it: those a paste places. */
const topLevel = (clip: Clip) => {
  const ids = new Set(clip.blocks.map((b) => b.id));
  return clip.blocks.filter((b) => b.data.parentId === undefined || !ids.has(b.data.parentId));
};

/**
 * How far to move a clip's top-level blocks (`pasteCommands`' offset) so that, kept as they were laid
 * out among themselves, they cover no block of `state`: where they were copied from when that is free
 * (another workflow's empty spot), else the nearest free spot around it (`freeSpot`, for the rectangle
 * around them all) — beside the original, and a second paste beside the first rather than on it.
 */
export function pasteOffset(clip: Clip, state: WorkflowState): Position {
  const rects = topLevel(clip).map((b) => {
    const { parentId: _parent, ...data } = b.data;
    // The block alone, at the top level: its rectangle as it will be pasted.
    return blockRect({ ...state, blocks: { [b.id]: { ...b, data } } }, b);
  });
  if (rects.length === 0) return { x: 0, y: 0 };
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const size = { width: Math.max(...rects.map((r) => r.x + r.width)) - left, height: Math.max(...rects.map((r) => r.y + r.height)) - top };
  const at = freeSpot({ x: left + size.width / 2, y: top + size.height / 2 }, state, size);
  return { x: at.x - left, y: at.y - top };
}

function depth(block: BlockState, byId: Map<string, BlockState>): number {
  let d = 0;
  for (let p = block.data.parentId; p !== undefined && d < 100; p = byId.get(p)?.data.parentId) d++;
  return d;
}

/**
 * Commands that add a copy of `clip` (new ids, top-level blocks shifted by `offset`, children kept
 * where they are in their copied container), each with its values and settings, and the inner edges.
 */
export function pasteCommands(clip: Clip, newId: () => string, offset: { x: number; y: number }): { commands: Command[]; ids: string[] } {
  const byId = new Map(clip.blocks.map((b) => [b.id, b]));
  const ids = new Map(clip.blocks.map((b) => [b.id, newId()]));
  const commands: Command[] = [];
  const ordered = [...clip.blocks].sort((a, b) => depth(a, byId) - depth(b, byId));
  for (const block of ordered) {
    const id = ids.get(block.id) as string;
    const parent = block.data.parentId !== undefined ? ids.get(block.data.parentId) : undefined;
    const { parentId: _parent, extent: _extent, ...data } = block.data;
    const position = parent ? block.position : { x: block.position.x + offset.x, y: block.position.y + offset.y };
    const values = Object.fromEntries(Object.values(block.subBlocks).flatMap((sub) => (sub.value !== null && sub.value !== undefined ? [[sub.id, structuredClone(sub.value)]] : [])));
    // One addBlock carries the values and settings, so the block is one undoable edit (was one per value).
    const { enabled, isWide, horizontalHandles, advancedMode } = block;
    commands.push({ type: 'addBlock', id, blockType: block.type, position, ...(parent ? { parentId: parent } : {}), data, values, enabled, isWide, horizontalHandles, advancedMode });
  }
  for (const edge of clip.edges) {
    const source = ids.get(edge.source);
    const target = ids.get(edge.target);
    if (!source || !target) continue;
    const handle = edge.sourceHandle?.startsWith('router-') ? `router-${ids.get(edge.sourceHandle.slice('router-'.length)) ?? ''}` : edge.sourceHandle;
    commands.push({ type: 'addEdge', id: newId(), source, target, ...(handle ? { sourceHandle: handle } : {}), ...(edge.targetHandle ? { targetHandle: edge.targetHandle } : {}) });
  }
  return { commands, ids: [...ids.values()] };
}

/** Keeps a clip where every tab and workflow of this browser finds it (paste between workflows). */
export function storeClip(clip: Clip): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(clip));
  } catch {
    // Storage full or off: copying still works within this page through the caller's own copy.
  }
}

export function loadClip(): Clip | null {
  try {
    const text = window.localStorage.getItem(STORAGE_KEY);
    const clip: unknown = text ? JSON.parse(text) : null;
    if (typeof clip === 'object' && clip !== null && Array.isArray((clip as Clip).blocks) && Array.isArray((clip as Clip).edges)) return clip as Clip;
  } catch {
    // Unreadable clip: nothing to paste.
  }
  return null;
}

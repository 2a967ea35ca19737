import { setOwn } from './ownKeys.js';
import type { BlockState, Loop, LoopType, Parallel, ParallelType } from './state.js';

/** Loop and parallel counts are clamped to this range (§5, §9). */
const MIN_COUNT = 1;
const MAX_COUNT = 50;
const DEFAULT_COUNT = 5;
const DEFAULT_LOOP_TYPE: LoopType = 'for';
const DEFAULT_PARALLEL_TYPE: ParallelType = 'collection';
/** A loop's or parallel's size while its data holds none: what the canvas draws, the layout spaces and growBlock grows from. */
const CONTAINER_SIZE: Readonly<{ width: number; height: number }> = { width: 500, height: 300 };

/** Clamp a loop or parallel count to 1..50. */
function clampCount(count: number): number {
  return Math.max(MIN_COUNT, Math.min(MAX_COUNT, Math.trunc(count)));
}

/** Anything but 'count' is treated as 'collection' (§3 Parallel). */
function normalizeParallelType(value: unknown): ParallelType {
  return value === 'count' ? 'count' : DEFAULT_PARALLEL_TYPE;
}

/** A collection given as text is parsed as JSON when it starts with [ or { (§3 Loop). */
function parseCollection(collection: unknown): unknown {
  if (typeof collection !== 'string') return collection ?? '';
  const text = collection.trim();
  if (!text.startsWith('[') && !text.startsWith('{')) return collection;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return collection;
  }
}

function childIds(blocks: Record<string, BlockState>, parentId: string): string[] {
  return Object.values(blocks)
    .filter((block) => block.data.parentId === parentId)
    .map((block) => block.id);
}

/** Derive the loops and parallels from the container blocks (§3 Loop, Parallel). */
function deriveSubflows(blocks: Record<string, BlockState>): {
  loops: Record<string, Loop>;
  parallels: Record<string, Parallel>;
} {
  const loops: Record<string, Loop> = {};
  const parallels: Record<string, Parallel> = {};
  for (const block of Object.values(blocks)) {
    if (block.type === 'loop') {
      setOwn(loops, block.id, {
        id: block.id,
        nodes: childIds(blocks, block.id),
        iterations: block.data.count === undefined ? DEFAULT_COUNT : clampCount(block.data.count),
        loopType: block.data.loopType ?? DEFAULT_LOOP_TYPE,
        forEachItems: parseCollection(block.data.collection),
      });
    } else if (block.type === 'parallel') {
      setOwn(parallels, block.id, {
        id: block.id,
        nodes: childIds(blocks, block.id),
        distribution: block.data.collection ?? '',
        count: block.data.count === undefined ? DEFAULT_COUNT : clampCount(block.data.count),
        parallelType: normalizeParallelType(block.data.parallelType),
      });
    }
  }
  return { loops, parallels };
}

export { CONTAINER_SIZE, MIN_COUNT, MAX_COUNT, DEFAULT_COUNT, clampCount, normalizeParallelType, parseCollection, deriveSubflows };

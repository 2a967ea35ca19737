import type { ValueChange } from '../events.js';
import { ownValue, setOwn } from './ownKeys.js';
import type { BlockState, Edge, WorkflowGraph } from './state.js';
import { deriveSubflows } from './subflows.js';

/** A graph with the given blocks and edges and loops/parallels derived from them. */
function graphWith(blocks: Record<string, BlockState>, edges: Edge[]): WorkflowGraph {
  return { blocks, edges, ...deriveSubflows(blocks) };
}

/**
 * A copy of `blocks` with `id` set to `block`. Copied key by key: a workflow's blocks object is large
 * enough for V8 to keep it as a dictionary, which object spread copies about twice as slowly, and
 * every edit makes one.
 */
function withBlock(blocks: Record<string, BlockState>, id: string, block: BlockState): Record<string, BlockState> {
  const copy: Record<string, BlockState> = {};
  for (const key in blocks) setOwn(copy, key, blocks[key] as BlockState);
  setOwn(copy, id, block);
  return copy;
}

/**
 * Replace one block through `change`; an unknown id leaves the graph as it is. Loops and parallels
 * derive from blocks' type and data only, so a change that keeps both (a move, a value) keeps them.
 */
function updateBlock(graph: WorkflowGraph, id: string, change: (block: BlockState) => BlockState): WorkflowGraph {
  const block = ownValue(graph.blocks, id);
  if (block === undefined) return graph;
  const next = change(block);
  const blocks = withBlock(graph.blocks, id, next);
  if (next.type === block.type && next.data === block.data) return { ...graph, blocks };
  return graphWith(blocks, graph.edges);
}

/** Set one sub-block value, creating the sub-block when the block has none of that id. */
function setValue(block: BlockState, subBlockId: string, value: unknown, type = 'unknown'): BlockState {
  const existing = ownValue(block.subBlocks, subBlockId);
  const subBlock = existing === undefined ? { id: subBlockId, type, value } : { ...existing, value };
  return { ...block, subBlocks: { ...block.subBlocks, [subBlockId]: subBlock } };
}

/** Apply rewritten values to the blocks they name. */
function applyValueChanges(graph: WorkflowGraph, changes: ValueChange[]): WorkflowGraph {
  if (changes.length === 0) return graph;
  const blocks = { ...graph.blocks };
  for (const change of changes) {
    const block = ownValue(blocks, change.blockId);
    if (block !== undefined) setOwn(blocks, change.blockId, setValue(block, change.subBlockId, change.value));
  }
  return graphWith(blocks, graph.edges);
}

/** Ids of a block and all blocks nested in it, at any depth. */
function descendantsAndSelf(blocks: Record<string, BlockState>, id: string): string[] {
  const found = [id];
  for (let i = 0; i < found.length; i++) {
    for (const block of Object.values(blocks)) {
      if (block.data.parentId === found[i] && !found.includes(block.id)) found.push(block.id);
    }
  }
  return found;
}

/** Deep-copy a JSON-like value so copies never share nested objects. */
function deepCopy<T>(value: T): T {
  return structuredClone(value);
}

export { graphWith, withBlock, updateBlock, setValue, applyValueChanges, descendantsAndSelf, deepCopy };

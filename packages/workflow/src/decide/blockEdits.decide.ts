import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { descendantsAndSelf } from '../model/graph.js';
import { hasOwnKey, ownValue } from '../model/ownKeys.js';
import type { WorkflowGraph } from '../model/state.js';
import { CONTAINER_SIZE } from '../model/subflows.js';
import { CONTAINER_TYPES } from './addBlock.decide.js';
import { refuseBlockName } from './blockNames.js';
import { requireBlock } from './guards.js';
import { blockReferenceRewrites } from './references.js';
import { refuseNestedTrigger } from './topLevelTriggers.js';

/** The sub-block cleared when a block leaves or re-enters advanced mode (§4). */
const MEMORIES = 'memories';

function decideSetParent(graph: WorkflowGraph, command: CommandOf<'setParent'>, ctx: DecideContext): WorkflowEvent[] {
  const block = requireBlock(graph, command.id, 'Cannot set parent: Block not found');
  const current = block.data.parentId ?? null;
  if (current === command.parentId) return [];
  if (command.parentId !== null) {
    requireBlock(graph, command.parentId, 'Cannot set parent: Block not found');
    if (descendantsAndSelf(graph.blocks, block.id).includes(command.parentId)) {
      throw new WorkflowError('validation', 'Cannot set parent: a block cannot be nested inside itself');
    }
    refuseNestedTrigger(block.id, { type: block.type, name: block.name, parentId: command.parentId }, ctx);
  }
  const extent = command.parentId === null ? null : (command.extent ?? 'parent');
  return [{ type: 'blockParentSet', at: ctx.now, id: block.id, parentId: command.parentId, extent }];
}

/** The blocks and everything nested in them, each once, parents before children; one pass over the children index. */
function withDescendants(graph: WorkflowGraph, roots: readonly string[]): string[] {
  const children = new Map<string, string[]>();
  for (const block of Object.values(graph.blocks)) {
    const parent = block.data.parentId;
    if (parent === undefined) continue;
    const siblings = children.get(parent);
    if (siblings === undefined) children.set(parent, [block.id]);
    else siblings.push(block.id);
  }
  const found = new Set<string>();
  const queue = [...roots];
  for (let i = 0; i < queue.length; i++) {
    const blockId = queue[i] ?? '';
    if (found.has(blockId)) continue;
    found.add(blockId);
    queue.push(...(children.get(blockId) ?? []));
  }
  return [...found];
}

/**
 * One block (`id`) or several (`ids`) with their children and every edge touching them, as ONE
 * blockRemoved event (one history entry, one undo). A missing `id` is refused as not_found; of `ids`,
 * the ones already gone are skipped (a concurrent delete of some must not drop the rest), and it is
 * refused as not_found only when none remain. The event keeps its shape: `id` is the first
 * block named that still exists, `blockIds` lists every removed block once (a block named beside its container is
 * removed with it), `edgeIds` every removed edge once.
 */
function decideRemoveBlock(graph: WorkflowGraph, command: CommandOf<'removeBlock'>, ctx: DecideContext): WorkflowEvent[] {
  const given = command.ids ?? (command.id === undefined ? [] : [command.id]);
  if (given.length === 0) throw new WorkflowError('validation', 'Invalid command: id: a block id is required (id, or ids for several blocks)');
  if (command.ids === undefined) requireBlock(graph, given[0] ?? '');
  // With ids, blocks already gone (another editor removed them first) are skipped; only none left is refused.
  const named = given.filter((blockId) => hasOwnKey(graph.blocks, blockId));
  const first = named[0];
  if (first === undefined) {
    throw new WorkflowError('not_found', `Invalid command: ids: none of the blocks exist (${[...new Set(given)].join(', ')})`);
  }
  const blockIds = withDescendants(graph, named);
  const removed = new Set(blockIds);
  const edgeIds = graph.edges.filter((e) => removed.has(e.source) || removed.has(e.target)).map((e) => e.id);
  return [{ type: 'blockRemoved', at: ctx.now, id: first, blockIds, edgeIds }];
}

function decideSetAdvancedMode(
  graph: WorkflowGraph,
  command: CommandOf<'setAdvancedMode'>,
  ctx: DecideContext,
): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  const clearedMemories = block.advancedMode && hasOwnKey(block.subBlocks, MEMORIES);
  return [{ type: 'blockAdvancedModeSet', at: ctx.now, id: block.id, advancedMode: command.advancedMode, clearedMemories }];
}

function decideRenameBlock(graph: WorkflowGraph, command: CommandOf<'renameBlock'>, ctx: DecideContext): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  refuseBlockName(graph, command.name, block.id);
  const rewrites = blockReferenceRewrites(graph, block.id, block.name, command.name);
  return [{ type: 'blockRenamed', at: ctx.now, id: block.id, name: command.name, rewrites }];
}

/** Whether a stored value is a choice worth emptying (not unset, not already empty). */
function holdsValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function decideSetSubBlockValue(
  graph: WorkflowGraph,
  command: CommandOf<'setSubBlockValue'>,
  ctx: DecideContext,
): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  const current = ownValue(block.subBlocks, command.subBlockId);
  const known = current?.type;
  const defined = ctx.blockDefinition(block.type)?.subBlocks.find((sub) => sub.id === command.subBlockId)?.type;
  const subBlockType = known ?? defined ?? 'unknown';
  const base = { at: ctx.now, id: block.id, subBlockId: command.subBlockId, subBlockType, value: command.value };
  // Only the dependents holding a choice are emptied; an unchanged value empties nothing.
  const unchanged = JSON.stringify(current?.value ?? null) === JSON.stringify(command.value ?? null);
  const cleared = unchanged ? [] : [...new Set(command.clear ?? [])].filter((sub) => sub !== command.subBlockId && holdsValue(ownValue(block.subBlocks, sub)?.value));
  if (cleared.length === 0) return [{ type: 'subBlockValueSet', ...base }];
  return [{ type: 'subBlockValueSetAndCleared', ...base, cleared }];
}

type SimpleEdit = CommandOf<'moveBlock' | 'resizeBlock' | 'toggleEnabled' | 'toggleHandles' | 'setWide'>;

/** Edits that change one field of one block. */
function decideSimpleEdit(graph: WorkflowGraph, command: SimpleEdit, ctx: DecideContext): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  const at = ctx.now;
  switch (command.type) {
    case 'moveBlock':
      return [{ type: 'blockMoved', at, id: block.id, position: command.position }];
    case 'resizeBlock':
      return [{ type: 'blockResized', at, id: block.id, width: command.width, height: command.height }];
    case 'toggleEnabled':
      return [{ type: 'blockEnabledToggled', at, id: block.id, enabled: !block.enabled }];
    case 'toggleHandles':
      return [{ type: 'blockHandlesToggled', at, id: block.id, horizontalHandles: !block.horizontalHandles }];
    case 'setWide':
      return [{ type: 'blockWideSet', at, id: block.id, isWide: command.isWide ?? !block.isWide }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/**
 * Grows a loop or parallel to at least `minWidth` x `minHeight`, against the state the command meets:
 * each side becomes the larger of its current size and the minimum, so two concurrent grows of one
 * container compose and neither shrinks what the other grew (a `resizeBlock` carries an absolute size).
 * Nothing when it is already big enough.
 */
function decideGrowBlock(graph: WorkflowGraph, command: CommandOf<'growBlock'>, ctx: DecideContext): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  if (!CONTAINER_TYPES.has(block.type)) {
    throw new WorkflowError('validation', `Invalid command: id: ${block.id} is a ${block.type} block; only a loop or parallel grows`);
  }
  const current = { width: block.data.width ?? CONTAINER_SIZE.width, height: block.data.height ?? CONTAINER_SIZE.height };
  const width = Math.max(current.width, command.minWidth ?? 0);
  const height = Math.max(current.height, command.minHeight ?? 0);
  if (width === current.width && height === current.height) return [];
  return [{ type: 'blockResized', at: ctx.now, id: block.id, width, height }];
}

export {
  MEMORIES,
  decideGrowBlock,
  decideSetParent,
  decideRemoveBlock,
  decideSetAdvancedMode,
  decideRenameBlock,
  decideSetSubBlockValue,
  decideSimpleEdit,
};

import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { deepCopy } from '../model/graph.js';
import { ownValue, setOwn } from '../model/ownKeys.js';
import type { BlockData, BlockState, Position, SubBlockState, WorkflowGraph } from '../model/state.js';
import { freeBlockName, refuseBlockName } from './blockNames.js';
import { requireBlock, requireFreeBlockId } from './guards.js';
import { refuseAnotherStarter } from './oneStarter.js';
import { refuseNestedTrigger } from './topLevelTriggers.js';

/** Loop and parallel are containers with no catalogue definition (§4 Add block). */
const CONTAINER_TYPES: ReadonlySet<string> = new Set(['loop', 'parallel']);
/** A duplicate lands this far from its source (§9). */
const DUPLICATE_OFFSET = { x: 250, y: 20 };
/** New workflows start with this block (§9). */
const STARTER = { type: 'starter', name: 'Start', position: { x: 100, y: 100 } };

type NewBlock = { id: string; type: string; name: string; position: Position; data: BlockData };

/** A block with its definition's sub-blocks (default values) and outputs, and the §3 flag defaults. */
function createBlock(ctx: DecideContext, spec: NewBlock): BlockState {
  const isContainer = CONTAINER_TYPES.has(spec.type);
  const definition = isContainer ? undefined : ctx.blockDefinition(spec.type);
  if (!isContainer && definition === undefined) {
    throw new WorkflowError('validation', `Unknown block type: ${spec.type}`);
  }
  const subBlocks: Record<string, SubBlockState> = {};
  for (const sub of definition?.subBlocks ?? []) {
    setOwn(subBlocks, sub.id, { id: sub.id, type: sub.type, value: deepCopy(sub.defaultValue ?? null) });
  }
  return {
    ...spec,
    subBlocks,
    outputs: deepCopy({ ...definition?.outputs }),
    enabled: true,
    horizontalHandles: true,
    isWide: false,
    height: 0,
    advancedMode: false,
  };
}

/**
 * A new block with the values and settings the command brings (a paste): one event, so one undo
 * takes the whole block back. A value for a sub-block the definition lacks is kept, typed unknown,
 * as setSubBlockValue keeps one.
 */
function withGiven(block: BlockState, command: CommandOf<'addBlock'>): BlockState {
  const subBlocks = { ...block.subBlocks };
  for (const [subId, value] of Object.entries(command.values ?? {})) {
    setOwn(subBlocks, subId, { id: subId, type: ownValue(subBlocks, subId)?.type ?? 'unknown', value: deepCopy(value ?? null) });
  }
  return {
    ...block,
    subBlocks,
    enabled: command.enabled ?? block.enabled,
    isWide: command.isWide ?? block.isWide,
    horizontalHandles: command.horizontalHandles ?? block.horizontalHandles,
    advancedMode: command.advancedMode ?? block.advancedMode,
  };
}

/**
 * '{definition name} {n}', n counting blocks of that type, as the toolbar names new blocks; counting
 * on while another block has that name (Agent 1 deleted, Agent 2 kept: the next is Agent 3).
 */
function defaultName(graph: WorkflowGraph, type: string, ctx: DecideContext): string {
  const count = Object.values(graph.blocks).filter((block) => block.type === type).length;
  const label = ctx.blockDefinition(type)?.name ?? `${type.charAt(0).toUpperCase()}${type.slice(1)}`;
  return freeBlockName(graph, `${label} ${count + 1}`, duplicateName);
}

function decideAddBlock(graph: WorkflowGraph, command: CommandOf<'addBlock'>, ctx: DecideContext): WorkflowEvent[] {
  refuseAnotherStarter(graph, command.blockType);
  const id = requireFreeBlockId(graph, command.id ?? ctx.newId());
  const data: BlockData = { ...deepCopy(command.data ?? {}) };
  const parentId = command.parentId ?? data.parentId;
  if (parentId !== undefined) {
    requireBlock(graph, parentId);
    data.parentId = parentId;
    data.extent = 'parent';
  }
  if (command.name !== undefined) refuseBlockName(graph, command.name);
  const name = command.name ?? defaultName(graph, command.blockType, ctx);
  refuseNestedTrigger(id, { type: command.blockType, name, parentId }, ctx, command.parentId === undefined ? 'data.parentId' : 'parentId');
  const block = withGiven(createBlock(ctx, { id, type: command.blockType, name, position: command.position, data }), command);
  return [{ type: 'blockAdded', at: ctx.now, block }];
}

/** 'Agent 1' → 'Agent 2'; 'Agent' → 'Agent 1' (§4 Duplicate block). */
function duplicateName(name: string): string {
  const match = /^(.*?)(\d+)$/.exec(name);
  if (match === null) return `${name} 1`;
  return `${match[1] ?? ''}${Number(match[2]) + 1}`;
}

function decideDuplicateBlock(
  graph: WorkflowGraph,
  command: CommandOf<'duplicateBlock'>,
  ctx: DecideContext,
): WorkflowEvent[] {
  const source = requireBlock(graph, command.id);
  refuseAnotherStarter(graph, source.type);
  // A trigger nested before the rule stays where it is, but is not copied into its container.
  refuseNestedTrigger(source.id, { type: source.type, name: source.name, parentId: source.data.parentId }, ctx, 'id');
  const id = requireFreeBlockId(graph, command.newId ?? ctx.newId());
  const block: BlockState = {
    ...deepCopy(source),
    id,
    // Numbered on past names other blocks have (Agent 1 → Agent 3 when Agent 2 exists).
    name: freeBlockName(graph, duplicateName(source.name), duplicateName),
    position: { x: source.position.x + DUPLICATE_OFFSET.x, y: source.position.y + DUPLICATE_OFFSET.y },
  };
  return [{ type: 'blockDuplicated', at: ctx.now, sourceId: source.id, block }];
}

/** The event that creates a workflow: one starter block named 'Start' at (100, 100) (§9). */
function startWorkflow(ctx: DecideContext, starterBlockId?: string): WorkflowEvent[] {
  const definition = ctx.blockDefinition(STARTER.type);
  const lookup: DecideContext = definition === undefined ? { ...ctx, blockDefinition: () => ({ subBlocks: [], outputs: {} }) } : ctx;
  const block = createBlock(lookup, { id: starterBlockId ?? ctx.newId(), ...STARTER, position: { ...STARTER.position }, data: {} });
  return [{ type: 'workflowStarted', at: ctx.now, block }];
}

export { CONTAINER_TYPES, DUPLICATE_OFFSET, createBlock, decideAddBlock, decideDuplicateBlock, duplicateName, startWorkflow };

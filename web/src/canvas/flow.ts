import type { Edge, Node } from '@xyflow/react';
import type { BlockState, Edge as WorkflowEdge, WorkflowState } from '@weft/workflow';
import { CONTAINER_TYPES, hasTarget, sourceHandles, type SourceHandle } from './handles';

/** What a block node draws. */
export type BlockNodeData = {
  name: string;
  typeName: string;
  color: string | undefined;
  icon: string;
  horizontal: boolean;
  handles: SourceHandle[];
  hasTarget: boolean;
  /** The state's block this node was drawn from: an unchanged block keeps its node object. */
  block: BlockState;
  /** What else the node's look depends on (handles from edges, the catalogue). */
  key: string;
};
export type BlockNode = Node<BlockNodeData, 'block' | 'container'>;

/** A container's size when it has none yet. */
export const CONTAINER_SIZE = { width: 500, height: 300 };

/** How deep a block sits in containers; React Flow wants parents before their children. */
function depth(block: BlockState, blocks: Record<string, BlockState>): number {
  let d = 0;
  for (let parent = block.data.parentId; parent !== undefined && d < 100; parent = blocks[parent]?.data.parentId) d++;
  return d;
}

export type Describe = (type: string) => { name: string; color?: string; icon?: string } | undefined;

const CONTAINER_LOOK: Record<string, { name: string; color: string; icon: string }> = {
  loop: { name: 'Loop', color: '#2FB3FF', icon: 'LoopIcon' },
  parallel: { name: 'Parallel', color: '#FEE12B', icon: 'ParallelIcon' },
};

/**
 * React Flow nodes for the state's blocks. What only this canvas knows (selection, measured size, a
 * drag in progress) is kept from `previous`; a block that did not change keeps its node object, so
 * React Flow redraws only what changed (a 2,000-block canvas stays fast).
 */
export function toNodes(state: WorkflowState, previous: readonly BlockNode[], describe: Describe): BlockNode[] {
  const before = new Map(previous.map((node) => [node.id, node]));
  const routerEdges = new Map<string, WorkflowEdge[]>();
  for (const edge of state.edges) if (edge.sourceHandle?.startsWith('router-')) routerEdges.set(edge.source, [...(routerEdges.get(edge.source) ?? []), edge]);
  const blocks = Object.values(state.blocks);
  const nested = blocks.some((b) => b.data.parentId !== undefined);
  const ordered = nested ? blocks.map((b) => [b, depth(b, state.blocks)] as const).sort((a, b) => a[1] - b[1]).map(([b]) => b) : blocks;
  return ordered.map((block) => {
    const prev = before.get(block.id);
    const parentId = block.data.parentId !== undefined && state.blocks[block.data.parentId] ? block.data.parentId : undefined;
    const definition = CONTAINER_LOOK[block.type] ?? describe(block.type);
    const handles = sourceHandles(block, routerEdges.get(block.id) ?? []);
    const key = `${definition?.name}|${definition?.color}|${handles.map((h) => h.id).join(',')}|${parentId ?? ''}`;
    if (prev && prev.data.block === block && prev.data.key === key) return prev;
    const container = CONTAINER_TYPES.has(block.type);
    const width = container ? (block.data.width ?? CONTAINER_SIZE.width) : undefined;
    const height = container ? (block.data.height ?? CONTAINER_SIZE.height) : undefined;
    return {
      ...prev,
      id: block.id,
      type: container ? 'container' : 'block',
      position: prev?.dragging ? prev.position : block.position,
      data: {
        name: block.name,
        typeName: definition?.name ?? block.type,
        color: definition?.color,
        icon: definition?.icon ?? '',
        horizontal: block.horizontalHandles,
        handles,
        hasTarget: hasTarget(block.type),
        block,
        key,
      },
      ariaLabel: `Block ${block.name}`,
      className: `block block-${block.type}${block.enabled ? '' : ' disabled'}${block.isWide ? ' wide' : ''}`,
      parentId,
      extent: undefined,
      ...(container ? { style: { width, height }, width, height, zIndex: -1 } : {}),
    };
  });
}

/** React Flow edges for the state's edges, keeping which ones are selected here. */
export function toEdges(state: WorkflowState, previous: readonly Edge[]): Edge[] {
  const before = new Map(previous.map((edge) => [edge.id, edge]));
  const name = (id: string) => state.blocks[id]?.name ?? id;
  return state.edges.map((edge) => {
    const prev = before.get(edge.id);
    const ariaLabel = `Connection from ${name(edge.source)} to ${name(edge.target)}`;
    if (prev && prev.data?.edge === edge && prev.ariaLabel === ariaLabel) return prev;
    const error = edge.sourceHandle === 'error';
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle ?? null,
      targetHandle: edge.targetHandle ?? null,
      selected: prev?.selected ?? false,
      className: error ? 'edge-error' : undefined,
      data: { edge },
      ariaLabel,
    };
  });
}

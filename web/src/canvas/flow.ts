import type { Edge, Node } from '@xyflow/react';
import type { BlockState, WorkflowState } from '@weft/workflow';

/** What a block node draws. */
export type BlockNodeData = { name: string; typeName: string; color: string | undefined; horizontal: boolean };
export type BlockNode = Node<BlockNodeData, 'block'>;

/** How deep a block sits in containers; React Flow wants parents before their children. */
function depth(block: BlockState, blocks: Record<string, BlockState>): number {
  let d = 0;
  for (let parent = block.data.parentId; parent !== undefined && d < 100; parent = blocks[parent]?.data.parentId) d++;
  return d;
}

/**
 * React Flow nodes for the state's blocks. What only this canvas knows (selection, measured size, a
 * drag in progress) is kept from `previous`; everything else comes from the state.
 */
export function toNodes(state: WorkflowState, previous: readonly BlockNode[], describe: (type: string) => { name: string; color?: string } | undefined): BlockNode[] {
  const before = new Map(previous.map((node) => [node.id, node]));
  return Object.values(state.blocks)
    .sort((a, b) => depth(a, state.blocks) - depth(b, state.blocks))
    .map((block) => {
      const prev = before.get(block.id);
      const parentId = block.data.parentId !== undefined && state.blocks[block.data.parentId] ? block.data.parentId : undefined;
      const definition = describe(block.type);
      return {
        ...prev,
        id: block.id,
        type: 'block',
        position: prev?.dragging ? prev.position : block.position,
        data: { name: block.name, typeName: definition?.name ?? block.type, color: definition?.color, horizontal: block.horizontalHandles },
        ariaLabel: `Block ${block.name}`,
        className: `block block-${block.type}${block.enabled ? '' : ' disabled'}${block.isWide ? ' wide' : ''}`,
        parentId,
        extent: parentId === undefined ? undefined : 'parent',
      };
    });
}

/** React Flow edges for the state's edges, keeping which ones are selected here. */
export function toEdges(state: WorkflowState, previous: readonly Edge[]): Edge[] {
  const selected = new Set(previous.filter((edge) => edge.selected).map((edge) => edge.id));
  const name = (id: string) => state.blocks[id]?.name ?? id;
  return state.edges.map((edge) => ({
    id: edge.id,
    source: edge.source,
    target: edge.target,
    selected: selected.has(edge.id),
    ariaLabel: `Connection from ${name(edge.source)} to ${name(edge.target)}`,
  }));
}

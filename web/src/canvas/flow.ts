import { applyNodeChanges, Position, type Edge, type Node, type NodeChange, type NodeHandle } from '@xyflow/react';
import { CONTAINER_SIZE, type BlockState, type Edge as WorkflowEdge, type WorkflowState } from '@weft/workflow';
import { nodeIndex } from './cull';
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
  /** The catalogue lookup the node was drawn with (a new catalogue redraws every node). */
  describedBy: Describe;
};
export type BlockNode = Node<BlockNodeData, 'block' | 'container'>;

/** Whether two nodes' data draw the same card (the block itself may differ: a move changes only where it is). */
export function sameLook(a: BlockNodeData, b: BlockNodeData): boolean {
  if (a === b) return true;
  const sameHandles = a.handles === b.handles || (a.handles.length === b.handles.length && a.handles.every((h, i) => h.id === b.handles[i]?.id && h.label === b.handles[i]?.label && h.kind === b.handles[i]?.kind));
  return a.name === b.name && a.typeName === b.typeName && a.color === b.color && a.icon === b.icon && a.horizontal === b.horizontal && a.hasTarget === b.hasTarget && sameHandles;
}

/** A container's size when it has none yet (one constant with the decider and the layout). */
export { CONTAINER_SIZE };

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

/** A plain block's drawn size (`.node-card`: 240 px wide, 480 when wide) and the size of its handles. */
const CARD = { width: 240, wideWidth: 480, height: 60, handle: 10 };

/**
 * The size and handle places of a plain block (no condition or router rows) as the stylesheet draws
 * it, so React Flow can place it and its edges before drawing it: on a large canvas only the blocks
 * in view are drawn, and a block React Flow has not measured counts as in view. Blocks with rows and
 * containers are measured instead. React Flow's own measurement replaces this once a block is drawn.
 */
export function estimatedLayout(block: BlockState, handles: readonly SourceHandle[]): { measured: { width: number; height: number }; handles: NodeHandle[] } | undefined {
  if (CONTAINER_TYPES.has(block.type) || handles.some((h) => h.kind !== 'source' && h.kind !== 'error')) return undefined;
  const width = block.isWide ? CARD.wideWidth : CARD.width;
  const { height, handle } = CARD;
  const half = handle / 2;
  // A handle's box sits centred on the card's edge (the card's 1 px border moves it in by one).
  const left = { x: 1 - half, y: height / 2 - half, position: Position.Left };
  const right = { x: width - 1 - half, y: height / 2 - half, position: Position.Right };
  const top = { x: width / 2 - half, y: 1 - half, position: Position.Top };
  const bottom = { x: width / 2 - half, y: height - 1 - half, position: Position.Bottom };
  const [into, out, error] = block.horizontalHandles ? [left, right, bottom] : [top, bottom, right];
  const placed: NodeHandle[] = hasTarget(block.type) ? [{ ...into, id: null, type: 'target', width: handle, height: handle }] : [];
  for (const h of handles) placed.push({ ...(h.kind === 'error' ? error : out), id: h.id, type: 'source', width: handle, height: handle });
  return { measured: { width, height }, handles: placed };
}

/**
 * React Flow nodes for the state's blocks. What only this canvas knows (selection, measured size, a
 * drag in progress) is kept from `previous`; a block that did not change keeps its node object, so
 * React Flow redraws only what changed (a 2,000-block canvas stays fast). With `estimate`, plain
 * blocks not drawn yet get their size and handles from the stylesheet (`estimatedLayout`).
 */
export function toNodes(state: WorkflowState, previous: readonly BlockNode[], describe: Describe, estimate = false): BlockNode[] {
  const before = new Map(previous.map((node) => [node.id, node]));
  const routerEdges = new Map<string, WorkflowEdge[]>();
  for (const edge of state.edges) if (edge.sourceHandle?.startsWith('router-')) routerEdges.set(edge.source, [...(routerEdges.get(edge.source) ?? []), edge]);
  const blocks = Object.values(state.blocks);
  const nested = blocks.some((b) => b.data.parentId !== undefined);
  const ordered = nested ? blocks.map((b) => [b, depth(b, state.blocks)] as const).sort((a, b) => a[1] - b[1]).map(([b]) => b) : blocks;
  return ordered.map((block) => toNode(block, before.get(block.id), state, routerEdges.get(block.id) ?? [], describe, estimate));
}

/** One block's node; `prev` when it did not change. */
function toNode(block: BlockState, prev: BlockNode | undefined, state: WorkflowState, routerEdges: readonly WorkflowEdge[], describe: Describe, estimate: boolean): BlockNode {
  if (prev && prev.data.block === block && prev.data.describedBy === describe && routerEdges.length === 0 && !prev.data.handles.some((h) => h.kind === 'router')) {
    const parentId = block.data.parentId !== undefined && state.blocks[block.data.parentId] ? block.data.parentId : undefined;
    if (prev.parentId === parentId) return prev;
  }
  const parentId = block.data.parentId !== undefined && state.blocks[block.data.parentId] ? block.data.parentId : undefined;
  const definition = CONTAINER_LOOK[block.type] ?? describe(block.type);
  const handles = sourceHandles(block, routerEdges, (id) => state.blocks[id]?.name);
  // A router's handles carry its targets' names: a renamed target draws the router again.
  const key = `${definition?.name}|${definition?.color}|${handles.map((h) => (h.kind === 'router' ? `${h.id}:${h.label}` : h.id)).join(',')}|${parentId ?? ''}`;
  if (prev && prev.data.block === block && prev.data.key === key) return prev;
  const container = CONTAINER_TYPES.has(block.type);
  const width = container ? (block.data.width ?? CONTAINER_SIZE.width) : undefined;
  const height = container ? (block.data.height ?? CONTAINER_SIZE.height) : undefined;
  // A block React Flow has measured (its estimate dropped) keeps that measurement.
  const layout = estimate && (!prev || prev.handles !== undefined) ? estimatedLayout(block, handles) : undefined;
  return {
    ...prev,
    ...(layout ?? {}),
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
      describedBy: describe,
    },
    ariaLabel: `Block ${block.name}`,
    className: `block block-${block.type}${block.enabled ? '' : ' disabled'}${block.isWide ? ' wide' : ''}`,
    parentId,
    extent: undefined,
    ...(container ? { style: { width, height }, width, height, zIndex: -1 } : {}),
  };
}

/**
 * The nodes for `state` when the nodes drawn were made for `drawn` (undefined: none yet): only the
 * blocks that changed between the two are mapped again, and when none did the same array comes back
 * (a remote edit of one block touches one node, not 2,000). Structural changes (blocks added or
 * removed, containers, router edges) map every block, still keeping unchanged nodes. `diff` is
 * `blockDiff(state, drawn)` when the caller has it already.
 */
export function nextNodes(state: WorkflowState, drawn: WorkflowState | undefined, nodes: readonly BlockNode[], describe: Describe, estimate = false, diff?: BlockDiff): BlockNode[] {
  if (!drawn || nodes.length === 0) return toNodes(state, nodes, describe, estimate);
  const routersChanged = state.edges !== drawn.edges && edgesChanged(state.edges, drawn.edges).some((e) => e.sourceHandle?.startsWith('router-'));
  if (state.blocks === drawn.blocks && !routersChanged) return nodes as BlockNode[];
  const { changed, renamed } = diff ?? blockDiff(state, drawn);
  // A rename may be a router's target, whose name the router's handle shows.
  const routerTargetRenamed = renamed && state.edges.some((e) => e.sourceHandle?.startsWith('router-'));
  if (changed === null || routersChanged || routerTargetRenamed) return toNodes(state, nodes, describe, estimate);
  if (changed.length === 0) return nodes as BlockNode[];
  const next = nodes.slice();
  for (const block of changed) {
    const at = next.findIndex((n) => n.id === block.id);
    const prev = next[at];
    if (!prev || prev.data.describedBy !== describe) return toNodes(state, nodes, describe, estimate);
    next[at] = toNode(block, prev, state, [], describe, estimate);
  }
  return next;
}

/** How the blocks of two states differ. */
export interface BlockDiff {
  /** The blocks of the newer state that differ from the older's, or null when blocks came, went, or changed type or container. */
  changed: BlockState[] | null;
  /** Whether a block that is in both states has a new name (edge labels name their blocks). */
  renamed: boolean;
}

/** How many blocks a blocks object has, counted once per object (every edit copies the object, so the older one was counted before). */
const blockCounts = new WeakMap<Record<string, BlockState>, number>();
export function blockCount(blocks: Record<string, BlockState>): number {
  let count = blockCounts.get(blocks);
  if (count === undefined) {
    count = 0;
    for (const _id in blocks) count++;
    blockCounts.set(blocks, count);
  }
  return count;
}

/** The blocks of `state` that differ from `drawn`'s, in one pass over them (a 2,000-block canvas does this on every edit). */
export function blockDiff(state: WorkflowState, drawn: WorkflowState): BlockDiff {
  if (state.blocks === drawn.blocks) return { changed: [], renamed: false };
  let changed: BlockState[] | null = [];
  let renamed = false;
  let count = 0;
  for (const id in state.blocks) {
    count++;
    const block = state.blocks[id] as BlockState;
    const old = drawn.blocks[id];
    if (old === block) continue;
    if (old !== undefined && old.name !== block.name) renamed = true;
    if (changed === null) continue;
    if (!old || old.type !== block.type || old.data.parentId !== block.data.parentId || CONTAINER_TYPES.has(block.type)) changed = null;
    else changed.push(block);
  }
  blockCounts.set(state.blocks, count);
  return { changed: count === blockCount(drawn.blocks) ? changed : null, renamed };
}

/** Edges in one list and not the other (by object). */
function edgesChanged(a: readonly WorkflowEdge[], b: readonly WorkflowEdge[]): WorkflowEdge[] {
  const inA = new Set(a);
  const inB = new Set(b);
  return [...a.filter((e) => !inB.has(e)), ...b.filter((e) => !inA.has(e))];
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

/** The edges for `state` when the edges drawn were made for `drawn`: the same array when no edge and no block name changed. */
export function nextEdges(state: WorkflowState, drawn: WorkflowState | undefined, edges: readonly Edge[], diff?: BlockDiff): Edge[] {
  if (drawn && state.edges === drawn.edges && !(diff ?? blockDiff(state, drawn)).renamed) return edges as Edge[];
  return toEdges(state, edges);
}

/** The nodes and edges drawn, and the state and catalogue lookup they were made for. */
export interface Drawn {
  state: WorkflowState | undefined;
  describe: Describe | undefined;
  /** More than the large-canvas threshold of blocks (plain blocks get `estimatedLayout`). */
  large: boolean;
  nodes: BlockNode[];
  edges: Edge[];
}

export const NOTHING_DRAWN: Drawn = { state: undefined, describe: undefined, large: false, nodes: [], edges: [] };

/**
 * What is drawn for `state`: `drawn` itself when it was made for this state and lookup, else the nodes
 * and edges brought up to it, mapping only the blocks that changed (`nextNodes`, `nextEdges`; one pass
 * over the blocks, which also counts them). The editor works this out while it renders, so an event
 * costs one render of the editor (setting state during render made React render it twice).
 */
export function drawnFor(drawn: Drawn, state: WorkflowState, describe: Describe, largeAbove: number): Drawn {
  if (drawn.state === state && drawn.describe === describe) return drawn;
  const before = drawn.describe === describe ? drawn.state : undefined;
  const diff = before ? blockDiff(state, before) : undefined;
  const large = blockCount(state.blocks) > largeAbove;
  return { state, describe, large, nodes: nextNodes(state, before, drawn.nodes, describe, large, diff), edges: nextEdges(state, before, drawn.edges, diff) };
}

/**
 * Applies React Flow's changes to the nodes; a block React Flow has just measured drops its
 * estimated handles (`estimatedLayout`), so its edges leave from the handles as drawn.
 */
export function applyMeasured(changes: readonly NodeChange<BlockNode>[], nodes: BlockNode[]): BlockNode[] {
  const applied = applyFew(changes.filter((c) => c.type !== 'remove'), nodes);
  const measured = new Set(changes.flatMap((c) => (c.type === 'dimensions' && c.dimensions ? [c.id] : [])));
  if (measured.size === 0) return applied;
  return applied.map((node) => {
    if (!measured.has(node.id) || node.handles === undefined) return node;
    const { handles: _estimated, ...rest } = node;
    return rest;
  });
}

/** Changes for more nodes than this are applied with React Flow's pass over every node. */
const FEW_NODES = 16;

/**
 * React Flow's `applyNodeChanges`, without its pass over every node when the changes are for a few
 * (a drag moves one block on every mouse move; on a 2,000-block canvas the pass and its new array
 * cost more than the rest of the move): the nodes are found by id and only theirs replaced.
 */
export function applyFew(changes: readonly NodeChange<BlockNode>[], nodes: BlockNode[]): BlockNode[] {
  const ids = new Set<string>();
  for (const c of changes) {
    if (c.type === 'add' || c.type === 'remove') return applyNodeChanges(changes as NodeChange<BlockNode>[], nodes);
    ids.add(c.id);
  }
  if (ids.size === 0) return nodes;
  if (ids.size > FEW_NODES) return applyNodeChanges(changes as NodeChange<BlockNode>[], nodes);
  const index = nodeIndex(nodes);
  const next = nodes.slice();
  for (const id of ids) {
    const at = index.get(id);
    const node = at === undefined ? undefined : next[at];
    if (at === undefined || !node) continue;
    next[at] = applyNodeChanges(changes.filter((c) => c.type !== 'add' && c.id === id), [node])[0] ?? node;
  }
  return next;
}

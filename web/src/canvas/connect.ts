import type { BlockState, Edge, WorkflowState } from '@weft/workflow';
import { CONTAINER_TYPES, FINAL_TYPES, START_TYPES } from './handles';

/** A connection drawn on the canvas. */
export interface Attempt {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/** The edge a drawn connection becomes: a router's generic handle names its target (`router-<targetId>`). */
export function edgeFor(state: WorkflowState, c: Attempt): { source: string; target: string; sourceHandle?: string; targetHandle?: string } {
  const source = state.blocks[c.source];
  let sourceHandle = c.sourceHandle ?? undefined;
  if (source?.type === 'router' && (sourceHandle === undefined || sourceHandle === 'source')) sourceHandle = `router-${c.target}`;
  return { source: c.source, target: c.target, ...(sourceHandle ? { sourceHandle } : {}), ...(c.targetHandle ? { targetHandle: c.targetHandle } : {}) };
}

function reaches(edges: readonly Edge[], from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const at = stack.pop() as string;
    if (at === to) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    stack.push(...(next.get(at) ?? []));
  }
  return false;
}

const parentOf = (b: BlockState) => b.data.parentId ?? null;

/** Why a connection cannot be made, or null when it can. */
export function connectionProblem(state: WorkflowState, c: Attempt): string | null {
  const source = state.blocks[c.source];
  const target = state.blocks[c.target];
  if (!source || !target) return 'That block is no longer in the workflow';
  if (source.id === target.id) return 'A block cannot connect to itself';
  if (START_TYPES.has(target.type)) return `${target.name} starts the workflow: nothing connects into it`;
  if (FINAL_TYPES.has(source.type)) return `${source.name} is a final block: nothing leaves it`;
  const edge = edgeFor(state, c);
  const handle = edge.sourceHandle ?? 'source';
  if (state.edges.some((e) => e.source === edge.source && e.target === edge.target && (e.sourceHandle ?? 'source') === handle)) return 'These blocks are already connected';
  if (CONTAINER_TYPES.has(source.type) && handle.endsWith('-start-source')) {
    if (parentOf(target) !== source.id) return `The start of ${source.name} connects only to blocks inside it`;
  } else if (parentOf(source) !== parentOf(target)) {
    return 'Blocks connect only to blocks in the same container; connect a container’s start or end instead';
  }
  if (handle !== 'error' && reaches(state.edges.filter((e) => (e.sourceHandle ?? '') !== 'error'), target.id, source.id)) {
    return 'That connection would make a cycle; put the blocks in a loop to repeat them';
  }
  return null;
}

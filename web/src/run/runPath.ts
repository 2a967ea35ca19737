import type { BlockEntry } from './runState';

/** An edge as the path needs it: its ends and the handle it leaves from (`source` when none). */
export interface PathEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
}

/**
 * Whether one finished (or running) log of the edge's source sent the run along the edge, as the
 * runner decides it (`fires` in the runner's scheduler): a failed block only along its `error`
 * handle; a condition along the row it chose (`selectedConditionId`); a router toward the block it
 * chose (`selectedPath`); a loop or parallel still running into its children from its start handle.
 */
function took(entry: BlockEntry, edge: PathEdge): boolean {
  const handle = edge.sourceHandle ?? 'source';
  if (entry.status === 'failed') return handle === 'error';
  if (entry.status === 'running') return handle.endsWith('-start-source');
  if (entry.status !== 'done' || handle === 'error') return false;
  const output = typeof entry.output === 'object' && entry.output !== null ? (entry.output as Record<string, unknown>) : {};
  if (handle.startsWith('condition-')) return output.selectedConditionId !== undefined && output.selectedConditionId !== null && handle === `condition-${String(output.selectedConditionId)}`;
  const chosen = (output.selectedPath as { blockId?: unknown } | null | undefined)?.blockId;
  if (handle.startsWith('router-')) return chosen !== undefined && handle === `router-${String(chosen)}`;
  if ('selectedConditionId' in output) return false;
  if ('selectedPath' in output && chosen !== undefined) return edge.target === chosen;
  return true;
}

/**
 * The edges a run took, from what it recorded (the block logs, not a guess from block states): an
 * edge is on the path when a log of its source went along it and its target then ran (it has a log
 * that is not a skip). So the path from a failed block's `error` handle to the block that handled it
 * is marked, and the normal edge out of that failed block is not.
 */
export function runPath(edges: readonly PathEdge[], entries: readonly BlockEntry[]): Set<string> {
  const bySource = new Map<string, BlockEntry[]>();
  const ran = new Set<string>();
  for (const e of entries) {
    bySource.set(e.blockId, [...(bySource.get(e.blockId) ?? []), e]);
    if (e.status !== 'skipped') ran.add(e.blockId);
  }
  const path = new Set<string>();
  for (const edge of edges) {
    if (!ran.has(edge.target)) continue;
    if ((bySource.get(edge.source) ?? []).some((entry) => took(entry, edge))) path.add(edge.id);
  }
  return path;
}

import type { BlockLogView } from './executionsStore.js';
import { compileGraph, type CompiledGraph } from './workflows/graph.js';
import type { RerunOf, RunnableState } from './workflows/types.js';

function graphOf(state: RunnableState): CompiledGraph | undefined {
  try {
    return compileGraph(state);
  } catch {
    // A state the engine refuses: the rerun fails as the run did, with nothing of the body to keep.
    return undefined;
  }
}

const inBody = (log: BlockLogView): boolean => log.loopIteration !== undefined || log.parallelBranch !== undefined;

/** The top-level loops and parallels a rerun reused: it ran none of their body blocks, so its logs have none. */
export function reusedContainers(logs: readonly BlockLogView[]): Set<string> {
  return new Set(logs.filter((l) => l.reused && !inBody(l) && (l.blockType === 'loop' || l.blockType === 'parallel')).map((l) => l.blockId));
}

/** The top-level block a block of the state sits in (itself at the top level); undefined for a state the engine refuses. */
export function topLevelOf(state: RunnableState): ((blockId: string) => string) | undefined {
  const graph = graphOf(state);
  if (!graph) return undefined;
  return (id) => {
    let top = id;
    for (let p = graph.parentOf.get(id); p !== undefined; p = graph.parentOf.get(p)) top = p;
    return top;
  };
}

/** The logs of body blocks (at any depth) of these top-level containers. */
export function bodyLogsOf(state: RunnableState, logs: readonly BlockLogView[], containers: ReadonlySet<string>): BlockLogView[] {
  const topOf = topLevelOf(state);
  if (!topOf) return [];
  return logs.filter((l) => inBody(l) && containers.has(topOf(l.blockId)));
}

/** Where a body block's log ran, outermost container first: its loop iteration or parallel branch at each level. */
function placeOf(graph: CompiledGraph, log: BlockLogView): number[] {
  const containers: string[] = [];
  for (let p = graph.parentOf.get(log.blockId); p !== undefined; p = graph.parentOf.get(p)) containers.unshift(p);
  const loops = [...(log.loopIteration ?? [])];
  const branches = [...(log.parallelBranch ?? [])];
  return containers.map((c) => (graph.blocks[c]?.type === 'loop' ? loops.shift() : branches.shift()) ?? -1);
}

/** Whether place `a` comes after `b` (the later iteration or branch of the outermost container where they differ). */
function isLater(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? -1;
    const y = b[i] ?? -1;
    if (x !== y) return x > y;
  }
  return false;
}

/**
 * What a rerun takes from the earlier run's block logs (those not downstream of the block it reruns
 * from): the top-level blocks' outputs, the `{error}` outputs of those that failed (the run reuses
 * one when the block has an error path, which it took), and each body block's output in its
 * containers' last iteration or branch, as the engine leaves them readable after a container.
 */
export function reusedOutputs(state: RunnableState, logs: readonly BlockLogView[]): Omit<RerunOf, 'fromBlockId'> {
  const outputs: Record<string, unknown> = {};
  const failedOutputs: Record<string, unknown> = {};
  const bodyOutputs: Record<string, unknown> = {};
  const graph = graphOf(state);
  const last = new Map<string, { place: number[]; log: BlockLogView }>();
  for (const log of logs) {
    if (inBody(log)) {
      if (!graph) continue;
      const place = placeOf(graph, log);
      const seen = last.get(log.blockId);
      if (!seen || isLater(place, seen.place)) last.set(log.blockId, { place, log });
    } else if (log.status === 'succeeded') outputs[log.blockId] = log.output ?? null;
    else if (log.status === 'failed') failedOutputs[log.blockId] = log.output ?? { error: log.error ?? 'failed' };
  }
  // A block skipped or cut short in the last iteration has nothing readable after the container.
  for (const [id, { log }] of last) if (log.status === 'succeeded' || log.status === 'failed') bodyOutputs[id] = log.output ?? null;
  return {
    outputs,
    ...(Object.keys(failedOutputs).length > 0 ? { failedOutputs } : {}),
    ...(Object.keys(bodyOutputs).length > 0 ? { bodyOutputs } : {}),
  };
}

import type { DeployableState, DeployProblem } from './checkDeployable.js';
import { readStateBlocks } from './deploymentTriggers.js';
import { containerParents } from './containerChecks.js';

/** The runner's refusal of a state without a starter block (every run of it fails before any block runs). */
export const NO_STARTER_MESSAGE = 'The workflow has no starter block';

/** The runner's refusal of a cycle (in one scope: the top level or a container's body), naming its blocks in order. */
export function cycleMessage(names: readonly string[]): string {
  return `The workflow has a cycle outside a loop block: ${names.join(' → ')}`;
}

/** Adds `value` to the list `map` keeps under `key`, in place (one list per key, never copied). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The cycles of a directed graph, one for each edge that leads back to a block still being walked
 * (a graph has one exactly when it has a cycle), each as its blocks in order, the first repeated at
 * the end (`['a', 'b', 'a']`). Nodes are walked in the order given, without recursion.
 */
export function findCycles(nodes: readonly string[], next: (id: string) => readonly string[]): string[][] {
  const walked = new Map<string, 'open' | 'done'>();
  const cycles: string[][] = [];
  for (const root of nodes) {
    if (walked.has(root)) continue;
    const path: string[] = [];
    const stack: Array<{ out: readonly string[]; at: number }> = [];
    const enter = (id: string) => {
      walked.set(id, 'open');
      path.push(id);
      stack.push({ out: next(id), at: 0 });
    };
    enter(root);
    for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
      const target = top.out[top.at];
      top.at += 1;
      if (target === undefined) {
        walked.set(path.pop() as string, 'done');
        stack.pop();
      } else if (!walked.has(target)) enter(target);
      else if (walked.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target]);
    }
  }
  return cycles;
}

/**
 * What the runner refuses on every run of a state, as deploy problems: no starter block (field
 * `blocks`, a problem of the whole workflow: no block named), and each cycle of edges between
 * blocks of one scope (field `edges`, on the cycle's first block), the edge from a container's
 * start handle into its body not counting — a loop repeats through its container, never through
 * edges. Scopes as the runner reads them
 * (`containerParents`: a block's `data.parentId`, else the loop and parallel lists).
 */
export function graphProblems(given: DeployableState): DeployProblem[] {
  const blocks = readStateBlocks(given.blocks);
  const problems: DeployProblem[] = [];
  if (!Object.values(blocks).some((b) => b.type === 'starter')) problems.push({ field: 'blocks', message: NO_STARTER_MESSAGE });
  const parents = containerParents({ blocks, loops: given.loops, parallels: given.parallels });
  const scopeOf = (id: string): string => parents.get(blocks[id]?.id ?? id) ?? '';
  const next = new Map<string, string[]>();
  for (const edge of given.edges) {
    const { source, target } = edge;
    if (typeof source !== 'string' || typeof target !== 'string' || !blocks[source] || !blocks[target]) continue;
    const handle = 'sourceHandle' in edge ? edge.sourceHandle : undefined;
    if (handle === `${blocks[source]?.type ?? ''}-start-source` || scopeOf(source) !== scopeOf(target)) continue;
    pushTo(next, source, target);
  }
  const scopes = new Map<string, string[]>();
  for (const id of Object.keys(blocks)) pushTo(scopes, scopeOf(id), id);
  const nameOf = (id: string) => blocks[id]?.name ?? id;
  for (const nodes of scopes.values()) {
    for (const cycle of findCycles(nodes, (id) => next.get(id) ?? [])) {
      const first = cycle[0] as string;
      problems.push({ blockId: first, blockName: nameOf(first), field: 'edges', message: cycleMessage(cycle.map(nameOf)) });
    }
  }
  return problems;
}

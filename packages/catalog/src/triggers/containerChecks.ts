import type { StateBlock } from './deploymentTriggers.js';

/** The spec bounds a loop's iterations and a parallel's branches to 1..50 (000 §5, §9). */
export const MAX_CONTAINER_RUNS = 50;

/** What a loop or parallel runs over, as its block's data holds it: a count, or a collection. */
export type ContainerPlan = { field: 'count'; value: unknown } | { field: 'collection'; value: unknown };

/** How the runner reads a container: a loop counts unless `forEach`; a parallel runs a collection unless `count`. */
export function containerPlan(block: StateBlock): ContainerPlan {
  const data = block.data ?? {};
  const counts = block.type === 'loop' ? data.loopType !== 'forEach' : data.parallelType === 'count';
  return counts ? { field: 'count', value: data.count } : { field: 'collection', value: data.collection ?? '' };
}

/** A value only known when the run resolves it: a `<block.path>` reference or a `{{KEY}}`. */
function resolvedAtRun(text: string): boolean {
  return /<[A-Za-z0-9_]+\.[^<>]+>|\{\{[^}]+\}\}/.test(text);
}

/**
 * What keeps a container's count or collection from running as written, in the runner's words
 * (`engine/containers.ts`): a count that is not a whole number in 1..50 (the runner would clamp or
 * default it, running another number of times than the one written); a collection that is neither
 * a JSON array or object nor a reference to one, or that holds more than 50 entries. A collection
 * holding a reference or `{{KEY}}` is checked by the runner once resolved (its references are
 * checked as any block's).
 */
export function containerProblem(block: StateBlock, plan: ContainerPlan): string | undefined {
  const isLoop = block.type === 'loop';
  if (plan.field === 'count') {
    if (plan.value === undefined || plan.value === null || plan.value === '') return undefined;
    const n = typeof plan.value === 'number' ? plan.value : typeof plan.value === 'string' ? Number(plan.value.trim()) : Number.NaN;
    if (Number.isInteger(n) && n >= 1 && n <= MAX_CONTAINER_RUNS) return undefined;
    return `${isLoop ? 'Loop iterations' : 'Parallel count'} must be a whole number between 1 and ${MAX_CONTAINER_RUNS}, got ${JSON.stringify(plan.value)}`;
  }
  let items: unknown = plan.value;
  // Nothing to run over (no iteration, no branch) is the runner's reading of an empty collection.
  if (items === null || items === undefined) return undefined;
  const what = isLoop ? 'forEach items' : 'collection';
  if (typeof items === 'string') {
    const text = items.trim();
    if (text === '' || resolvedAtRun(text)) return undefined;
    try {
      items = JSON.parse(text) as unknown;
    } catch {
      return `The ${what} must be a JSON array or object, or a reference to one`;
    }
  }
  if (items === null || typeof items !== 'object') return `The ${what} must be a JSON array or object, or a reference to one`;
  const entries = Array.isArray(items) ? items.length : Object.keys(items).length;
  if (entries <= MAX_CONTAINER_RUNS) return undefined;
  return isLoop
    ? `The forEach items (collection) hold ${entries} entries; a loop runs at most ${MAX_CONTAINER_RUNS} iterations`
    : `The parallel's collection holds ${entries} entries; a parallel runs at most ${MAX_CONTAINER_RUNS} branches`;
}

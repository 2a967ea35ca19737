import type { StateBlock } from './deploymentTriggers.js';

/** The spec bounds a loop's iterations and a parallel's branches to 1..50 (000 §5, §9). */
export const MAX_CONTAINER_RUNS = 50;

/** What a loop or parallel runs over, as its block's data holds it: a count, or a collection. */
export type ContainerPlan = { field: 'count'; value: unknown } | { field: 'collection'; value: unknown };

/**
 * The lists a workflow state keeps beside its blocks (`loops`, `parallels`: `{id, nodes, …}` by
 * container id), as JSON: entries that are not lists are left out where they are read.
 */
export interface ContainerLists {
  loops?: Readonly<Record<string, unknown>> | undefined;
  parallels?: Readonly<Record<string, unknown>> | undefined;
}

/** A state as container membership is read from it: its blocks (by id) and its loop and parallel lists. */
export interface MembershipState extends ContainerLists {
  blocks: Readonly<Record<string, { id: string; type?: unknown; data?: Readonly<Record<string, unknown>> | undefined } | undefined>>;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entry `id` of a list, by own key only (`constructor` names no container unless one is so named). */
function own(lists: Readonly<Record<string, unknown>> | undefined, id: string): Readonly<Record<string, unknown>> {
  const entry = lists && Object.hasOwn(lists, id) ? lists[id] : undefined;
  return isRecord(entry) ? entry : {};
}

/**
 * The loop or parallel each block sits in (a block at the top level has none), as a run reads it:
 * the block's `data.parentId` when it names a block of the state, else the first loop, then
 * parallel, whose `nodes` list the block (a state written before `parentId` was kept, an import);
 * kept only when that block is a loop or parallel. One reading for the runner's graph and the deploy
 * check, so the body a run runs is the body deploy checks. Linear in the blocks and list entries.
 */
export function containerParents(state: MembershipState): Map<string, string> {
  const blocks = state.blocks;
  const listed = new Map<string, string>();
  for (const lists of [state.loops, state.parallels]) {
    for (const list of Object.values(lists ?? {})) {
      if (!isRecord(list) || typeof list.id !== 'string' || !Object.hasOwn(blocks, list.id) || !blocks[list.id] || !Array.isArray(list.nodes)) continue;
      for (const node of list.nodes) if (typeof node === 'string' && !listed.has(node)) listed.set(node, list.id);
    }
  }
  const parents = new Map<string, string>();
  for (const block of Object.values(blocks)) {
    if (!block) continue;
    const fromData = block.data?.parentId;
    const parent = typeof fromData === 'string' && fromData !== '' && Object.hasOwn(blocks, fromData) && blocks[fromData] ? fromData : listed.get(block.id);
    const type = parent === undefined ? undefined : blocks[parent]?.type;
    if (parent !== undefined && (type === 'loop' || type === 'parallel')) parents.set(block.id, parent);
  }
  return parents;
}

/**
 * How the runner reads a container (`engine/containers.ts`): its block's `data` first, then the
 * state's list entry for it (`loops[id]`: loopType, iterations, forEachItems; `parallels[id]`:
 * parallelType, count, distribution); a loop counts unless `forEach`, a parallel runs a collection
 * unless `count`.
 */
export function containerPlan(block: StateBlock, lists: ContainerLists = {}): ContainerPlan {
  const data = block.data ?? {};
  if (block.type === 'loop') {
    const derived = own(lists.loops, block.id);
    const loopType = data.loopType ?? derived.loopType ?? 'for';
    if (loopType !== 'forEach') return { field: 'count', value: data.count ?? derived.iterations };
    return { field: 'collection', value: data.collection ?? derived.forEachItems ?? '' };
  }
  const derived = own(lists.parallels, block.id);
  if ((data.parallelType ?? derived.parallelType) === 'count') return { field: 'count', value: data.count ?? derived.count };
  return { field: 'collection', value: data.collection ?? derived.distribution ?? '' };
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

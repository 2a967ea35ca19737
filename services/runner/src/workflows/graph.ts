import { cycleMessage, findCycles, NO_STARTER_MESSAGE, pushTo } from '@weft/catalog';
import { normalizeName } from './references.js';
import type { RunnableBlock, RunnableEdge, RunnableState } from './types.js';

/** Container block types: their body blocks name them as `data.parentId`. */
export type ContainerKind = 'loop' | 'parallel';

/** Handles of a container: the body starts from `<kind>-start-source`, what follows leaves from `<kind>-end-source`. */
export const START_HANDLE: Record<ContainerKind, string> = { loop: 'loop-start-source', parallel: 'parallel-start-source' };
export const END_HANDLE: Record<ContainerKind, string> = { loop: 'loop-end-source', parallel: 'parallel-end-source' };
export const ERROR_HANDLE = 'error';

/** The handle an edge leaves from (`source` when none is set). */
export function handleOf(edge: RunnableEdge): string {
  return edge.sourceHandle ?? 'source';
}

export function containerKind(block: RunnableBlock | undefined): ContainerKind | undefined {
  return block?.type === 'loop' || block?.type === 'parallel' ? block.type : undefined;
}

/** One level of the graph: the top level (`container` null) or a container's body. */
export interface Scope {
  container: string | null;
  nodes: string[];
  /** Blocks a run of this scope starts from. */
  entries: string[];
  /** Edges between blocks of this scope, by source and by target. */
  outgoing: Map<string, RunnableEdge[]>;
  incoming: Map<string, RunnableEdge[]>;
}

/** The state read once for a run: scopes, containers and who is upstream of whom. */
export interface CompiledGraph {
  /** Blocks by id: own keys only (no prototype), unless compiled with `ownIds` false. */
  blocks: Readonly<Record<string, RunnableBlock>>;
  starterId: string;
  /** The block the run starts at: the starter, or the trigger block that started it (see `compileGraph`). */
  entryId: string;
  /** The container a block sits in (absent at the top level). */
  parentOf: Map<string, string>;
  scopes: Map<string | null, Scope>;
  /** Block ids by normalized name. */
  byName: Map<string, string[]>;
  /** Every block the given block may read (it is reachable from them). */
  ancestors(blockId: string): ReadonlySet<string>;
  /** Every block reachable from the given one (itself excluded). */
  descendants(blockId: string): ReadonlySet<string>;
}

/** A state the engine refuses to run. */
export class GraphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GraphError';
  }
}

function parentId(block: RunnableBlock, state: RunnableState, blocks: Readonly<Record<string, RunnableBlock>>): string | undefined {
  const fromData = block.data?.parentId;
  if (typeof fromData === 'string' && fromData !== '' && blocks[fromData]) return fromData;
  for (const container of [...Object.values(state.loops ?? {}), ...Object.values(state.parallels ?? {})]) {
    if (container.nodes.includes(block.id) && blocks[container.id]) return container.id;
  }
  return undefined;
}

function parentsIn(state: RunnableState, blocks: Readonly<Record<string, RunnableBlock>>): Map<string, string> {
  const parentOf = new Map<string, string>();
  for (const block of Object.values(blocks)) {
    const p = parentId(block, state, blocks);
    if (p !== undefined && containerKind(blocks[p])) parentOf.set(block.id, p);
  }
  return parentOf;
}

/**
 * The loop or parallel each block sits in, as a run's graph reads it (`compileGraph`'s `parentOf`,
 * blocks by own ids): `data.parentId` when it names a block, else the first loop, then parallel,
 * whose `nodes` list the block; kept when that block is a loop or parallel. For code outside the
 * workflow (a rerun's downstream blocks) that must place blocks as the run does, without compiling.
 */
export function containerParentsOf(state: RunnableState): Map<string, string> {
  return parentsIn(state, ownBlocks(state.blocks));
}

/** The same blocks in an object with no prototype: indexing it by any id finds a block or nothing. */
function ownBlocks(blocks: Readonly<Record<string, RunnableBlock>>): Record<string, RunnableBlock> {
  return Object.assign(Object.create(null) as Record<string, RunnableBlock>, blocks);
}

/** Whether `id` is no block of `blocks` but a member every object inherits (`constructor`, `toString`…). */
const inheritedId = (blocks: object, id: string): boolean => !Object.hasOwn(blocks, id) && id in blocks;

/**
 * Whether the state names, where the graph looks blocks up, an id no block has that every object
 * inherits: an edge from or to `constructor` or `toString` (stored before such ids were ordinary
 * ones), a parent, a container or the trigger block. Only then do `compileGraph`'s lookups with and
 * without `ownIds` differ (the engine before patch `own-block-ids` found Object.prototype's member).
 */
export function namesInheritedIds(state: RunnableState, triggerBlockId?: string): boolean {
  const inherited = (id: unknown) => typeof id === 'string' && inheritedId(state.blocks, id);
  return (
    state.edges.some((e) => inherited(e.source) || inherited(e.target)) ||
    Object.values(state.blocks).some((b) => inherited(b.data?.parentId)) ||
    [...Object.values(state.loops ?? {}), ...Object.values(state.parallels ?? {})].some((c) => inherited(c.id)) ||
    inherited(triggerBlockId)
  );
}

function reach(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    for (const n of next.get(id) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return seen;
}

function assertAcyclic(scope: Scope, blocks: Record<string, RunnableBlock>): void {
  const [cycle] = findCycles(scope.nodes, (id) => (scope.outgoing.get(id) ?? []).map((e) => e.target));
  if (cycle) throw new GraphError(cycleMessage(cycle.map((id) => blocks[id]?.name ?? id)));
}

/**
 * Reads a workflow state into scopes; refuses one without a starter or with a cycle outside a loop.
 * `triggerBlockId` is the trigger block (webhook, schedule) whose webhook path or schedule started
 * the run: the run starts there when it is a top-level block the starter does not lead to, else (and
 * without one) at the starter, as before trigger blocks started runs of their own. Blocks are looked
 * up by own ids: an edge from `constructor` that no block has is dangling and dropped. `ownIds` false
 * indexes the state's own object instead, as runs recorded before patch `own-block-ids` did.
 */
export function compileGraph(state: RunnableState, triggerBlockId?: string, ownIds = true): CompiledGraph {
  const blocks = ownIds ? ownBlocks(state.blocks) : state.blocks;
  const starter = Object.values(blocks).find((b) => b.type === 'starter');
  if (!starter) throw new GraphError(NO_STARTER_MESSAGE);
  const parentOf = parentsIn(state, blocks);
  const scopes = new Map<string | null, Scope>();
  const scopeFor = (container: string | null): Scope => {
    let scope = scopes.get(container);
    if (!scope) {
      scope = { container, nodes: [], entries: [], outgoing: new Map(), incoming: new Map() };
      scopes.set(container, scope);
    }
    return scope;
  };
  scopeFor(null);
  for (const block of Object.values(blocks)) {
    scopeFor(parentOf.get(block.id) ?? null).nodes.push(block.id);
    if (containerKind(block)) scopeFor(block.id);
  }
  // Edges for "who is upstream" and "what follows": every edge (forward also body → container).
  const forward = new Map<string, string[]>();
  const backward = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    pushTo(forward, from, to);
    pushTo(backward, to, from);
  };
  for (const edge of state.edges) {
    if (!blocks[edge.source] || !blocks[edge.target]) continue;
    link(edge.source, edge.target);
    const sourceScope = parentOf.get(edge.source) ?? null;
    const targetScope = parentOf.get(edge.target) ?? null;
    const kind = containerKind(blocks[edge.source]);
    if (kind && handleOf(edge) === START_HANDLE[kind]) {
      if (targetScope === edge.source) scopeFor(edge.source).entries.push(edge.target);
      continue;
    }
    if (sourceScope !== targetScope) continue;
    const scope = scopeFor(sourceScope);
    pushTo(scope.outgoing, edge.source, edge);
    pushTo(scope.incoming, edge.target, edge);
  }
  const plainBackward = new Map([...backward].map(([k, v]) => [k, [...v]]));
  for (const [child, parent] of parentOf) link(child, parent);
  const bodyOf = (container: string): string[] => {
    const inner = scopes.get(container)?.nodes ?? [];
    return containerKind(blocks[container]) ? inner.flatMap((n) => [n, ...bodyOf(n)]) : [];
  };
  const entryId =
    triggerBlockId !== undefined && blocks[triggerBlockId] && !parentOf.has(triggerBlockId) && !reach(starter.id, forward).has(triggerBlockId)
      ? triggerBlockId
      : starter.id;
  for (const scope of scopes.values()) {
    assertAcyclic(scope, blocks);
    if (scope.container === null) scope.entries = [entryId];
    else if (scope.entries.length === 0) scope.entries = scope.nodes.filter((n) => !scope.incoming.has(n));
    scope.entries = [...new Set(scope.entries)];
  }
  const byName = new Map<string, string[]>();
  for (const block of Object.values(blocks)) pushTo(byName, normalizeName(block.name), block.id);
  const ancestorMemo = new Map<string, Set<string>>();
  const descendantMemo = new Map<string, Set<string>>();
  return {
    blocks,
    starterId: starter.id,
    entryId,
    parentOf,
    scopes,
    byName,
    ancestors(id) {
      let set = ancestorMemo.get(id);
      if (!set) {
        const found = reach(id, plainBackward);
        const enclosing = new Set<string>();
        // A body block may read what is upstream of its containers.
        for (let p = parentOf.get(id); p !== undefined; p = parentOf.get(p)) {
          enclosing.add(p);
          found.add(p);
          for (const a of reach(p, plainBackward)) found.add(a);
        }
        // A container upstream stands for its whole body (its blocks' last outputs stay readable).
        for (const a of [...found]) if (!enclosing.has(a)) for (const inner of bodyOf(a)) found.add(inner);
        set = found;
        ancestorMemo.set(id, set);
      }
      return set;
    },
    descendants(id) {
      let set = descendantMemo.get(id);
      if (!set) {
        set = reach(id, forward);
        descendantMemo.set(id, set);
      }
      return set;
    },
  };
}

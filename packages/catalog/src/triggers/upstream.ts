import { referenceName } from '../referenceName.js';
import { readStateBlocks, scheduleTriggerBlocks, webhookTriggers, type StateBlock } from './deploymentTriggers.js';
import { containerParents } from './containerChecks.js';
import { pushTo } from './graphProblems.js';

/**
 * A workflow's blocks, edges and containers as "who runs before whom" reads them: the deploy check
 * (`checkDeployable`) and the editor's `<` menu (web `panels/references.ts`) alike.
 */
export interface FlowGraph {
  blocks: Record<string, StateBlock>;
  edges: Array<{ source: string; target: string }>;
  /** The container of each block inside one (`containerParents`). */
  parents: ReadonlyMap<string, string>;
}

/** A state as JSON (the deploy check's `DeployableState`, the editor's workflow state). */
export interface FlowState {
  blocks: Record<string, unknown>;
  edges: ReadonlyArray<{ source?: unknown; target?: unknown }>;
  loops?: Record<string, unknown>;
  parallels?: Record<string, unknown>;
}

/** Reads a state's blocks, edges (both ends named) and containers as the runner places them. */
export function flowGraph(given: FlowState): FlowGraph {
  const blocks = readStateBlocks(given.blocks);
  return {
    blocks,
    edges: given.edges.flatMap((e) => (typeof e.source === 'string' && typeof e.target === 'string' ? [{ source: e.source, target: e.target }] : [])),
    parents: containerParents({ blocks, loops: given.loops, parallels: given.parallels }),
  };
}

function reach(starts: readonly string[], next: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set(starts);
  const stack = [...starts];
  while (stack.length > 0) {
    for (const n of next.get(stack.pop() as string) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return seen;
}

/**
 * Blocks whose outputs `id` may read: upstream by edges, of it and of every container around it, and
 * the blocks inside an upstream container (their outputs are readable after it). `skipped` blocks
 * pass nothing on: what lies before one runs before `id` only by another path.
 */
export function upstreamOf(graph: FlowGraph, id: string, skipped: ReadonlySet<string> = new Set()): Set<string> {
  const incoming = new Map<string, string[]>();
  for (const e of graph.edges) if (!skipped.has(e.source)) pushTo(incoming, e.target, e.source);
  const children = new Map<string, string[]>();
  for (const [child, parent] of graph.parents) pushTo(children, parent, child);
  const seen = new Set<string>();
  const queue: string[] = [];
  for (let cur: string | undefined = id; cur !== undefined; cur = graph.parents.get(cur)) {
    if (cur !== id) seen.add(cur);
    queue.push(cur);
  }
  while (queue.length > 0) {
    const next = queue.pop() as string;
    for (const src of incoming.get(next) ?? []) {
      if (seen.has(src)) continue;
      seen.add(src);
      queue.push(src);
      for (const b of children.get(src) ?? []) if (!seen.has(b)) { seen.add(b); queue.push(b); }
    }
  }
  seen.delete(id);
  return seen;
}

/**
 * The blocks runs start at, as the runner's `compileGraph` picks them: the starter (manual, API,
 * chat runs and its own webhook or schedule), and each enabled webhook or schedule block (each
 * registers a path or schedule of its own) that sits at the top level and that the starter does not
 * lead to — edges of every kind, a body block leading to its container. A trigger block the starter
 * leads to starts nothing of its own: its runs start at the starter.
 */
export function runEntries(graph: FlowGraph): string[] {
  const starter = Object.values(graph.blocks).find((b) => b.type === 'starter');
  if (!starter) return [];
  const forward = new Map<string, string[]>();
  for (const e of graph.edges) if (graph.blocks[e.source] && graph.blocks[e.target]) pushTo(forward, e.source, e.target);
  for (const [child, parent] of graph.parents) pushTo(forward, child, parent);
  const fromStarter = reach([starter.id], forward);
  const triggers = [...webhookTriggers(graph.blocks).map((w) => w.blockId), ...scheduleTriggerBlocks(graph.blocks).map((b) => b.id)];
  const entries = [starter.id];
  for (const id of triggers) if (!entries.includes(id) && !graph.parents.has(id) && !fromStarter.has(id)) entries.push(id);
  return entries;
}

/**
 * The blocks a run started at `entry` reaches, as the runner's scheduler does: the top-level blocks
 * `entry` leads to by edges between top-level blocks, and everything inside a container it reaches.
 * Any other block is left unreached (it never runs, so it has no output).
 */
export function entryRuns(graph: FlowGraph, entry: string): Set<string> {
  const topLevel = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (!graph.blocks[e.source] || !graph.blocks[e.target] || graph.parents.has(e.source) || graph.parents.has(e.target)) continue;
    pushTo(topLevel, e.source, e.target);
  }
  const reached = reach([entry], topLevel);
  const children = new Map<string, string[]>();
  for (const [child, parent] of graph.parents) pushTo(children, parent, child);
  return reach([...reached], children);
}

/** What `<start.…>` reads for one run entry and reader, as the runner's `blockIdsNamed` picks it. */
function startBlockFor(graph: FlowGraph, entry: string, upstream: ReadonlySet<string>): string | undefined {
  const starter = Object.values(graph.blocks).find((b) => b.type === 'starter');
  // Blocks named "start" first, then the starter, then the block the run started at: the first upstream one.
  const named = Object.values(graph.blocks).filter((b) => referenceName(b.name) === 'start').map((b) => b.id);
  return [...named, ...(starter ? [starter.id] : []), entry].find((id) => upstream.has(id));
}

/**
 * What a block reads in the runs that reach it: for each block run entry (`runEntries`) whose runs
 * reach `id`, with the blocks those runs reach (`entryRuns`). Memoized per entry.
 */
export interface EntryReading {
  /** The entries whose runs reach the block, each with the blocks that run in them. */
  entries: Array<{ id: string; runs: ReadonlySet<string> }>;
  /** The first entry (by `runEntries` order) whose runs reach the block but not `target`, if any. */
  missingOn(target: string): string | undefined;
  /** The first entry whose runs reach the block where `<start.…>` reads no block that ran, if any. */
  startMissingOn(upstream: ReadonlySet<string>): string | undefined;
}

/** A reader of per-entry runs for one graph: `readingOf(id)` for each block. */
export function entryReadings(graph: FlowGraph): (id: string) => EntryReading {
  const all = runEntries(graph).map((id) => ({ id, runs: entryRuns(graph, id) }));
  return (id) => {
    const entries = all.filter((e) => e.runs.has(id));
    return {
      entries,
      missingOn: (target) => entries.find((e) => !e.runs.has(target))?.id,
      startMissingOn: (upstream) =>
        entries.find((e) => {
          const picked = startBlockFor(graph, e.id, upstream);
          return picked === undefined || !e.runs.has(picked);
        })?.id,
    };
  };
}

/**
 * The blocks `id` may read, nearest first (the containers around it among them): upstream by edges
 * (`upstreamOf`: not the blocks inside an upstream container, whose `results` stand for them) and
 * run before it in every run that reaches it — a block only a run started at another trigger
 * reaches is left out (a block fed by the starter and a webhook block reads neither: a run started
 * at the webhook runs no starter, one started at the starter no webhook block). The editor's `<` menu.
 */
export function readableUpstream(given: FlowState, id: string): string[] {
  const graph = flowGraph(given);
  const reading = entryReadings(graph)(id);
  const into = new Map<string, string[]>();
  for (const e of graph.edges) pushTo(into, e.target, e.source);
  const seen = new Set<string>([id]);
  const order: string[] = [];
  const queue = [id];
  for (let p = graph.parents.get(id); p !== undefined && !seen.has(p); p = graph.parents.get(p)) {
    seen.add(p);
    order.push(p);
    queue.push(p);
  }
  while (queue.length > 0) {
    for (const source of into.get(queue.shift() as string) ?? []) {
      if (seen.has(source) || !graph.blocks[source]) continue;
      seen.add(source);
      order.push(source);
      queue.push(source);
    }
  }
  return order.filter((b) => reading.missingOn(b) === undefined);
}

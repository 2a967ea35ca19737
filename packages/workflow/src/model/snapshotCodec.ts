import { historyEntry } from './history.js';
import type { BlockState, Edge, HistoryEntry, Loop, Parallel, SubBlockValues, VariableSwap, WorkflowGraph, WorkflowState } from './state.js';

/**
 * A full state (history included) with its history stored once: the editor's snapshots and the
 * gateway's GET /state answer. The domain keeps history as full graph snapshots that share unchanged
 * blocks by reference in memory; written as plain JSON every entry would repeat the whole graph (21
 * copies of a 200-block workflow). Here every distinct block, edge and graph object is written once
 * and entries point at it by index; decoding restores the sharing.
 */
export interface LeanSnapshot {
  format: 'lean-1';
  blocks: BlockState[];
  edges: Edge[];
  /** Pooled block records: block id → index into `blocks`. */
  blockSets: Array<Record<string, number>>;
  /** Pooled edge lists: indexes into `edges`. */
  edgeLists: number[][];
  loopSets: Array<Record<string, Loop>>;
  parallelSets: Array<Record<string, Parallel>>;
  graphs: Array<{ b: number; e: number; l: number; p: number }>;
  /** The state without graph and history, plus the index of its graph. */
  rest: Omit<WorkflowState, keyof WorkflowGraph | 'history'> & { graph: number };
  history: { past: LeanEntry[]; present: LeanEntry; future: LeanEntry[] };
}

/**
 * A history entry; `v` (sub-block values) only in snapshots written before values were left out;
 * `s` the variables the step replaced (a revert to deployed), when it did.
 */
interface LeanEntry {
  g: number;
  t: number;
  a: string;
  v?: SubBlockValues;
  s?: VariableSwap;
}

/** Interns objects by identity into an array, answering each one's index. */
function pool<T extends object, S = T>(encode: (value: T) => S = (v) => v as unknown as S) {
  const index = new Map<T, number>();
  const items: S[] = [];
  return {
    items,
    add(value: T): number {
      let at = index.get(value);
      if (at === undefined) {
        at = items.length;
        index.set(value, at);
        items.push(encode(value));
      }
      return at;
    },
  };
}

/** Encodes a full state (with history) into the lean snapshot form. */
export function encodeSnapshot(state: WorkflowState): LeanSnapshot {
  const blocks = pool<BlockState>();
  const edges = pool<Edge>();
  const blockSets = pool<Record<string, BlockState>, Record<string, number>>((set) => Object.fromEntries(Object.entries(set).map(([id, b]) => [id, blocks.add(b)])));
  const edgeLists = pool<Edge[], number[]>((list) => list.map((e) => edges.add(e)));
  const loopSets = pool<Record<string, Loop>>();
  const parallelSets = pool<Record<string, Parallel>>();
  const graphKeys = new Map<string, number>();
  const graphs: LeanSnapshot['graphs'] = [];
  const graph = (g: WorkflowGraph): number => {
    const ref = { b: blockSets.add(g.blocks), e: edgeLists.add(g.edges), l: loopSets.add(g.loops), p: parallelSets.add(g.parallels) };
    const key = `${ref.b}/${ref.e}/${ref.l}/${ref.p}`;
    let at = graphKeys.get(key);
    if (at === undefined) {
      at = graphs.length;
      graphKeys.set(key, at);
      graphs.push(ref);
    }
    return at;
  };
  const entry = (e: HistoryEntry): LeanEntry => {
    // An entry's sub-block values are its graph's (the domain builds every entry that way), so they
    // are not written; decoding works them out again when they are read.
    return { g: graph(e.state), t: e.timestamp, a: e.action, ...(e.variableSwap === undefined ? {} : { s: e.variableSwap }) };
  };
  const { blocks: _b, edges: _e, loops: _l, parallels: _p, history, ...rest } = state;
  const history_ = { past: history.past.map(entry), present: entry(history.present), future: history.future.map(entry) };
  return {
    format: 'lean-1',
    rest: { ...rest, graph: graph(state) },
    history: history_,
    blocks: blocks.items,
    edges: edges.items,
    blockSets: blockSets.items,
    edgeLists: edgeLists.items,
    loopSets: loopSets.items,
    parallelSets: parallelSets.items,
    graphs,
  };
}

function isLean(value: unknown): value is LeanSnapshot {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'lean-1';
}

/** Decodes a lean snapshot (parsed JSON), or a plain state written before the lean form existed. */
export function decodeSnapshot(stored: unknown): WorkflowState {
  // Only encodeSnapshot's callers write these (editor snapshots, its GetFullState answer); the older form is the state itself.
  if (!isLean(stored)) return stored as WorkflowState;
  const blockSets = stored.blockSets.map((set) => Object.fromEntries(Object.entries(set).map(([id, i]) => [id, at(stored.blocks, i)])));
  const edgeLists = stored.edgeLists.map((list) => list.map((i) => at(stored.edges, i)));
  const graphs = stored.graphs.map(
    (g): WorkflowGraph => ({ blocks: at(blockSets, g.b), edges: at(edgeLists, g.e), loops: at(stored.loopSets, g.l), parallels: at(stored.parallelSets, g.p) }),
  );
  const entry = (e: LeanEntry): HistoryEntry => {
    const state = at(graphs, e.g);
    if (e.v !== undefined) return { state, timestamp: e.t, action: e.a, subblockValues: e.v, ...(e.s === undefined ? {} : { variableSwap: e.s }) };
    return historyEntry(state, e.t, e.a, e.s);
  };
  const { graph, ...rest } = stored.rest;
  return {
    ...at(graphs, graph),
    ...rest,
    history: { past: stored.history.past.map(entry), present: entry(stored.history.present), future: stored.history.future.map(entry) },
  };
}

function at<T>(items: T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`Corrupt snapshot: no item ${index}`);
  return item;
}

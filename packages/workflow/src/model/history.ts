import { ownValue, setOwn } from './ownKeys.js';
import type { History, HistoryEntry, SubBlockValues, Variable, VariableSwap, WorkflowGraph } from './state.js';

/** Undo history keeps the last 20 past entries (§9). */
const MAX_PAST_ENTRIES = 20;

/** blockId → subBlockId → value of a graph, as history entries carry them. */
function subblockValuesOf(graph: WorkflowGraph): SubBlockValues {
  const values: SubBlockValues = {};
  for (const block of Object.values(graph.blocks)) {
    const byId: Record<string, unknown> = {};
    for (const sub of Object.values(block.subBlocks)) setOwn(byId, sub.id, sub.value);
    setOwn(values, block.id, byId);
  }
  return values;
}

/**
 * A history entry for a graph. Its sub-block values follow from the graph, so they are worked out
 * the first time they are read (a snapshot, a history export) rather than on every edit, where
 * copying every block's values was most of an edit's cost on a large workflow.
 */
function historyEntry(graph: WorkflowGraph, timestamp: number, action: string, variableSwap?: VariableSwap): HistoryEntry {
  let values: SubBlockValues | undefined;
  return {
    state: graph,
    timestamp,
    action,
    get subblockValues() {
      return (values ??= subblockValuesOf(graph));
    },
    ...(variableSwap === undefined ? {} : { variableSwap }),
  };
}

/** Record a new present; the old present joins the past and the future is cleared. */
function pushHistory(history: History, entry: HistoryEntry): History {
  return { past: [...history.past, history.present].slice(-MAX_PAST_ENTRIES), present: entry, future: [] };
}

/**
 * The present replaced by a later state of the same step (an event with `joinsStep`): past is kept,
 * so one undo goes back to before the whole step; the future was cleared when the step began.
 */
function amendPresent(history: History, entry: HistoryEntry): History {
  return { past: history.past, present: entry, future: [] };
}

/** Keep the present in step with a graph changed outside history (e.g. a variable rename). */
function refreshPresent(history: History, graph: WorkflowGraph): History {
  const { present } = history;
  return { ...history, present: historyEntry(graph, present.timestamp, present.action, present.variableSwap) };
}

function undoHistory(history: History): History | undefined {
  const previous = history.past.at(-1);
  if (previous === undefined) return undefined;
  return { past: history.past.slice(0, -1), present: previous, future: [history.present, ...history.future] };
}

function redoHistory(history: History): History | undefined {
  const next = history.future[0];
  if (next === undefined) return undefined;
  return { past: [...history.past, history.present], present: next, future: history.future.slice(1) };
}

/** Index runs over past, present and future in that order, as the history view lists them. */
function revertHistory(history: History, index: number): History | undefined {
  const all = [...history.past, history.present, ...history.future];
  const target = all[index];
  if (target === undefined) return undefined;
  return { past: all.slice(0, index), present: target, future: all.slice(index + 1) };
}

/**
 * The variables after moving from the present to entry `index` (as `revertHistory` counts): each
 * step undone that had replaced variables (a revert to deployed) puts back the ones before it, each
 * step redone the ones after it, in the order they are crossed. Variables are not in the history
 * otherwise, so only a variable still as the step left it is swapped: one added, edited or removed
 * since is the user's and stays as it is (an undo must never throw away what was typed after).
 */
function variablesAcross(history: History, index: number, variables: Record<string, Variable>): Record<string, Variable> {
  const all = [...history.past, history.present, ...history.future];
  const from = history.past.length;
  let result = variables;
  for (let i = from; i > index; i--) {
    const swap = all[i]?.variableSwap;
    if (swap) result = swapped(result, swap.after, swap.before);
  }
  for (let i = from + 1; i <= index && i < all.length; i++) {
    const swap = all[i]?.variableSwap;
    if (swap) result = swapped(result, swap.before, swap.after);
  }
  return result;
}

/** `variables` with each one still as `was` has it set as `becomes` has it (absent: removed); the rest kept. */
function swapped(variables: Record<string, Variable>, was: Record<string, Variable>, becomes: Record<string, Variable>): Record<string, Variable> {
  const result = { ...variables };
  for (const id of new Set([...Object.keys(was), ...Object.keys(becomes)])) {
    if (!sameJson(ownValue(variables, id), ownValue(was, id))) continue;
    const next = ownValue(becomes, id);
    if (next === undefined) {
      delete result[id];
      continue;
    }
    // A variable the user has made since under the same name keeps it: the step's one stays out.
    const taken = Object.values(result).some((v) => v.id !== id && v.name === next.name);
    if (!taken) setOwn(result, id, next);
  }
  return result;
}

/** Whether two JSON values are alike (object keys in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

type HistoryItem = { index: number; action: string; timestamp: number };

/** What GET /history answers: labels and timestamps, without the snapshots. */
type HistoryView = { past: HistoryItem[]; present: HistoryItem; future: HistoryItem[] };

/** Labels and timestamps of the history; indexes are the ones `revertToHistory` takes. */
function historyView(history: History): HistoryView {
  const item = (entry: HistoryEntry, index: number): HistoryItem => ({
    index,
    action: entry.action,
    timestamp: entry.timestamp,
  });
  const presentIndex = history.past.length;
  return {
    past: history.past.map(item),
    present: item(history.present, presentIndex),
    future: history.future.map((entry, i) => item(entry, presentIndex + 1 + i)),
  };
}

export {
  MAX_PAST_ENTRIES,
  subblockValuesOf,
  historyEntry,
  pushHistory,
  amendPresent,
  refreshPresent,
  undoHistory,
  redoHistory,
  revertHistory,
  variablesAcross,
  historyView,
};
export type { HistoryItem, HistoryView };

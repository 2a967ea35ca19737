import { isGraphEvent, type GraphEvent, type WorkflowEvent } from '../events.js';
import { applyValueChanges, graphWith } from '../model/graph.js';
import {
  amendPresent,
  historyEntry,
  pushHistory,
  redoHistory,
  refreshPresent,
  revertHistory,
  undoHistory,
  variablesAcross,
} from '../model/history.js';
import type { History, Variable, WorkflowGraph, WorkflowState } from '../model/state.js';
import { graphOf, initialState } from '../model/state.js';
import { actionLabel, applyGraphEvent } from './graph.evolve.js';

function withGraph(state: WorkflowState, graph: WorkflowGraph, history: History, at: number): WorkflowState {
  return { ...state, ...graph, history, lastSaved: at };
}

/** An edit: new graph and one new history entry. */
function edited(state: WorkflowState, graph: WorkflowGraph, at: number, action: string): WorkflowState {
  return withGraph(state, graph, pushHistory(state.history, historyEntry(graph, at, action)), at);
}

/**
 * Move through history to entry `index` (past, present, future counted in order): the graph becomes
 * that entry's snapshot, and a step crossed that replaced the variables (a revert to deployed) swaps
 * them back (undone) or again (redone).
 */
function moved(state: WorkflowState, history: History | undefined, at: number, index: number): WorkflowState {
  if (history === undefined) return state;
  const variables = variablesAcross(state.history, index, state.variables);
  return { ...withGraph(state, history.present.state, history, at), variables };
}

function withVariables(state: WorkflowState, variables: Record<string, Variable>, at: number): WorkflowState {
  return { ...state, variables, lastSaved: at };
}

/** Labels of layout edits that lead a step (a container grown before the block dropped into it): the step takes the next label. */
const LAYOUT_LABELS: ReadonlySet<string> = new Set(['Move block', 'Resize block']);

/**
 * An edit pushes a history entry; one that joins the step before it (`joinsStep`, the same user
 * action) replaces that entry, keeping its label unless the label was only layout.
 */
function applyEdit(state: WorkflowState, event: GraphEvent): WorkflowState {
  const before = graphOf(state);
  const graph = applyGraphEvent(before, event);
  if (event.joinsStep !== true) return edited(state, graph, event.at, actionLabel(event, before));
  const { action } = state.history.present;
  const label = LAYOUT_LABELS.has(action) ? actionLabel(event, before) : action;
  const entry = historyEntry(graph, event.at, label, state.history.present.variableSwap);
  return withGraph(state, graph, amendPresent(state.history, entry), event.at);
}

/**
 * Fold one event into the state; pure, so the browser and the service agree. An event of a type
 * this build does not know (written by a newer Weft) leaves the state as it is, with no history
 * entry: callers that fold events from storage or the wire check `isKnownEvent` first and refuse or
 * resync, since a state that skipped an edit is no longer the server's.
 */
function evolve(state: WorkflowState, event: WorkflowEvent): WorkflowState {
  switch (event.type) {
    case 'workflowStarted': {
      const graph = graphWith({ [event.block.id]: event.block }, []);
      const history = { past: [], present: historyEntry(graph, event.at, 'Initial state'), future: [] };
      return withGraph(state, graph, history, event.at);
    }
    case 'undone':
      return moved(state, undoHistory(state.history), event.at, state.history.past.length - 1);
    case 'redone':
      return moved(state, redoHistory(state.history), event.at, state.history.past.length + 1);
    case 'historyReverted':
      return moved(state, revertHistory(state.history, event.index), event.at, event.index);
    case 'revertedToDeployed': {
      const graph = graphWith(event.blocks, event.edges);
      // The deployed variables replace the draft's in this one step, so its undo brings the draft's back.
      const swap = event.variables === undefined ? undefined : { before: state.variables, after: event.variables };
      const history = pushHistory(state.history, historyEntry(graph, event.at, 'Revert to deployed', swap));
      return {
        ...withGraph(state, graph, history, event.at),
        ...(swap === undefined ? {} : { variables: swap.after }),
        isDeployed: event.isDeployed ?? true,
        deployedAt: event.deployedAt,
        needsRedeployment: event.needsRedeployment ?? false,
        hasActiveWebhook: event.hasActiveWebhook,
      };
    }
    case 'variableAdded':
    case 'variableDuplicated':
      return withVariables(state, { ...state.variables, [event.variable.id]: event.variable }, event.at);
    case 'variableUpdated': {
      const graph = applyValueChanges(graphOf(state), event.rewrites);
      const next = withGraph(state, graph, refreshPresent(state.history, graph), event.at);
      return withVariables(next, { ...state.variables, [event.variable.id]: event.variable }, event.at);
    }
    case 'variableDeleted': {
      const { [event.id]: _removed, ...variables } = state.variables;
      return withVariables(state, variables, event.at);
    }
    case 'variablesReplaced':
      return withVariables(state, event.variables, event.at);
    case 'deploymentStatusSet':
      return { ...state, isDeployed: event.isDeployed, deployedAt: event.deployedAt, lastSaved: event.at };
    case 'needsRedeploymentSet':
      return { ...state, needsRedeployment: event.needsRedeployment, lastSaved: event.at };
    case 'webhookActiveSet':
      return { ...state, hasActiveWebhook: event.hasActiveWebhook, lastSaved: event.at };
    default:
      // Typed as a graph event, but at runtime it may be a type this build has never heard of.
      return isGraphEvent(event) ? applyEdit(state, event) : state;
  }
}

/** Fold events in order, from the initial state or a snapshot. */
function replay(events: readonly WorkflowEvent[], from: WorkflowState = initialState()): WorkflowState {
  return events.reduce(evolve, from);
}

export { evolve, replay };

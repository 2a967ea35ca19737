import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import type { Edge, WorkflowGraph } from '../model/state.js';
import { requireBlock } from './guards.js';

function sameConnection(a: Edge, b: Edge): boolean {
  return (
    a.source === b.source &&
    a.target === b.target &&
    (a.sourceHandle ?? null) === (b.sourceHandle ?? null) &&
    (a.targetHandle ?? null) === (b.targetHandle ?? null)
  );
}

/** A duplicate connection is ignored: no event (§4 Add or remove edge). */
function decideAddEdge(graph: WorkflowGraph, command: CommandOf<'addEdge'>, ctx: DecideContext): WorkflowEvent[] {
  requireBlock(graph, command.source);
  requireBlock(graph, command.target);
  const edge: Edge = { id: command.id ?? '', source: command.source, target: command.target };
  if (command.sourceHandle !== undefined) edge.sourceHandle = command.sourceHandle;
  if (command.targetHandle !== undefined) edge.targetHandle = command.targetHandle;
  if (graph.edges.some((existing) => sameConnection(existing, edge))) return [];
  edge.id = command.id ?? ctx.newId();
  if (graph.edges.some((existing) => existing.id === edge.id)) {
    throw new WorkflowError('conflict', `Edge id ${edge.id} is already in use`);
  }
  return [{ type: 'edgeAdded', at: ctx.now, edge }];
}

/** Removing a missing edge only warns: no event and no refusal (§4). */
function decideRemoveEdge(graph: WorkflowGraph, command: CommandOf<'removeEdge'>, ctx: DecideContext): WorkflowEvent[] {
  if (!graph.edges.some((edge) => edge.id === command.id)) return [];
  return [{ type: 'edgeRemoved', at: ctx.now, id: command.id }];
}

export { decideAddEdge, decideRemoveEdge };

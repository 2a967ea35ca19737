import { WorkflowError } from '../errors.js';
import { hasOwnKey, ownValue } from '../model/ownKeys.js';
import type { BlockState, WorkflowGraph } from '../model/state.js';

/** The block with this id, or a 'not_found' refusal. */
function requireBlock(graph: WorkflowGraph, id: string, message = `Block ${id} not found`): BlockState {
  const block = ownValue(graph.blocks, id);
  if (block === undefined) throw new WorkflowError('not_found', message);
  return block;
}

/** Client-supplied ids are accepted, but never one already in use. */
function requireFreeBlockId(graph: WorkflowGraph, id: string): string {
  if (hasOwnKey(graph.blocks, id)) throw new WorkflowError('conflict', `Block id ${id} is already in use`);
  return id;
}

/** Names compared the spec's way: lowercased with spaces removed. */
function normalizeName(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

export { requireBlock, requireFreeBlockId, normalizeName };

import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import type { WorkflowGraph } from '../model/state.js';
import { clampCount, normalizeParallelType } from '../model/subflows.js';
import { requireBlock } from './guards.js';

/** Only loop blocks accept loop updates; counts clamp to 1..50 (§5). */
function decideUpdateLoop(graph: WorkflowGraph, command: CommandOf<'updateLoop'>, ctx: DecideContext): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  if (block.type !== 'loop') throw new WorkflowError('validation', 'Only loop blocks accept loop updates');
  return [
    {
      type: 'loopUpdated',
      at: ctx.now,
      id: block.id,
      ...(command.iterations === undefined ? {} : { iterations: clampCount(command.iterations) }),
      ...(command.loopType === undefined ? {} : { loopType: command.loopType }),
      ...(command.forEachItems === undefined ? {} : { forEachItems: command.forEachItems }),
    },
  ];
}

/** Only parallel blocks accept parallel updates; a type other than 'count' is 'collection' (§3, §5). */
function decideUpdateParallel(
  graph: WorkflowGraph,
  command: CommandOf<'updateParallel'>,
  ctx: DecideContext,
): WorkflowEvent[] {
  const block = requireBlock(graph, command.id);
  if (block.type !== 'parallel') throw new WorkflowError('validation', 'Only parallel blocks accept parallel updates');
  return [
    {
      type: 'parallelUpdated',
      at: ctx.now,
      id: block.id,
      ...(command.count === undefined ? {} : { count: clampCount(command.count) }),
      ...(command.distribution === undefined ? {} : { distribution: command.distribution }),
      ...(command.parallelType === undefined ? {} : { parallelType: normalizeParallelType(command.parallelType) }),
    },
  ];
}

export { decideUpdateLoop, decideUpdateParallel };

import type { CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import type { WorkflowEvent } from '../events.js';
import { graphWith } from '../model/graph.js';
import { makeVariable } from '../model/variables.js';
import type { WorkflowState } from '../model/state.js';

type HistoryCommand = CommandOf<'undo' | 'redo' | 'revertToHistory' | 'revertToDeployed' | 'clearWorkflow'>;

/** Whether the deployed starter block starts the workflow by webhook (§4 Revert to deployed). */
function startsByWebhook(blocks: WorkflowState['blocks']): boolean {
  return Object.values(blocks).some(
    (block) => block.type === 'starter' && block.subBlocks['startWorkflow']?.value === 'webhook',
  );
}

/** Undo needs past entries and redo future ones; otherwise nothing happens (§4). */
function decideHistory(state: WorkflowState, command: HistoryCommand, ctx: DecideContext): WorkflowEvent[] {
  const at = ctx.now;
  const { past, future } = state.history;
  switch (command.type) {
    case 'undo':
      return past.length === 0 ? [] : [{ type: 'undone', at }];
    case 'redo':
      return future.length === 0 ? [] : [{ type: 'redone', at }];
    case 'revertToHistory': {
      const total = past.length + 1 + future.length;
      if (command.index >= total) throw new WorkflowError('not_found', `History entry ${command.index} not found`);
      return command.index === past.length ? [] : [{ type: 'historyReverted', at, index: command.index }];
    }
    case 'clearWorkflow':
      return [{ type: 'workflowCleared', at }];
    case 'revertToDeployed': {
      const deployed = ctx.deployedState;
      if (deployed === undefined) throw new WorkflowError('not_found', 'No deployed state found');
      const graph = graphWith(structuredClone(deployed.blocks), structuredClone(deployed.edges));
      // The deployed variables come back too, in the same history step (one undo brings the draft's
      // back), so the draft runs as the deployment does. A deployment saved before variables were
      // kept has none recorded: the draft's stay as they are. (Events stored before the revert
      // carried them had a variablesReplaced after it, outside history; they fold as they did.)
      const workflowId = ctx.workflowId ?? '';
      const variables =
        deployed.variables === undefined
          ? undefined
          : Object.fromEntries(
              Object.values(deployed.variables).map((v) => [v.id, makeVariable({ id: v.id, workflowId, name: v.name, type: v.type, value: structuredClone(v.value) })]),
            );
      return [
        {
          type: 'revertedToDeployed',
          at,
          blocks: graph.blocks,
          edges: graph.edges,
          deployedAt: deployed.deployedAt ?? state.deployedAt ?? at,
          hasActiveWebhook: startsByWebhook(graph.blocks),
          ...(variables === undefined ? {} : { variables }),
        },
      ];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

export { decideHistory };

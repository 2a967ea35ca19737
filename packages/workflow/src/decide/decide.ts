import type { Command, CommandOf } from '../commands.js';
import type { DecideContext } from '../context.js';
import { WorkflowError } from '../errors.js';
import { isGraphEvent, type WorkflowEvent } from '../events.js';
import { evolve } from '../evolve/evolve.js';
import { graphWith } from '../model/graph.js';
import type { WorkflowState } from '../model/state.js';
import { decideImportYaml } from '../yaml/importYaml.decide.js';
import { decideAddBlock, decideDuplicateBlock } from './addBlock.decide.js';
import {
  decideGrowBlock,
  decideRemoveBlock,
  decideRenameBlock,
  decideSetAdvancedMode,
  decideSetParent,
  decideSetSubBlockValue,
  decideSimpleEdit,
} from './blockEdits.decide.js';
import { decideAddEdge, decideRemoveEdge } from './edges.decide.js';
import { decideHistory } from './history.decide.js';
import { decideUpdateLoop, decideUpdateParallel } from './subflows.decide.js';
import { decideVariable } from './variables.decide.js';
import { firstBadBlockName } from './blockNames.js';
import { describeStarters, extraStarters } from './oneStarter.js';
import { firstNestedTrigger } from './topLevelTriggers.js';

/** The commands that set deployment flags (§4 Deployment): the registry owns them, so only it may send them. */
const DEPLOYMENT_COMMAND_TYPES = ['setDeployed', 'setNeedsRedeployment', 'setWebhookActive'] as const;
type DeploymentCommand = CommandOf<(typeof DEPLOYMENT_COMMAND_TYPES)[number]>;
/** DEPLOYMENT_COMMAND_TYPES as a set of command types: the editor and the gateway refuse them from anyone but the registry. */
export const DEPLOYMENT_COMMANDS: ReadonlySet<string> = new Set(DEPLOYMENT_COMMAND_TYPES);

/** Deployment flags (§4 Deployment): deployedAt defaults to now; undeploying keeps needsRedeployment. */
function decideDeployment(command: DeploymentCommand, ctx: DecideContext): WorkflowEvent[] {
  const at = ctx.now;
  switch (command.type) {
    case 'setDeployed':
      return [
        {
          type: 'deploymentStatusSet',
          at,
          isDeployed: command.isDeployed,
          deployedAt: command.isDeployed ? (command.deployedAt ?? at) : null,
        },
      ];
    case 'setNeedsRedeployment':
      return [{ type: 'needsRedeploymentSet', at, needsRedeployment: command.needsRedeployment }];
    case 'setWebhookActive':
      return [{ type: 'webhookActiveSet', at, hasActiveWebhook: command.hasActiveWebhook }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/**
 * A whole-state save (POST /api/workflows/sync, a workflow's copy, a copilot checkpoint's revert) as
 * one undoable event. A copy (`ctx.copiedState`) keeps the source's starters as they are, even two
 * stored before the rule; a revert naming `restoresVersion` keeps what the workflow held at that
 * version (`ctx.restoredStates`).
 */
function decideReplaceState(state: WorkflowState, command: CommandOf<'replaceState'>, ctx: DecideContext): WorkflowEvent[] {
  // What the workflow itself held before — its undo history's states — counts as stored, as the
  // copied state does: a save putting back an earlier state (the copilot's revert of a checkpoint, a
  // sync of an undone edit) keeps two starters, a nested trigger or a name clash stored before the rules.
  // So does the workflow's state at the version the save restores (a checkpoint older than the history).
  const { past, present, future } = state.history;
  const restored = command.restoresVersion === undefined ? undefined : ctx.restoredStates?.[command.restoresVersion];
  const held = [
    ...(ctx.copiedState === undefined ? [] : [ctx.copiedState]),
    ...(restored === undefined ? [] : [restored]),
    ...[...past, present, ...future].map((entry) => entry.state),
  ];
  const starters = extraStarters(state, command.blocks, held);
  if (starters !== undefined) throw new WorkflowError('validation', `Invalid command: blocks: ${describeStarters(starters)}`);
  const placed = Object.fromEntries(Object.entries(command.blocks).map(([id, b]) => [id, { type: b.type, name: b.name, parentId: b.data.parentId }]));
  const nested = firstNestedTrigger(state, placed, ctx, held);
  if (nested !== undefined) throw new WorkflowError('validation', `Invalid command: blocks.${nested.id}.data.parentId: ${nested.reason}`);
  const badName = firstBadBlockName(state, command.blocks, held);
  if (badName !== undefined) throw new WorkflowError('validation', `Invalid command: blocks.${badName.id}.name: ${badName.reason}`);
  const graph = graphWith(structuredClone(command.blocks), structuredClone(command.edges));
  return [{ type: 'stateReplaced', at: ctx.now, blocks: graph.blocks, edges: graph.edges }];
}

/** Turn a command into events, or throw a WorkflowError; never changes `state`. */
function decide(state: WorkflowState, command: Command, ctx: DecideContext): WorkflowEvent[] {
  switch (command.type) {
    case 'addBlock':
      return decideAddBlock(state, command, ctx);
    case 'duplicateBlock':
      return decideDuplicateBlock(state, command, ctx);
    case 'moveBlock':
    case 'resizeBlock':
    case 'toggleEnabled':
    case 'toggleHandles':
    case 'setWide':
      return decideSimpleEdit(state, command, ctx);
    case 'growBlock':
      return decideGrowBlock(state, command, ctx);
    case 'setParent':
      return decideSetParent(state, command, ctx);
    case 'removeBlock':
      return decideRemoveBlock(state, command, ctx);
    case 'setAdvancedMode':
      return decideSetAdvancedMode(state, command, ctx);
    case 'renameBlock':
      return decideRenameBlock(state, command, ctx);
    case 'setSubBlockValue':
      return decideSetSubBlockValue(state, command, ctx);
    case 'addEdge':
      return decideAddEdge(state, command, ctx);
    case 'removeEdge':
      return decideRemoveEdge(state, command, ctx);
    case 'updateLoop':
      return decideUpdateLoop(state, command, ctx);
    case 'updateParallel':
      return decideUpdateParallel(state, command, ctx);
    case 'clearWorkflow':
    case 'undo':
    case 'redo':
    case 'revertToHistory':
    case 'revertToDeployed':
      return decideHistory(state, command, ctx);
    case 'addVariable':
    case 'updateVariable':
    case 'deleteVariable':
    case 'duplicateVariable':
    case 'replaceVariables':
      return decideVariable(state, command, ctx);
    case 'importYaml':
      return decideImportYaml(state, command, ctx);
    case 'replaceState':
      return decideReplaceState(state, command, ctx);
    case 'setDeployed':
    case 'setNeedsRedeployment':
    case 'setWebhookActive':
      return decideDeployment(command, ctx);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Whether the history step a batch's graph events join stays open after this event: a new edit opens it, moving through history closes it. */
function stepOpenAfter(event: WorkflowEvent, open: boolean): boolean {
  if (isGraphEvent(event) || event.type === 'revertedToDeployed') return true;
  return event.type === 'undone' || event.type === 'redone' || event.type === 'historyReverted' || event.type === 'workflowStarted' ? false : open;
}

/**
 * Decide a batch atomically: each command sees the previous ones' effects; one refusal refuses all.
 * A batch is one user action (a paste of blocks and edges, a drop that grows containers and adds a
 * block, a delete of blocks and edges), so it is one undo step: every graph event after the batch's
 * first edit is marked `joinsStep`. The batch's events are stored one after another, so no other
 * editor's edit can fall inside the step and be undone with it.
 */
function decideBatch(state: WorkflowState, commands: readonly Command[], ctx: DecideContext): WorkflowEvent[] {
  return decideAndApply(state, commands, ctx).events;
}

/** Like decideBatch (one undo step per batch), and also answers the state the events lead to (folded once, not again by the caller). */
function decideAndApply(state: WorkflowState, commands: readonly Command[], ctx: DecideContext): { events: WorkflowEvent[]; state: WorkflowState } {
  const events: WorkflowEvent[] = [];
  let current = state;
  let stepOpen = false;
  for (const command of commands) {
    for (const decided of decide(current, command, ctx)) {
      const event = stepOpen && isGraphEvent(decided) ? { ...decided, joinsStep: true as const } : decided;
      stepOpen = stepOpenAfter(event, stepOpen);
      current = evolve(current, event);
      events.push(event);
    }
  }
  return { events, state: current };
}

export { decide, decideBatch, decideAndApply };

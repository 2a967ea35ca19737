import { getBlocksAndTools, getBlocksMetadata } from '@weft/catalog';
import { toAppError } from '@weft/platform';
import { yamlStructureGuide, WorkflowError } from '@weft/workflow';
import type { ModelToolCall } from '@weft/contracts';
import type { ChatStore } from './store/chatStore.js';
import type { Ports } from './ports.js';
import type { ToolOutcome } from './types.js';
import { proposedDiff } from './diff.js';

/** Which turn a tool call belongs to. */
export interface ToolCallScope {
  turnId: string;
  chatId: string;
  workflowId: string;
  actorId: string;
  propose: boolean;
}

/** How many times an edit is retried when someone else edited between reading and writing. */
const EDIT_ATTEMPTS = 3;

/** Ids derived from the turn and the call, so a retried activity finds what the first attempt stored. */
export const checkpointIdOf = (turnId: string, callId: string) => `cp_${turnId}_${callId}`;
export const proposalIdOf = (turnId: string, callId: string) => `pr_${turnId}_${callId}`;

/** Applies YAML through the editor's import as one undoable event, keeping the state before it as a checkpoint. */
export async function applyYamlEdit(
  deps: { ports: Ports; store: ChatStore },
  input: { workflowId: string; actorId: string; chatId: string; turnId: string; checkpointId: string; yamlContent: string; description?: string | undefined; applyAutoLayout?: boolean },
): Promise<{ version: number; checkpointId: string; warnings?: string[] }> {
  for (let attempt = 1; ; attempt++) {
    const before = await deps.ports.editor.getState(input.workflowId);
    // The version goes with it: a revert names it, and the editor then takes back what the workflow held at it.
    // A later attempt replaces the checkpoint: the earlier one's edit was refused, so the state before this one is the one to keep.
    await deps.store.saveCheckpoint({
      id: input.checkpointId,
      chatId: input.chatId,
      workflowId: input.workflowId,
      turnId: input.turnId,
      description: input.description,
      state: before.state,
      version: before.version,
      replace: attempt > 1,
    });
    const command = {
      type: 'importYaml',
      yamlContent: input.yamlContent,
      ...(input.description ? { description: input.description } : {}),
      applyAutoLayout: input.applyAutoLayout ?? true,
      createCheckpoint: true,
    };
    try {
      const out = await deps.ports.editor.execute(input.workflowId, input.actorId, [command], { expectedVersion: before.version, commandId: input.checkpointId });
      return { version: out.version, checkpointId: input.checkpointId, ...(out.warnings === undefined ? {} : { warnings: out.warnings }) };
    } catch (err) {
      if (toAppError(err).code !== 'conflict' || attempt >= EDIT_ATTEMPTS) throw err;
    }
  }
}

function argString(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  return typeof v === 'string' ? v : undefined;
}

async function editWorkflow(deps: { ports: Ports; store: ChatStore }, scope: ToolCallScope, call: ModelToolCall): Promise<ToolOutcome> {
  const yamlContent = argString(call.arguments, 'yamlContent');
  if (yamlContent === undefined || yamlContent.trim() === '') return { success: false, error: 'Edit workflow failed: yamlContent is required' };
  const description = argString(call.arguments, 'description');
  try {
    if (scope.propose) {
      const current = await deps.ports.editor.getState(scope.workflowId);
      const diff = proposedDiff(yamlContent, current.state);
      const proposalId = proposalIdOf(scope.turnId, call.id);
      await deps.store.saveProposal({ id: proposalId, chatId: scope.chatId, workflowId: scope.workflowId, turnId: scope.turnId, yamlContent, description, diff });
      const warnings = diff.warnings === undefined ? {} : { warnings: diff.warnings };
      return { success: true, proposalId, data: { message: 'The edit is shown to the user as a diff to accept or reject.', proposalId, diff, ...warnings } };
    }
    const out = await applyYamlEdit(deps, { ...scope, checkpointId: checkpointIdOf(scope.turnId, call.id), yamlContent, description });
    const graph = await deps.ports.editor.getState(scope.workflowId);
    const blocks = Object.keys(graph.state.blocks).length;
    return {
      success: true,
      checkpointId: out.checkpointId,
      data: {
        message: `Workflow saved from YAML: ${blocks} blocks, ${graph.state.edges.length} connections`,
        version: out.version,
        checkpointId: out.checkpointId,
        // The model reads what the import left out (a second starter), so it can tell the user or edit again.
        ...(out.warnings === undefined ? {} : { warnings: out.warnings }),
      },
    };
  } catch (err) {
    if (err instanceof WorkflowError) return { success: false, error: `Edit workflow failed: ${err.message}` };
    const appErr = toAppError(err);
    if (appErr.code === 'validation' || appErr.code === 'conflict' || appErr.code === 'not_found' || appErr.code === 'forbidden') {
      return { success: false, error: `Edit workflow failed: ${appErr.message}` };
    }
    if (appErr.code === 'unavailable' || appErr.code === 'timeout') return { success: false, error: 'Failed to edit workflow' };
    return { success: false, error: 'An unexpected error occurred while editing the workflow' };
  }
}

/** Runs one copilot tool; every failure is an outcome the model reads (spec 000 §8 messages), never a throw. */
export async function runCopilotTool(deps: { ports: Ports; store: ChatStore }, scope: ToolCallScope, call: ModelToolCall): Promise<ToolOutcome> {
  switch (call.name) {
    case 'get_blocks_and_tools':
      try {
        return { success: true, data: getBlocksAndTools() };
      } catch (err) {
        return { success: false, error: err instanceof Error ? `Failed to get blocks and tools: ${err.message}` : 'An unexpected error occurred while getting blocks and tools' };
      }
    case 'get_blocks_metadata': {
      const ids = call.arguments.blockIds;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
        return { success: false, error: 'Get block metadata failed: 400 Bad Request', hint: 'blockIds must be an array of block type ids' };
      }
      try {
        return { success: true, data: getBlocksMetadata(ids) };
      } catch {
        return { success: false, error: 'Failed to get block metadata' };
      }
    }
    case 'get_yaml_structure':
      try {
        return { success: true, data: yamlStructureGuide() };
      } catch (err) {
        return { success: false, error: err instanceof Error ? `Get YAML structure failed: ${err.message}` : 'Failed to get YAML structure guide' };
      }
    case 'get_user_workflow':
      try {
        return { success: true, data: { yamlContent: await deps.ports.editor.exportYaml(scope.workflowId) } };
      } catch (err) {
        return { success: false, error: `Failed to get the workflow: ${toAppError(err).message}` };
      }
    case 'get_last_run':
      try {
        const run = await deps.ports.runs.lastRun(scope.workflowId);
        return { success: true, data: run ?? { message: 'The workflow has not run yet.' } };
      } catch (err) {
        return { success: false, error: `Failed to get the last run: ${toAppError(err).message}` };
      }
    case 'edit_workflow':
      return editWorkflow(deps, scope, call);
    default:
      return { success: false, error: `Unknown tool: ${call.name}` };
  }
}


import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { AppError } from '@weft/platform';
import type { ChatStore } from './store/chatStore.js';
import type { Ports } from './ports.js';
import type { TurnArgs, TurnResult } from './types.js';
import type { TurnQueues } from './workflows/copilotTurn.workflow.js';
import { isProvider, PROVIDERS, resolveModel, type OperatorDefaults } from './modelChoice.js';
import { applyYamlEdit } from './toolRunner.js';

/** Longest user message accepted in one turn. */
export const MESSAGE_MAX = 20_000;

const TURN_ID = /^[A-Za-z0-9_-]{1,100}$/;

export interface StartChatInput {
  turnId: string;
  workflowId: string;
  workspaceId: string;
  actorId: string;
  message: string;
  chatId?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  propose: boolean;
}

/** The id of a turn's `copilotTurn` workflow. */
export const turnWorkflowId = (turnId: string) => `copilot-turn-${turnId}`;

/** Starts and follows chat turns, and the edits a user makes from a chat (revert, accept, reject). */
export function createTurns(deps: { client: Client; queues: TurnQueues; store: ChatStore; ports: Ports; operator: OperatorDefaults }) {
  return {
    async start(input: StartChatInput): Promise<{ chatId: string; turnId: string; provider: string; model: string }> {
      if (!TURN_ID.test(input.turnId)) throw new AppError('validation', 'turnId must be 1 to 100 letters, digits, _ or -');
      if (!input.workflowId) throw new AppError('validation', 'workflowId is required');
      if (input.message.trim() === '') throw new AppError('validation', 'message is required');
      if (input.message.length > MESSAGE_MAX) throw new AppError('validation', `message must be at most ${MESSAGE_MAX} characters`);
      if (input.provider && !isProvider(input.provider)) throw new AppError('validation', `provider must be one of ${PROVIDERS.join(', ')}`);
      const env = await deps.ports.registry.environment(input.actorId);
      const choice = resolveModel({ provider: input.provider, model: input.model }, env, deps.operator);
      const chat = await deps.store.openChat({ chatId: input.chatId, workflowId: input.workflowId, workspaceId: input.workspaceId, userId: input.actorId, firstMessage: input.message });
      await deps.store.appendMessages(chat.id, input.turnId, [{ role: 'user', content: input.message }], `${input.turnId}:u`);
      const args: TurnArgs = {
        turnId: input.turnId,
        chatId: chat.id,
        workflowId: input.workflowId,
        workspaceId: input.workspaceId,
        actorId: input.actorId,
        message: input.message,
        provider: choice.provider,
        model: choice.model,
        propose: input.propose,
      };
      await deps.client.workflow.start('copilotTurn', { taskQueue: deps.queues.copilot, workflowId: turnWorkflowId(input.turnId), args: [args, deps.queues] });
      return { chatId: chat.id, turnId: input.turnId, provider: choice.provider, model: choice.model };
    },

    async result(turnId: string): Promise<TurnResult> {
      if (!TURN_ID.test(turnId)) throw new AppError('validation', 'turnId must be 1 to 100 letters, digits, _ or -');
      try {
        return await deps.client.workflow.getHandle(turnWorkflowId(turnId)).result();
      } catch (err) {
        if (err instanceof WorkflowFailedError) throw new AppError('internal', `The copilot turn failed: ${err.cause?.message ?? err.message}`);
        if (err instanceof Error && err.name === 'WorkflowNotFoundError') throw new AppError('not_found', `Turn ${turnId} not found`);
        throw err;
      }
    },

    /**
     * Asks a running turn of the chat to stop (its workflow is cancelled; the turn then stores its partial
     * answer marked `stopped` and ends with `stopped: true`). Only the chat's user may; answers once the
     * stop is requested.
     */
    async cancel(chatId: string, turnId: string, actorId: string): Promise<{ turnId: string }> {
      const chat = await deps.store.getChat(chatId);
      if (chat.userId !== actorId) throw new AppError('not_found', `Chat ${chatId} not found`);
      const notFound = () => new AppError('not_found', `Turn ${turnId} not found`);
      if (!TURN_ID.test(turnId) || !(await deps.store.hasTurn(chatId, turnId))) throw notFound();
      const ended = () => new AppError('conflict', `Turn ${turnId} has already ended`);
      const handle = deps.client.workflow.getHandle(turnWorkflowId(turnId));
      try {
        const { status } = await handle.describe();
        if (status.name !== 'RUNNING') throw ended();
        await handle.cancel();
      } catch (err) {
        // Ended between the look and the cancel (Temporal answers a closed workflow as not found), or never started.
        if (err instanceof WorkflowNotFoundError) throw ended();
        throw err;
      }
      return { turnId };
    },

    /**
     * Puts the workflow back as it was before the checkpoint's edit (one undoable event). The save
     * names the version the checkpoint was read at (`restoresVersion`), so the editor takes back what
     * the workflow held then from before the rules (a name clash, a nested trigger, a second starter),
     * however far back it is; a checkpoint stored before versions were kept has only the undo history
     * (the last 20 steps), and past that a revert putting one back is refused naming the block.
     */
    async revert(checkpointId: string, actorId: string): Promise<{ version: number }> {
      const cp = await deps.store.checkpoint(checkpointId);
      const restores = cp.version === null || cp.version < 1 ? {} : { restoresVersion: cp.version };
      return deps.ports.editor.execute(cp.workflowId, actorId, [{ type: 'replaceState', blocks: cp.state.blocks, edges: cp.state.edges, ...restores }]);
    },

    /**
     * Saves a workflow from YAML as an edit of one of the caller's chats of that workflow (PUT /api/workflows/{id}/yaml
     * with chatId and createCheckpoint): the state before it is kept as the chat's checkpoint, revertible like the
     * copilot's own. Its turn id is `yaml_<id>`: no turn of the chat has it, so the panel does not draw it in a turn.
     */
    async saveYamlInChat(input: { chatId: string; workflowId: string; actorId: string; yamlContent: string; description?: string | undefined; applyAutoLayout: boolean }) {
      const chat = await deps.store.getChat(input.chatId);
      if (chat.userId !== input.actorId) throw new AppError('not_found', `Chat ${input.chatId} not found`);
      if (chat.workflowId !== input.workflowId) throw new AppError('validation', 'chatId belongs to another workflow');
      const turnId = `yaml_${randomUUID()}`;
      const checkpointId = `cp_${turnId}`;
      // A refused import (invalid YAML) leaves no checkpoint in the chat: there is no edit to go back from.
      const out = await applyYamlEdit(deps, { ...input, turnId, checkpointId }).catch(async (err: unknown) => {
        await deps.store.dropCheckpoint(checkpointId);
        throw err;
      });
      const graph = await deps.ports.editor.getState(input.workflowId);
      return { ...out, blocks: Object.keys(graph.state.blocks).length, edges: graph.state.edges.length };
    },

    /** Accepts (applies with a checkpoint, answering the import's warnings) or rejects a pending proposal. */
    async decide(proposalId: string, actorId: string, accept: boolean) {
      const proposal = await deps.store.proposal(proposalId);
      if (proposal.status !== 'pending') throw new AppError('conflict', `Proposal ${proposalId} was already ${proposal.status}`);
      if (!accept) {
        await deps.store.settleProposal(proposalId, 'rejected');
        return deps.store.proposal(proposalId);
      }
      const checkpointId = `cp_${proposalId}`;
      const out = await applyYamlEdit(deps, {
        workflowId: proposal.workflowId,
        actorId,
        chatId: proposal.chatId,
        turnId: proposal.turnId,
        checkpointId,
        yamlContent: proposal.yamlContent,
        description: proposal.description ?? undefined,
      });
      await deps.store.settleProposal(proposalId, 'accepted', checkpointId);
      // What the import left out to keep the rules (a second starter), as the applied edit says it.
      const accepted = await deps.store.proposal(proposalId);
      return out.warnings === undefined ? accepted : { ...accepted, warnings: out.warnings };
    },
  };
}

export type Turns = ReturnType<typeof createTurns>;

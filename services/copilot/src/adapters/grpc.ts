import type { ServiceHandlers } from '@weft/platform';
import type { copilot } from '@weft/contracts';
import { COPILOT_TOOLS } from '../tools.js';
import type { ChatStore } from '../store/chatStore.js';
import type { Turns } from '../turns.js';

/** The copilot's gRPC surface: chat turns, chats, checkpoints and proposals. */
export function copilotHandlers(deps: { turns: Turns; store: ChatStore }): ServiceHandlers<typeof copilot.CopilotServiceService> {
  const { turns, store } = deps;
  return {
    async listTools() {
      return { tools: COPILOT_TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJson: JSON.stringify(t.parameters) })) };
    },
    startChat: (req) =>
      turns.start({
        turnId: req.turnId,
        workflowId: req.workflowId,
        workspaceId: req.workspaceId,
        actorId: req.actorId,
        message: req.message,
        chatId: req.chatId,
        provider: req.provider,
        model: req.model,
        propose: req.propose,
      }),
    async awaitTurn(req) {
      return { resultJson: JSON.stringify(await turns.result(req.turnId)) };
    },
    cancelTurn: (req) => turns.cancel(req.chatId, req.turnId, req.actorId),
    async listChats(req) {
      return { chatsJson: JSON.stringify(await store.listChats(req.workflowId, req.actorId)) };
    },
    async getChat(req) {
      const chat = await store.getChat(req.chatId);
      const [messages, checkpoints, proposals] = await Promise.all([store.messages(chat.id), store.checkpoints(chat.id), store.proposals(chat.id)]);
      return { chatJson: JSON.stringify({ ...chat, messages, checkpoints, proposals }) };
    },
    async getCheckpoint(req) {
      const { state: _state, ...checkpoint } = await store.checkpoint(req.checkpointId);
      return { checkpointJson: JSON.stringify(checkpoint) };
    },
    revertCheckpoint: (req) => turns.revert(req.checkpointId, req.actorId),
    async saveYamlInChat(req) {
      const saved = await turns.saveYamlInChat({
        chatId: req.chatId,
        workflowId: req.workflowId,
        actorId: req.actorId,
        yamlContent: req.yamlContent,
        description: req.description,
        applyAutoLayout: req.applyAutoLayout,
      });
      // What the import left out to keep the rules (a second starter): the gateway answers it as the plain save does.
      return { ...saved, warnings: saved.warnings ?? [] };
    },
    async getProposal(req) {
      return { proposalJson: JSON.stringify(await store.proposal(req.proposalId)) };
    },
    async decideProposal(req) {
      return { proposalJson: JSON.stringify(await turns.decide(req.proposalId, req.actorId, req.accept)) };
    },
  };
}

import { z } from 'zod';
import { AppError, answerEach, type Logger, type ServiceHandlers } from '@weft/platform';
import type { editor } from '@weft/contracts';
import { blockStateSchema, edgeSchema, encodeSnapshot, historyView, parseCommands, toYaml, yamlStructureGuide, type DeployedState } from '@weft/workflow';
import type { EventStore } from '../store/eventStore.js';
import type { EventTail } from '../live/eventTail.js';

const MAX_WAIT_MS = 5_000;
/** Longest a ReadEvents call waits for a new event (the gateway polls again after it). */
const MAX_EVENTS_WAIT_MS = 30_000;
const DEFAULT_EVENTS_LIMIT = 500;
const MAX_EVENTS_LIMIT = 5_000;

const deployedStateSchema = z.object({
  blocks: z.record(z.string(), blockStateSchema),
  edges: z.array(edgeSchema),
  deployedAt: z.number().optional(),
});

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation', `${field} must be valid JSON`);
  }
}

function parseDeployedState(text: string | undefined): DeployedState | undefined {
  if (text === undefined || text === '') return undefined;
  const parsed = deployedStateSchema.safeParse(parseJson('deployedStateJson', text));
  if (!parsed.success) throw new AppError('validation', 'deployedStateJson is not a deployed state');
  return parsed.data;
}

function notFound(workflowId: string): AppError {
  return new AppError('not_found', `Workflow ${workflowId} not found`);
}

/** The editor's gRPC surface. */
export function editorHandlers(store: EventStore, tail: EventTail, logger: Logger): ServiceHandlers<typeof editor.EditorServiceService> {
  async function executeCommands(req: editor.ExecuteCommandsRequest): Promise<editor.ExecuteCommandsResponse> {
    if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
    const commands = parseCommands(parseJson('commands', req.commandsJson));
    const res = await store.execute(req.workflowId, commands, {
      expectedVersion: req.expectedVersion,
      commandId: req.commandId,
      deployedState: parseDeployedState(req.deployedStateJson),
    });
    return { version: res.version, eventsJson: JSON.stringify(res.events) };
  }

  return {
    executeCommands,
    async executeCommandsBatch(req) {
      const calls = req.items.map((item) => ({ request: item.request ?? { workflowId: '', commandsJson: '', actorId: '' }, requestId: item.requestId }));
      const outcomes = await answerEach(calls, executeCommands, (err, answered) => {
        if (answered.code === 'internal') logger.error({ err }, 'batched ExecuteCommands failed');
      });
      return { outcomes };
    },
    async getState(req) {
      const deadline = Date.now() + Math.min(Math.max(req.waitMs, 0), MAX_WAIT_MS);
      for (;;) {
        const found = await store.readState(req.workflowId);
        if (found) return found;
        if (Date.now() >= deadline) throw notFound(req.workflowId);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async getStates(req) {
      const found = await store.readStates(req.workflowIds);
      return { states: Object.fromEntries(found) };
    },
    async getFullState(req) {
      const found = await store.current(req.workflowId);
      if (!found) throw notFound(req.workflowId);
      return { version: found.version, stateJson: JSON.stringify(encodeSnapshot(found.state)) };
    },
    async getHistory(req) {
      const found = await store.current(req.workflowId);
      if (!found) throw notFound(req.workflowId);
      return { version: found.version, historyJson: JSON.stringify(historyView(found.state.history)) };
    },
    async getVariables(req) {
      const found = await store.readVariables(req.workflowId);
      if (!found) throw notFound(req.workflowId);
      return found;
    },
    async exportYaml(req) {
      const found = await store.current(req.workflowId);
      if (!found) throw notFound(req.workflowId);
      return { version: found.version, yamlContent: toYaml(found.state) };
    },
    getYamlStructure() {
      return Promise.resolve({ guideJson: JSON.stringify(yamlStructureGuide()) });
    },
    async readEvents(req) {
      const waitMs = Math.min(Math.max(req.waitMs, 0), MAX_EVENTS_WAIT_MS);
      const limit = req.limit > 0 ? Math.min(req.limit, MAX_EVENTS_LIMIT) : DEFAULT_EVENTS_LIMIT;
      const page = await tail.read(req.workflowId, Math.max(req.after, 0), waitMs, limit);
      return { version: page.head, eventsJson: JSON.stringify(page.events) };
    },
  };
}

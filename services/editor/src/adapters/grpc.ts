import { AppError, type ServiceHandlers } from '@weft/platform';
import type { editor } from '@weft/contracts';
import { parseCommands } from '@weft/workflow';
import type { EventStore } from '../store/eventStore.js';

const MAX_WAIT_MS = 5_000;

function parseJson(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation', `${field} must be valid JSON`);
  }
}

/** The editor's gRPC surface. */
export function editorHandlers(store: EventStore): ServiceHandlers<typeof editor.EditorServiceService> {
  return {
    async executeCommands(req) {
      if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
      const commands = parseCommands(parseJson('commands', req.commandsJson));
      const res = await store.execute(req.workflowId, commands, { expectedVersion: req.expectedVersion, commandId: req.commandId });
      return { version: res.version, eventsJson: JSON.stringify(res.events) };
    },
    async getState(req) {
      const deadline = Date.now() + Math.min(Math.max(req.waitMs, 0), MAX_WAIT_MS);
      for (;;) {
        const found = await store.readState(req.workflowId);
        if (found) return { version: found.version, stateJson: JSON.stringify(found.state) };
        if (Date.now() >= deadline) throw new AppError('not_found', `Workflow ${req.workflowId} not found`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async getStates(req) {
      const found = await store.readStates(req.workflowIds);
      return { states: Object.fromEntries([...found].map(([id, s]) => [id, { version: s.version, stateJson: JSON.stringify(s.state) }])) };
    },
  };
}

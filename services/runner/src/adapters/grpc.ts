import type { Kysely } from 'kysely';
import { AppError, type ServiceClient, type ServiceHandlers } from '@weft/platform';
import type { editor, runner } from '@weft/contracts';
import type { RunnerDB } from '../db.js';
import { executeWorkflow, type StartRun } from '../executions.js';
import type { RunnableState } from '../workflows/types.js';

function parseInput(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation', 'input must be JSON');
  }
}

/** The runner's gRPC surface. */
export function runnerHandlers(deps: {
  db: Kysely<RunnerDB>;
  instance: string;
  editor: ServiceClient<typeof editor.EditorServiceService>;
  startRun: StartRun;
  kick: () => void;
}): ServiceHandlers<typeof runner.RunnerServiceService> {
  return {
    async executeWorkflow(req) {
      if (!req.workflowId) throw new AppError('validation', 'workflowId is required');
      const input = parseInput(req.inputJson);
      const { stateJson } = await deps.editor.getState({ workflowId: req.workflowId, waitMs: 0 });
      // The editor's state is the source; this adapter is where its JSON becomes the run's shape.
      const state = JSON.parse(stateJson) as RunnableState;
      const res = await executeWorkflow(deps, req.workflowId, state, input, 'manual');
      return {
        executionId: res.executionId,
        success: res.success,
        outputJson: JSON.stringify(res.output ?? null),
        logsJson: JSON.stringify(res.logs),
        error: res.error,
      };
    },
  };
}

import { z } from 'zod';
import { AppError, type ServiceClient } from '@weft/platform';
import type { editor } from '@weft/contracts';
import type { EditorPort, EditorState, ExecuteCommandsOptions } from '../ports.js';

const stateSchema = z.looseObject({
  blocks: z.record(z.string(), z.looseObject({})).default({}),
  edges: z.array(z.looseObject({})).default([]),
  loops: z.record(z.string(), z.looseObject({})).default({}),
  parallels: z.record(z.string(), z.looseObject({})).default({}),
  variables: z.record(z.string(), z.looseObject({ name: z.string(), type: z.string(), value: z.unknown() })).default({}),
});

function parseState(text: string): EditorState {
  const parsed = stateSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new AppError('internal', 'The editor answered a state the registry cannot read');
  return parsed.data;
}

/** The editor port over the editor's gRPC client. */
export function grpcEditorPort(client: ServiceClient<typeof editor.EditorServiceService>): EditorPort {
  return {
    async getState(workflowId, waitMs = 0) {
      const res = await client.getState({ workflowId, waitMs }, { deadlineMs: waitMs + 10_000 });
      return { version: res.version, state: parseState(res.stateJson) };
    },
    async executeCommands(workflowId: string, commands: unknown[], actorId: string, opts: ExecuteCommandsOptions = {}) {
      const res = await client.executeCommands({
        workflowId,
        commandsJson: JSON.stringify(commands),
        actorId,
        ...(opts.deployedState ? { deployedStateJson: JSON.stringify(opts.deployedState) } : {}),
        ...(opts.copyOf ? { copyOfWorkflowId: opts.copyOf.workflowId, copyOfVersion: opts.copyOf.version } : {}),
      });
      return { version: res.version };
    },
    async dropWorkflows(workflowIds) {
      if (workflowIds.length === 0) return;
      await client.dropWorkflows({ workflowIds });
    },
  };
}

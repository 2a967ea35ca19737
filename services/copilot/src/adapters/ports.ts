import { createServiceClient, serviceAddress, type Config } from '@weft/platform';
import { editor, registry, runner } from '@weft/contracts';
import type { Ports } from '../ports.js';

function parsed(text: string): unknown {
  return text ? (JSON.parse(text) as unknown) : null;
}

/** The ports over gRPC to the editor, the registry and the runner. */
export function grpcPorts(config: Config): Ports & { close(): void } {
  const opts = { deadlineMs: config.GRPC_DEADLINE_MS };
  const editorClient = createServiceClient(editor.EditorServiceService, serviceAddress(config, 'editor'), opts);
  const registryClient = createServiceClient(registry.RegistryServiceService, serviceAddress(config, 'registry'), opts);
  const runsClient = createServiceClient(runner.RunServiceService, serviceAddress(config, 'runner'), opts);
  return {
    editor: {
      async getState(workflowId) {
        const out = await editorClient.getState({ workflowId, waitMs: 0 });
        const state = parsed(out.stateJson) as { blocks?: Record<string, unknown>; edges?: unknown[] } | null;
        return { version: Number(out.version), state: { blocks: state?.blocks ?? {}, edges: state?.edges ?? [] } };
      },
      async exportYaml(workflowId) {
        return (await editorClient.exportYaml({ workflowId })).yamlContent;
      },
      async execute(workflowId, actorId, commands, o = {}) {
        const out = await editorClient.executeCommands({
          workflowId,
          actorId,
          commandsJson: JSON.stringify(commands),
          ...(o.expectedVersion === undefined ? {} : { expectedVersion: o.expectedVersion }),
          ...(o.commandId === undefined ? {} : { commandId: o.commandId }),
        });
        const events = JSON.parse(out.eventsJson) as Array<{ data?: { warnings?: string[] } }>;
        const warnings = events.flatMap((e) => e.data?.warnings ?? []);
        return { version: Number(out.version), ...(warnings.length === 0 ? {} : { warnings }) };
      },
    },
    registry: {
      async environment(actorId) {
        return (await registryClient.getEnvironment({ actor: { userId: actorId } })).variables;
      },
    },
    runs: {
      async lastRun(workflowId) {
        const list = await runsClient.listExecutions({ workflowId, limit: 1 });
        const last = list.executions[0];
        if (!last) return null;
        const { execution } = await runsClient.getExecution({ executionId: last.executionId, withoutLogs: false });
        if (!execution) return null;
        return {
          id: execution.executionId,
          status: execution.status,
          error: execution.error ?? null,
          startedAt: execution.startedAt,
          output: parsed(execution.outputJson),
          logs: parsed(execution.logsJson),
        };
      },
    },
    close() {
      editorClient.close();
      registryClient.close();
      runsClient.close();
    },
  };
}

import { createCallCoalescer, createServiceClient, serviceAddress, type Config } from '@weft/platform';
import { copilot, editor, integrations, registry, registryTriggers, runner, runnerSchedules } from '@weft/contracts';

/** gRPC clients of every service the gateway talks to. */
export function createClients(config: Config) {
  const opts = { deadlineMs: config.GRPC_DEADLINE_MS };
  const editorClient = createServiceClient(editor.EditorServiceService, serviceAddress(config, 'editor'), opts);
  return {
    registry: createServiceClient(registry.RegistryServiceService, serviceAddress(config, 'registry'), opts),
    editor: Object.assign(editorClient, {
      /** ExecuteCommands as the edit route sends it: the calls of one event-loop turn travel as one batch. */
      executeCommandsCoalesced: createCallCoalescer<editor.ExecuteCommandsRequest, editor.ExecuteCommandsResponse>(
        async (items) => (await editorClient.executeCommandsBatch({ items })).outcomes,
      ),
    }),
    runner: createServiceClient(runner.RunnerServiceService, serviceAddress(config, 'runner'), opts),
    /** Runs: start, read, list, cancel, rerun, the event log. */
    runs: createServiceClient(runner.RunServiceService, serviceAddress(config, 'runner'), opts),
    /** Webhook paths of deployed workflows and their deliveries. */
    triggers: createServiceClient(registryTriggers.TriggerServiceService, serviceAddress(config, 'registry'), opts),
    /** Temporal Schedules of deployed workflows. */
    schedules: createServiceClient(runnerSchedules.ScheduleServiceService, serviceAddress(config, 'runner'), opts),
    integrations: createServiceClient(integrations.IntegrationsServiceService, serviceAddress(config, 'integrations'), opts),
    copilot: createServiceClient(copilot.CopilotServiceService, serviceAddress(config, 'copilot'), opts),
  };
}

export type Clients = ReturnType<typeof createClients>;

import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { temporalLogger, bootService, createServiceClient, serviceAddress, serviceDataConverter } from '@weft/platform';
import { cachedWorkflowBundle, SHARED_WORKFLOW_MODULES } from '@weft/platform/workflowBundle';
import { editor, integrationsTaskQueue, registry, registryTriggers, runner, runnerSchedules, runnerTaskQueue } from '@weft/contracts';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { runHandlers, runnerHandlers } from './adapters/grpc.js';
import { createTemporalEngine } from './adapters/temporal.js';
import { createExecutions } from './executions.js';
import { createRunLive } from './live/runLive.js';
import { createRunEventQueue, createRunLogActivities, createRunStartActivity, runLogSinks } from './activities/runLog.js';
import { createRunResourceActivities } from './activities/runResources.js';
import type { RunnableState } from './workflows/types.js';
import { OVERLAP_POLICIES, createScheduleManager, type OverlapPolicy } from './triggers/schedules.js';
import { registryDeployments, scheduleHandlers } from './triggers/schedulesGrpc.js';
import { createScheduleIndex } from './triggers/scheduleIndex.js';
import { consumeDeploymentEvents, consumeMemberEvents, resyncSchedulesAtStart } from './triggers/registryEvents.js';

/**
 * Composition root of the runner: one Temporal connection shared by the client and the worker (so
 * runs can start eagerly on this worker), the worker serving `runWorkflow` and the runner's own
 * activities on `<instance>-runner`, and gRPC for starting and reading runs.
 */
const rt = await bootService<RunnerDB>({ name: 'runner', migrations });
// Our shutdown drains the worker; Temporal must not install its own signal handlers.
Runtime.install({ logger: temporalLogger(rt.logger), shutdownSignals: [] });
const instance = rt.config.WEFT_INSTANCE;
const taskQueue = runnerTaskQueue(instance);
const live = createRunLive(rt.bus.nc, instance);
const logDeps = { db: rt.db, instance, kick: () => rt.relay.kick(), notify: (id: string) => live.notify(id) };

const editorClient = createServiceClient(editor.EditorServiceService, serviceAddress(rt.config, 'editor'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => editorClient.close());
const registryClient = createServiceClient(registry.RegistryServiceService, serviceAddress(rt.config, 'registry'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => registryClient.close());
// The editor's and the registry's JSON states are the source; this composition root is where they become the run's shape.
const draftState = async (workflowId: string) => JSON.parse((await editorClient.getState({ workflowId, waitMs: 0 })).stateJson) as RunnableState;
const resourceActivities = createRunResourceActivities({
  db: rt.db,
  sources: {
    environment: async (userId) => (await registryClient.getEnvironment({ actor: { userId } })).variables,
    async workflow(userId, workflowId) {
      const { workflow } = await registryClient.getWorkflow({ actor: { userId }, workflowId, access: 'read' });
      return workflow ? { workspaceId: workflow.workspaceId, name: workflow.name, isDeployed: workflow.isDeployed } : null;
    },
    deployedState: async (workflowId) => JSON.parse((await registryClient.getDeployedState({ workflowId })).stateJson) as RunnableState,
    draftState,
  },
});


const connection = await NativeConnection.connect({ address: rt.config.TEMPORAL_ADDRESS });
// Payloads (run inputs, environment variables, activity inputs and results) reach Temporal's history
// encrypted; those over 128 KB as a reference into the instance's payload store (NATS object store).
const dataConverter = serviceDataConverter(rt);
const temporal = new Client({ connection, namespace: rt.config.TEMPORAL_NAMESPACE, dataConverter });
// Block events a run hands over through its sink, written in the background.
const runEvents = createRunEventQueue({ ...logDeps, logger: rt.logger });
const runLogActivities = createRunLogActivities(logDeps, runEvents);
const worker = await Worker.create({
  connection,
  namespace: rt.config.TEMPORAL_NAMESPACE,
  dataConverter,
  taskQueue,
  workflowBundle: await cachedWorkflowBundle({ name: 'runner', workflows: new URL('./workflows/index.js', import.meta.url), serviceDist: new URL('.', import.meta.url), logger: rt.logger, preloadModules: SHARED_WORKFLOW_MODULES }),
  activities: { ...runLogActivities, ...createRunStartActivity(runLogActivities, resourceActivities), ...resourceActivities },
  sinks: runLogSinks(runEvents),
});
const running = worker.run().catch((err: unknown) => {
  rt.logger.fatal({ err }, 'workflow worker stopped');
  process.exit(1);
});
rt.onClose(async () => {
  worker.shutdown();
  await running;
  await connection.close();
});

const executions = createExecutions({
  ...logDeps,
  live,
  logger: rt.logger,
  engine: createTemporalEngine({ client: temporal, taskQueue, integrationsTaskQueue: integrationsTaskQueue(instance), eager: true }),
  loadDraft: draftState,
  loadDeployed: async (workflowId, version) => JSON.parse((await registryClient.getDeployedState({ workflowId, version })).stateJson) as RunnableState,
});

rt.grpc.add(runner.RunnerServiceService, runnerHandlers({ executions }));
rt.grpc.add(runner.RunServiceService, runHandlers({ db: rt.db, executions, live }));
// Schedules of deployed workflows (Temporal Schedules), kept in step by calls and registry events.
const overlap = process.env.WEFT_SCHEDULE_OVERLAP || 'skip';
if (!OVERLAP_POLICIES.some((p) => p === overlap)) throw new Error(`WEFT_SCHEDULE_OVERLAP must be one of ${OVERLAP_POLICIES.join(', ')}, got "${overlap}"`);
const triggersClient = createServiceClient(registryTriggers.TriggerServiceService, serviceAddress(rt.config, 'registry'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => triggersClient.close());
const schedules = createScheduleManager({
  client: temporal,
  instance,
  taskQueue,
  integrationsTaskQueue: integrationsTaskQueue(instance),
  overlap: overlap as OverlapPolicy,
  logger: rt.logger,
  activeDeployment: registryDeployments(triggersClient),
  index: createScheduleIndex(rt.database, instance),
});
rt.grpc.add(runnerSchedules.ScheduleServiceService, scheduleHandlers(schedules));
const deploymentEvents = await consumeDeploymentEvents(rt.bus, schedules, rt.logger);
rt.onClose(() => deploymentEvents.stop());
const memberEvents = await consumeMemberEvents(rt.bus, schedules, async (workspaceId) => (await triggersClient.listDeployedWorkflows({ workspaceId })).workflowIds, rt.logger);
rt.onClose(() => memberEvents.stop());
await rt.listen();
// Schedules written by an older runner (or left by a missed event) made what each deployment makes now, in the background.
void resyncSchedulesAtStart(schedules, async () => (await triggersClient.listDeployedWorkflows({ workspaceId: '', allWorkspaces: true })).workflowIds, rt.logger);
// Runs that were running when this process (or another runner) stopped: record their end when it comes.
await executions.resume();

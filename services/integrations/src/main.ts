import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createServiceClient, serviceAddress, temporalLogger, bootService, serviceDataConverter } from '@weft/platform';
import { integrations, integrationsTaskQueue, runner, type RunStreamChunk } from '@weft/contracts';
import { migrations, upgradeToPgvector } from './migrations/index.js';
import { createActivities, HEARTBEAT_THROTTLE_MAX, type OutputStore } from './activities/index.js';
import { integrationsHandlers } from './adapters/grpc.js';
import { consumeRegistryDeletions } from './adapters/registryEvents.js';
import { createToolRuntime } from './runtime.js';
import { createModelActivities } from './models/activities.js';
import { modelStreamSinks } from './models/streamSinks.js';
import { integrationsWorkflowBundle } from './workflowBundle.js';
import { modelConfigFromEnv } from './models/config.js';
import type { IntegrationsDB } from './db.js';

/**
 * Composition root of the integrations service: a gRPC server for the synchronous routes and an
 * activity worker on the integrations task queue (functions, tools, models, and the polling-job
 * workflows). Workers scale by starting more processes on the same queue; each takes what it can.
 */
const rt = await bootService<IntegrationsDB>({ name: 'integrations', migrations });
// Embeddings stored before pgvector was installed become pgvector vectors once the server has it.
await upgradeToPgvector(rt.db, rt.logger);
// Our shutdown drains the worker; Temporal must not install its own signal handlers.
Runtime.install({ logger: temporalLogger(rt.logger), shutdownSignals: [] });
const taskQueue = integrationsTaskQueue(rt.config.WEFT_INSTANCE);
// Polling jobs (browser task, …) run as workflows on this task queue; tool calls start them through a client.
const clientConnection = await Connection.connect({ address: rt.config.TEMPORAL_ADDRESS });
rt.onClose(() => clientConnection.close());
// Payloads reach Temporal's history encrypted (the runner, copilot and this worker share the key),
// large ones as a reference into the instance's payload store.
const dataConverter = serviceDataConverter(rt);
const client = new Client({ connection: clientConnection, namespace: rt.config.TEMPORAL_NAMESPACE, dataConverter });
const tools = createToolRuntime({ db: rt.db, logger: rt.logger, config: rt.config, jobs: { client, taskQueue } });
rt.onClose(() => tools.close());
rt.grpc.add(integrations.IntegrationsServiceService, integrationsHandlers(tools));
// A deleted workflow's memories and a deleted workspace's knowledge bases go with them.
const deletions = await consumeRegistryDeletions({ bus: rt.bus, db: rt.db, logger: rt.logger });
rt.onClose(() => deletions.stop());
const publishChunk = (subject: string, chunk: RunStreamChunk) => rt.bus.nc.publish(subject, JSON.stringify(chunk));
const models = createModelActivities({ config: modelConfigFromEnv(process.env), instance: rt.config.WEFT_INSTANCE, publish: publishChunk, logger: rt.logger });
// Large outputs of function and tool blocks are kept aside in the runner's stored values of their run.
const runs = createServiceClient(runner.RunServiceService, serviceAddress(rt.config, 'runner'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => runs.close());
const outputs: OutputStore = {
  storeValue: async (executionId, valueJson, key) => {
    const { ref, bytes } = await runs.storeValue({ executionId, valueJson, key });
    return { $blobRef: ref, bytes };
  },
  logger: rt.logger,
};
// The synchronous routes answer while the worker bundles the polling workflows (seconds on a busy machine).
await rt.listen();
const connection = await NativeConnection.connect({ address: rt.config.TEMPORAL_ADDRESS });
const worker = await Worker.create({
  connection,
  namespace: rt.config.TEMPORAL_NAMESPACE,
  dataConverter,
  taskQueue,
  workflowBundle: await integrationsWorkflowBundle(rt.logger),
  activities: { ...createActivities(tools, outputs), ...tools.jobActivities, ...models },
  // The agent tool loop streams its tool calls' states itself.
  sinks: modelStreamSinks(rt.config.WEFT_INSTANCE, publishChunk),
  // Heartbeats carry cancellation: a cancelled run's calls stop within about a second.
  maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MAX,
});
const running = worker.run().catch((err: unknown) => {
  rt.logger.fatal({ err }, 'activity worker stopped');
  process.exit(1);
});
rt.onClose(async () => {
  worker.shutdown();
  await running;
  await connection.close();
});

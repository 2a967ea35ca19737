import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { bootService, temporalLogger, serviceDataConverter } from '@weft/platform';
import { copilot, copilotTaskQueue, integrationsTaskQueue } from '@weft/contracts';
import { migrations } from './migrations/index.js';
import { copilotHandlers } from './adapters/grpc.js';
import { grpcPorts } from './adapters/ports.js';
import { createCopilotActivities } from './activities/index.js';
import { createChatStore } from './store/chatStore.js';
import { createTurns } from './turns.js';
import { operatorDefaults } from './modelChoice.js';
import { copilotWorkflowBundle } from './workflowBundle.js';
import type { CopilotDB } from './db.js';

/**
 * Composition root of the copilot service: a Temporal client that starts chat turns, a worker that runs
 * them (the turn workflow and the copilot's tools as activities on the copilot queue; model calls go to
 * the integrations queue), and the gRPC surface the gateway calls.
 */
const rt = await bootService<CopilotDB>({ name: 'copilot', migrations });
Runtime.install({ logger: temporalLogger(rt.logger), shutdownSignals: [] });
const operator = operatorDefaults(process.env);
const queues = { copilot: copilotTaskQueue(rt.config.WEFT_INSTANCE), integrations: integrationsTaskQueue(rt.config.WEFT_INSTANCE) };
const ports = grpcPorts(rt.config);
rt.onClose(async () => ports.close());
const store = createChatStore(rt.db);
const clientConnection = await Connection.connect({ address: rt.config.TEMPORAL_ADDRESS });
rt.onClose(() => clientConnection.close());
// Payloads reach Temporal's history encrypted (the runner, integrations and this worker share the key),
// large ones as a reference into the instance's payload store.
const dataConverter = serviceDataConverter(rt);
const client = new Client({ connection: clientConnection, namespace: rt.config.TEMPORAL_NAMESPACE, dataConverter });
const activities = createCopilotActivities({
  ports,
  store,
  instance: rt.config.WEFT_INSTANCE,
  publish: (subject, event) => rt.bus.nc.publish(subject, JSON.stringify(event)),
  operator,
});
rt.grpc.add(copilot.CopilotServiceService, copilotHandlers({ turns: createTurns({ client, queues, store, ports, operator }), store }));
// Serve first: turns started while the worker still bundles its workflows wait on the task queue.
await rt.listen();
const connection = await NativeConnection.connect({ address: rt.config.TEMPORAL_ADDRESS });
const worker = await Worker.create({
  connection,
  namespace: rt.config.TEMPORAL_NAMESPACE,
  dataConverter,
  taskQueue: queues.copilot,
  workflowBundle: await copilotWorkflowBundle(rt.logger),
  activities,
});
const running = worker.run().catch((err: unknown) => {
  rt.logger.fatal({ err }, 'copilot worker stopped');
  process.exit(1);
});
rt.onClose(async () => {
  worker.shutdown();
  await running;
  await connection.close();
});

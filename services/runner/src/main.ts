import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { temporalLogger, bootService, createServiceClient, currentRequestId, serviceAddress } from '@weft/platform';
import { editor, integrationsTaskQueue, runner, runnerTaskQueue } from '@weft/contracts';
import type { RunnerDB } from './db.js';
import { migrations } from './migrations/index.js';
import { runnerHandlers } from './adapters/grpc.js';
import type { StartRun } from './executions.js';
import type { runWorkflow } from './workflows/index.js';

/** Composition root of the runner: Temporal client and workflow worker, gRPC for starting runs. */
const rt = await bootService<RunnerDB>({ name: 'runner', migrations });
// Our shutdown drains the worker; Temporal must not install its own signal handlers.
Runtime.install({ logger: temporalLogger(rt.logger), shutdownSignals: [] });
const instance = rt.config.WEFT_INSTANCE;
const taskQueue = runnerTaskQueue(instance);

const clientConnection = await Connection.connect({ address: rt.config.TEMPORAL_ADDRESS });
const temporal = new Client({ connection: clientConnection, namespace: rt.config.TEMPORAL_NAMESPACE });
const workerConnection = await NativeConnection.connect({ address: rt.config.TEMPORAL_ADDRESS });
const worker = await Worker.create({
  connection: workerConnection,
  namespace: rt.config.TEMPORAL_NAMESPACE,
  taskQueue,
  workflowsPath: fileURLToPath(new URL('./workflows/index.js', import.meta.url)),
});
const running = worker.run().catch((err: unknown) => {
  rt.logger.fatal({ err }, 'workflow worker stopped');
  process.exit(1);
});
rt.onClose(async () => {
  worker.shutdown();
  await running;
  await workerConnection.close();
  await clientConnection.close();
});

const editorClient = createServiceClient(editor.EditorServiceService, serviceAddress(rt.config, 'editor'), { deadlineMs: rt.config.GRPC_DEADLINE_MS });
rt.onClose(async () => editorClient.close());

const startRun: StartRun = (executionId, state, input) =>
  temporal.workflow.execute<typeof runWorkflow>('runWorkflow', {
    taskQueue,
    workflowId: executionId,
    args: [{ executionId, workflowId: executionId, state, input, requestId: currentRequestId(), integrationsTaskQueue: integrationsTaskQueue(instance) }],
  });

rt.grpc.add(runner.RunnerServiceService, runnerHandlers({ db: rt.db, instance, editor: editorClient, startRun, kick: () => rt.relay.kick() }));
await rt.listen();

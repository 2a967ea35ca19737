import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';

/**
 * A worker process running the schedule probe (scheduleProbe.workflow) on TASK_QUEUE, for tests that
 * kill the process that runs a scheduled workflow. Prints "ready" once it polls.
 */
const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const taskQueue = process.env.TASK_QUEUE;
if (!taskQueue) throw new Error('TASK_QUEUE is required');
const connection = await NativeConnection.connect({ address });
const worker = await Worker.create({ connection, taskQueue, workflowsPath: fileURLToPath(new URL('./scheduleProbe.workflow.js', import.meta.url)) });
const running = worker.run();
process.stdout.write('ready\n');
await running;

// A run-workflow worker in a process of its own, for durability tests that kill it with SIGKILL.
// Arguments: <temporal address> <task queue> <path of the prebuilt workflow bundle>.
// The runner's activities are stand-ins kept in this process (events dropped, no environment).
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

const [address, taskQueue, codePath] = process.argv.slice(2);
if (!address || !taskQueue || !codePath) {
  process.stderr.write('usage: workflowWorkerProcess.mjs <address> <taskQueue> <bundlePath>\n');
  process.exit(2);
}
Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [] });
const connection = await NativeConnection.connect({ address });
const blobs = new Map();
const worker = await Worker.create({
  connection,
  taskQueue,
  workflowBundle: { codePath },
  activities: {
    recordRunEvent: async () => {},
    storeBlob: async (executionId, value) => {
      const ref = { $blobRef: `${executionId}/${blobs.size}`, bytes: JSON.stringify(value).length };
      blobs.set(ref.$blobRef, value);
      return ref;
    },
    loadBlob: async (ref) => blobs.get(ref.$blobRef),
    loadEnvironment: async () => ({}),
    startRun: async () => ({}),
    loadChildWorkflow: async (_workspaceId, workflowId) => {
      throw new Error(`Workflow ${workflowId} not found`);
    },
  },
  sinks: { runLog: { record: { fn: () => {}, callDuringReplay: false }, end: { fn: () => {}, callDuringReplay: false } } },
});
process.stdout.write('ready\n');
await worker.run();

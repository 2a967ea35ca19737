// One integrations activity worker for bench/integrations.bench.mjs, as its own process (so one or
// two of them compete for the same task queue, as scaled integration workers do). Built from the
// service's dist: the real tool runtime and activities, with the outbound guard allowing the bench's
// local server. Args: taskQueue, max concurrent activities. Prints "ready" once polling.
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createLogger, loadConfig, temporalLogger } from '@weft/platform';
import { createToolRuntime } from '../services/integrations/dist/runtime.js';
import { createActivities } from '../services/integrations/dist/activities/index.js';

const [taskQueue, maxConcurrent] = process.argv.slice(2);
const logger = createLogger('bench-integrations', 'warn');
Runtime.install({ logger: temporalLogger(logger), shutdownSignals: [] });
const config = loadConfig(process.env);
const tools = createToolRuntime({
  db: /** the HTTP tool never touches the database */ {},
  logger,
  config,
  registry: { getOAuthToken: () => Promise.reject(new Error('unused')), listCustomTools: () => Promise.resolve({ toolsJson: '[]' }) },
  policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] },
  docsDir: null,
});
const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
const worker = await Worker.create({ connection, namespace: config.TEMPORAL_NAMESPACE, taskQueue, activities: createActivities(tools), maxConcurrentActivityTaskExecutions: Number(maxConcurrent) });
const running = worker.run();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  worker.shutdown();
  await running;
  await tools.close();
  await connection.close();
  process.exit(0);
});

// Workflow-code CPU of a run (issue 10), without the stack: the runner's stored histories
// (services/runner/src/workflows/histories, one per block kind) replayed through Temporal's replayer,
// CPU per history. Replay runs exactly the workflow code a live run runs (engine, references, the
// SDK's per-workflow set-up) with no I/O and no waiting, so the figure does not move with the load
// on the machine the way end-to-end timings do. Three bundles side by side: nothing shared, the
// catalogue preloaded once per worker, and the catalogue plus the workflow context's stack-trace
// limit (what the workers run, SHARED_WORKFLOW_MODULES).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { SHARED_WORKFLOW_MODULES } from '../packages/platform/dist/workflowBundle.js';

const ROUNDS = Number(process.env.BENCH_WORKFLOW_CPU_ROUNDS ?? 3);
const REPEAT = 6;
const dir = fileURLToPath(new URL('../services/runner/src/workflows/histories/', import.meta.url));
const workflowsPath = fileURLToPath(new URL('../services/runner/dist/workflows/index.js', import.meta.url));

export async function run({ log }) {
  const histories = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const stored = JSON.parse(readFileSync(dir + f, 'utf8'));
      return { workflowId: stored.workflowId, history: historyFromJSON(stored.history) };
    });
  const variants = { nothingShared: [], catalogShared: ['@weft/catalog'], asDeployed: SHARED_WORKFLOW_MODULES };
  const logger = new DefaultLogger('ERROR');
  const bundles = {};
  for (const [name, preloadModules] of Object.entries(variants)) bundles[name] = await bundleWorkflowCode({ workflowsPath, preloadModules, logger });
  const perHistory = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(variants)) {
      const input = Array.from({ length: REPEAT }, () => histories).flat();
      const before = process.cpuUsage();
      let replayed = 0;
      for await (const result of Worker.runReplayHistories({ workflowBundle: bundles[name], replayName: `cpu-${name}` }, input)) {
        if (result.error) throw new Error(`${name}: ${result.workflowId} did not replay: ${String(result.error).slice(0, 300)}`);
        replayed++;
      }
      const used = process.cpuUsage(before);
      perHistory[name].push((used.user + used.system) / 1000 / replayed);
    }
  }
  const best = (values) => Math.round(Math.min(...values) * 10) / 10;
  const result = { histories: histories.length, replaysPerRound: histories.length * REPEAT, rounds: ROUNDS, cpuMsPerRunBest: Object.fromEntries(Object.entries(perHistory).map(([k, v]) => [k, best(v)])) };
  log(`workflow CPU per run (replay, best of ${ROUNDS}): ${JSON.stringify(result.cpuMsPerRunBest)}`);
  return result;
}

import { CancellationScope, isCancellation, patched, proxyActivities, proxyLocalActivities, proxySinks, workflowInfo } from '@temporalio/workflow';
import { overBytes } from '@weft/catalog';
import type { IntegrationActivities } from '@weft/contracts';
import { inlineBytesPatched } from './engine/inlineBytesPatch.js';
import { ownIdsPatched } from './engine/ownIdsPatch.js';
import { reuseOf } from './engine/rerun.js';
import { runFrame, type FrameResult } from './engine/scheduler.js';
import { BLOB_THRESHOLD_BYTES, shrink, variablesByName, type EngineActivities, type Run, type RunWorkflowArgs } from './engine/run.js';
import { compileGraph, namesInheritedIds, type CompiledGraph } from './graph.js';
import { INTEGRATION_HEARTBEAT_TIMEOUT } from './models/activities.js';
import { failureMessage, RETRY_INITIAL_MS } from './retry.js';
import type { RunEvent, RunLogSinks, RunnerActivities, RunResult } from './types.js';

export type { RunWorkflowArgs } from './engine/run.js';

/** Logs of a run larger than this (UTF-8 bytes of their JSON) travel as one BlobRef (`logsRef`) instead of inline. */
const INLINE_LOGS_BYTES = 4 * BLOB_THRESHOLD_BYTES;

/** Patch id: block events go through the `runLog` sink instead of a local activity each. */
export const RUN_EVENTS_BY_SINK = 'run-events-by-sink';
/** Patch id: `runStarted` and the environment in one local activity (`startRun`) instead of two. */
export const RUN_START_WITH_ENVIRONMENT = 'run-start-with-environment';
const { runLog } = proxySinks<RunLogSinks>();

function activities(args: RunWorkflowArgs): { acts: EngineActivities; events: Pick<RunnerActivities, 'recordRunEvent'> } {
  // Determinism: a command must never be issued in reaction to a local activity's completion while
  // other work of the run issues commands too (on replay local activities resolve at other moments
  // than they did live, which reorders the commands: Temporal reports a nondeterminism error).
  // So the run's events are recorded by local activities that nothing waits for until the run ends,
  // and the runner's activities that blocks wait for (large values, child workflow states) are
  // ordinary activities, whose results are history events. Only `loadEnvironment`, awaited before
  // any block runs, stays local.
  const local = proxyLocalActivities<RunnerActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '200ms', maximumInterval: '5s', maximumAttempts: 5 },
  });
  const remote = proxyActivities<RunnerActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '200ms', maximumInterval: '5s', maximumAttempts: 5 },
  });
  const runner: RunnerActivities = {
    recordRunEvent: remote.recordRunEvent,
    storeBlob: remote.storeBlob,
    loadBlob: remote.loadBlob,
    loadChildWorkflow: remote.loadChildWorkflow,
    loadEnvironment: local.loadEnvironment,
    startRun: local.startRun,
  };
  const events = proxyLocalActivities<RunnerActivities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '200ms', maximumInterval: '10s' },
  });
  const byTimeout = new Map<number, IntegrationActivities>();
  const integrations = (ms: number): IntegrationActivities => {
    let proxy = byTimeout.get(ms);
    if (!proxy) {
      // Temporal's retries are off: the engine retries transient failures itself and logs each try.
      // The integrations worker heartbeats while a function or tool runs, so a call on a lost worker
      // times out after INTEGRATION_HEARTBEAT_TIMEOUT and is tried again on another worker.
      // Cancellation (a cancelled run, or a failure cancelling what is in flight) reaches a running
      // call in a heartbeat's answer and stops its sandbox, connections and polling. The run does not
      // wait for that (TRY_CANCEL, the default): it ends at once even when the worker is gone.
      proxy = proxyActivities<IntegrationActivities>({
        taskQueue: args.integrationsTaskQueue,
        startToCloseTimeout: ms,
        heartbeatTimeout: INTEGRATION_HEARTBEAT_TIMEOUT,
        retry: { maximumAttempts: 1 },
      });
      byTimeout.set(ms, proxy);
    }
    return proxy;
  };
  return { acts: { integrations, runner }, events };
}

/** Blocks that get no environment variable unless a `{{KEY}}` reference names it. */
const ENVIRONMENT_BY_REFERENCE_ONLY: ReadonlySet<string> = new Set(['starter', 'loop', 'parallel', 'condition', 'function', 'response']);

/**
 * Whether a run's blocks may read its environment: a `{{KEY}}` anywhere in the state, or a block
 * that is handed the whole environment (tools, model blocks, triggers, workflow blocks). Decides
 * whether a run the API started loads it, so the commands of recorded runs depend on it: a change
 * must keep its answer for them (the replay test has such a run) or come with a patch.
 */
function readsEnvironment(state: RunWorkflowArgs['state']): boolean {
  if (JSON.stringify(state).includes('{{')) return true;
  return Object.values(state.blocks).some((b) => !ENVIRONMENT_BY_REFERENCE_ONLY.has(b.type));
}

/**
 * A durable run of one workflow: from the starter, every block whose active incoming edges are
 * done runs (tools, functions and model calls as activities on the integrations queue; loops,
 * parallels, conditions, routers and workflow blocks inside this workflow). A crashed worker
 * resumes from history; progress is recorded through the runner's `runLog` sink and `recordRunEvent` activity.
 */
export async function runWorkflow(args: RunWorkflowArgs): Promise<RunResult> {
  const executionId = args.executionId || workflowInfo().workflowId;
  const { acts, events } = activities(args);
  // Block events go to the runner's `runLog` sink: handed over without a history event, and the
  // worker writes them in the background, so no workflow task waits for the run log. Runs recorded
  // before this (no marker in their history) keep one local activity per event. `runStarted` and
  // `runCompleted` stay local activities: the first makes a scheduled run's row, the last is
  // written only after every earlier event (the activity drains the sink's writes first).
  // Runs since `run-start-with-environment` record their start and load their environment in one
  // local activity (`startRun`): one marker and one activation fewer in the first workflow task, the
  // two at once. That patch implies the sink's: a run records one patch marker (each comes with a
  // search-attribute upsert), and histories of either patch, or none, replay as recorded.
  const startInOne = patched(RUN_START_WITH_ENVIRONMENT);
  const bySink = startInOne || patched(RUN_EVENTS_BY_SINK);
  // Each event's local activity is scheduled the moment the event happens (never from another
  // activity's completion, see `activities`); the run waits for all of them before `runCompleted`.
  const pending: Array<Promise<void>> = [];
  let ordinal = 0;
  const emit = (event: RunEvent) => {
    // A rerun's reused blocks were reported only with the run's end before the sink (a local
    // activity each would change the histories of those runs).
    if (!bySink && event.type === 'blockCompleted' && event.log.reused) return;
    // So is a block cut short by a cancellation (its log comes with the run's end, as Cancelled).
    if (!bySink && event.type === 'blockError' && (event.log.cancelled || event.log.reused)) return;
    ordinal += 1;
    const numbered: RunEvent = { ...event, ordinal };
    if (bySink && numbered.type !== 'runStarted') runLog.record(numbered);
    else pending.push(CancellationScope.nonCancellable(() => events.recordRunEvent(numbered)));
  };
  const workspaceId = args.workspaceId ?? '';
  const wantsEnvironment = workspaceId !== '' || Boolean(args.actorId);
  let environment: Promise<Record<string, string>> | undefined;
  // A run Temporal started itself (a Schedule, a child workflow) has no row yet: this event creates
  // it, naming its trigger and deployment version, with the state it runs (what a rerun of it runs).
  // A local activity's arguments are not in the history, so recorded runs replay as they were.
  const startEvent: RunEvent = {
    type: 'runStarted',
    executionId,
    workflowId: args.workflowId,
    at: new Date(Date.now()).toISOString(),
    trigger: args.trigger,
    workspaceId: args.workspaceId,
    deploymentVersion: args.deploymentVersion,
    actorId: args.actorId,
    // A child run is recorded with its input as its parent logged it (no environment values).
    input: 'logInput' in args ? args.logInput : args.input,
    ...(args.startRecorded ? {} : { state: args.state }),
  };
  if (startInOne && args.startRecorded && !(wantsEnvironment && readsEnvironment(args.state))) {
    // The API recorded the start and no block can read the environment: nothing to wait for.
    ordinal += 1;
    environment = Promise.resolve({});
  } else if (startInOne) {
    ordinal += 1;
    const numbered: RunEvent = { ...startEvent, ordinal };
    const started = acts.runner.startRun(numbered, wantsEnvironment ? { workspaceId, ...(args.actorId ? { actorId: args.actorId } : {}) } : undefined);
    environment = started;
    // The end is recorded after the start. When the start gave up (the environment could not be
    // loaded: the run fails with that error, as before), the event is recorded on its own. Nothing
    // else of the run issues commands then: blocks start only once the start succeeded.
    pending.push(CancellationScope.nonCancellable(() => started.then(() => undefined, () => events.recordRunEvent(numbered))));
  } else emit(startEvent);

  const finish = async (result: RunResult): Promise<RunResult> =>
    CancellationScope.nonCancellable(async () => {
      // The events of this activation (the last blocks') are written with the run's end, in its
      // transaction, instead of in one of their own that the end would wait for. A sink call, not a
      // command: nothing in the history changes, so no patch.
      if (bySink) runLog.end(executionId);
      await Promise.all(pending);
      await events.recordRunEvent({ type: 'runCompleted', executionId, workflowId: args.workflowId, result, ordinal: ordinal + 1 });
      return result;
    });

  let graph: CompiledGraph;
  try {
    // Blocks by own ids (patch own-block-ids, asked only when the state names an id every object
    // inherits: a run recorded before found Object.prototype's member there, and ran other blocks).
    const ownIds = !namesInheritedIds(args.state, args.triggerBlockId) || ownIdsPatched();
    graph = compileGraph(args.state, args.triggerBlockId, ownIds);
  } catch (err) {
    return finish({ success: false, output: null, logs: [], error: failureMessage(err) });
  }
  const run: Run = {
    args,
    executionId,
    workspaceId,
    graph,
    envVars: {},
    variables: variablesByName(args.state),
    acts,
    logs: [],
    halted: false,
    activeScopes: new Set(),
    cost: { input: 0, output: 0, total: 0 },
    tokens: { prompt: 0, completion: 0, total: 0 },
    ...(args.rerun ? { reuse: reuseOf(graph, args.rerun) } : {}),
    retryInitialMs: args.retryInitialIntervalMs ?? RETRY_INITIAL_MS,
    storeCalls: 0,
    inlineBytes: 0,
    emit,
  };
  let outcome: FrameResult;
  let cancelled = false;
  try {
    if (environment) run.envVars = await environment;
    else if (wantsEnvironment) run.envVars = await acts.runner.loadEnvironment(workspaceId, args.actorId);
    const top = graph.scopes.get(null);
    if (!top) throw new Error('The workflow has no blocks');
    outcome = await runFrame(run, { scope: top, outputs: new Map(), loopIteration: [], parallelBranch: [] });
  } catch (err) {
    cancelled = isCancellation(err);
    outcome = { success: false, error: cancelled ? 'Run cancelled' : failureMessage(err), last: undefined };
  }

  return CancellationScope.nonCancellable(async () => {
    const response = run.response ? { ...run.response, data: (await shrink(run, run.response.data)).value } : undefined;
    const success = !cancelled && (outcome.success || response !== undefined);
    const json = JSON.stringify(run.logs);
    // In UTF-8 bytes since patch inline-bytes (asked only when the measure decides): recorded runs counted UTF-16 units.
    const keepLogsAside = json.length > INLINE_LOGS_BYTES || (overBytes(json, INLINE_LOGS_BYTES) && inlineBytesPatched());
    const logs = keepLogsAside ? { logs: [], logsRef: await acts.runner.storeBlob(executionId, run.logs) } : { logs: run.logs };
    const result: RunResult = {
      success,
      output: response ? response.data : (outcome.last?.value ?? null),
      ...logs,
      ...(success ? {} : { error: outcome.error ?? 'failed' }),
      ...(response ? { response } : {}),
      cost: run.cost,
      tokens: run.tokens,
      ...(cancelled ? { cancelled: true } : {}),
    };
    return finish(result);
  });
}

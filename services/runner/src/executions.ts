import { randomUUID } from 'node:crypto';
import { getBlock } from '@weft/catalog';
import { AppError, currentRequestId, type Logger } from '@weft/platform';
import type { RunLive } from './live/runLive.js';
import {
  createExecution,
  getExecution,
  getExecutionState,
  listBlockLogs,
  recordRunEvent,
  runningExecutionIds,
  type BlockLogView,
  type ExecutionView,
  type RunLogDeps,
} from './executionsStore.js';
import type { RunInput, RunResult, RunTrigger, RunnableState } from './workflows/types.js';
import { logMasks, maskLogValue, stateSecrets } from './workflows/engine/logMasking.js';
import { containerParentsOf } from './workflows/graph.js';
import { bodyLogsOf, reusedContainers, reusedOutputs, topLevelOf } from './rerunOutputs.js';

/** Starts, awaits and cancels `runWorkflow` (Temporal in production; the workflow id is the execution id). */
export interface RunEngine {
  /** Starts the run; starting an id that already runs is not an error. */
  start(input: RunInput): Promise<void>;
  /** The run's result once its workflow ended; a cancelled, terminated or failed workflow is a result too. */
  result(executionId: string): Promise<RunResult>;
  /** Asks the run to stop; its activities learn of it through their heartbeats. */
  cancel(executionId: string): Promise<void>;
}

/** How long a cancel waits for the workflow to report its end before recording it itself. */
export const CANCEL_GRACE_MS = 700;

export interface ExecutionsDeps extends RunLogDeps {
  engine: RunEngine;
  live: RunLive;
  logger: Logger;
  /** The editor's draft state of a workflow. */
  loadDraft(workflowId: string): Promise<RunnableState>;
  /** The state a deployment version of a workflow froze (the registry's); for reruns of runs recorded without their state. */
  loadDeployed?(workflowId: string, version: number): Promise<RunnableState>;
}

export interface StartRunRequest {
  workflowId: string;
  input: unknown;
  trigger: RunTrigger;
  actorId?: string | undefined;
  workspaceId?: string | undefined;
  /** A deployed state to run; the draft when absent. */
  state?: RunnableState | undefined;
  deploymentVersion?: number | undefined;
  /** The trigger block (a webhook block) whose path started the run; see RunInput.triggerBlockId. */
  triggerBlockId?: string | undefined;
  wait: boolean;
  stream: boolean;
  executionId?: string | undefined;
}

export interface Executions {
  /** Records an execution and starts its run; with `wait`, answers once it ended (with its logs). */
  start(req: StartRunRequest): Promise<ExecutionView>;
  /** Cancels a running execution; answers it as it ended (partial logs kept). */
  cancel(executionId: string): Promise<ExecutionView>;
  /** Runs an earlier execution again from `fromBlockId`, reusing its outputs upstream of that block. */
  rerun(executionId: string, fromBlockId: string, opts: { actorId?: string | undefined; wait: boolean; stream: boolean; newExecutionId?: string | undefined }): Promise<ExecutionView>;
  /** The state a rerun of the execution runs (the one it ran); what the blocks a rerun names are checked against. */
  rerunState(executionId: string): Promise<RunnableState>;
  /** Watches the workflows of executions still marked running (after a restart of the runner). */
  resume(): Promise<void>;
}

/** Blocks `fromBlockId` leads to (itself included), and the blocks inside any of them that are containers. */
export function downstreamOf(state: RunnableState, fromBlockId: string): Set<string> {
  // Body blocks as the run's graph places them: data.parentId, else the loop/parallel lists.
  const parents = containerParentsOf(state);
  const out = new Set<string>([fromBlockId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const e of state.edges) {
      if (out.has(e.source) && !out.has(e.target)) {
        out.add(e.target);
        grew = true;
      }
    }
    for (const [child, parent] of parents) {
      if (out.has(parent) && !out.has(child)) {
        out.add(child);
        grew = true;
      }
    }
  }
  return out;
}

export function createExecutions(deps: ExecutionsDeps): Executions {
  const watching = new Map<string, Promise<void>>();

  /** Records the run's end when its workflow ends (unless the workflow recorded it first). */
  function watch(executionId: string, workflowId: string): Promise<void> {
    let p = watching.get(executionId);
    if (p) return p;
    p = deps.engine
      .result(executionId)
      .then(async (result) => {
        await recordRunEvent(deps, { type: 'runCompleted', executionId, workflowId, result });
      })
      .catch((err: unknown) => deps.logger.error({ err, executionId }, 'recording the end of a run failed'))
      .finally(() => watching.delete(executionId));
    watching.set(executionId, p);
    return p;
  }

  /**
   * The state a deployed run ran, for a run recorded without it (scheduled runs before their start
   * event carried it): its deployment version's, which never changes. Null when it cannot be had.
   */
  async function deployedStateOf(earlier: ExecutionView): Promise<RunnableState | null> {
    if (earlier.deploymentVersion === null || !deps.loadDeployed) return null;
    try {
      return await deps.loadDeployed(earlier.workflowId, earlier.deploymentVersion);
    } catch (err) {
      deps.logger.warn({ err, executionId: earlier.executionId }, 'the deployed state of a run to rerun could not be read');
      return null;
    }
  }

  async function rerunState(executionId: string): Promise<{ earlier: ExecutionView; state: RunnableState }> {
    const earlier = await getExecution(deps.db, executionId, { logs: false });
    const state = (await getExecutionState(deps.db, executionId)) ?? (await deployedStateOf(earlier));
    if (!state) throw new AppError('validation', `Execution ${executionId} cannot be rerun: the state it ran was not kept`);
    return { earlier, state };
  }

  async function launch(input: RunInput, extra: { rerunOf?: string; wait: boolean }): Promise<ExecutionView> {
    const startedAt = new Date();
    await createExecution(deps.db, {
      executionId: input.executionId,
      workflowId: input.workflowId,
      trigger: input.trigger ?? 'manual',
      // Recorded as the logs show it: a secret typed into the workflow (a webhook's, in the call's Authorization header) is [REDACTED].
      input: maskLogValue(input.input, logMasks({}, stateSecrets(input.state))),
      workspaceId: input.workspaceId,
      actorId: input.actorId,
      deploymentVersion: input.deploymentVersion,
      state: input.state,
      rerunOf: extra.rerunOf,
      fromBlockId: input.rerun?.fromBlockId,
      startedAt,
    });
    // Recorded here so a reader sees the start at once; the workflow's own runStarted is then a no-op.
    await recordRunEvent(deps, { type: 'runStarted', executionId: input.executionId, workflowId: input.workflowId, at: startedAt.toISOString() });
    try {
      await deps.engine.start({ ...input, startRecorded: true });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.logger.error({ err, executionId: input.executionId }, 'starting a run failed');
      await recordRunEvent(deps, {
        type: 'runCompleted',
        executionId: input.executionId,
        workflowId: input.workflowId,
        result: { success: false, output: null, logs: [], error: `The run could not start: ${message}` },
      });
      return getExecution(deps.db, input.executionId);
    }
    const ended = watch(input.executionId, input.workflowId);
    if (extra.wait) await ended;
    return getExecution(deps.db, input.executionId, { logs: extra.wait });
  }

  return {
    async start(req) {
      const state = req.state ?? (await deps.loadDraft(req.workflowId));
      const input: RunInput = {
        executionId: req.executionId ?? randomUUID(),
        workflowId: req.workflowId,
        state,
        input: req.input,
        requestId: currentRequestId() ?? randomUUID(),
        trigger: req.trigger,
        stream: req.stream,
        depth: 0,
        callChain: [req.workflowId],
        ...(req.workspaceId ? { workspaceId: req.workspaceId } : {}),
        ...(req.actorId ? { actorId: req.actorId } : {}),
        ...(req.deploymentVersion !== undefined ? { deploymentVersion: req.deploymentVersion } : {}),
        ...(req.triggerBlockId ? { triggerBlockId: req.triggerBlockId } : {}),
      };
      return launch(input, { wait: req.wait });
    },

    async cancel(executionId) {
      const before = await getExecution(deps.db, executionId, { logs: false });
      if (before.status !== 'running') return getExecution(deps.db, executionId);
      const w = deps.live.watch(executionId);
      try {
        await deps.engine.cancel(executionId).catch((err: unknown) => deps.logger.warn({ err, executionId }, 'cancel request to Temporal failed'));
        const deadline = Date.now() + CANCEL_GRACE_MS;
        while (Date.now() < deadline) {
          if ((await getExecution(deps.db, executionId, { logs: false })).status !== 'running') break;
          await w.next(Math.max(1, deadline - Date.now()));
        }
      } finally {
        w.close();
      }
      // The workflow has not reported its end yet (busy, or no worker): the execution ends now, as
      // cancelled, with the logs it has; the workflow's later report changes nothing.
      await recordRunEvent(deps, {
        type: 'runCompleted',
        executionId,
        workflowId: before.workflowId,
        result: { success: false, cancelled: true, output: null, logs: [], error: 'Run cancelled' },
      });
      return getExecution(deps.db, executionId);
    },

    async rerunState(executionId) {
      return (await rerunState(executionId)).state;
    },

    async rerun(executionId, fromBlockId, opts) {
      const { earlier, state } = await rerunState(executionId);
      if (!fromBlockId) throw new AppError('validation', 'fromBlockId is required');
      // Own ids only: `constructor` names no block unless the workflow has one so named.
      if (!Object.hasOwn(state.blocks, fromBlockId)) throw new AppError('validation', `fromBlockId: no block ${fromBlockId} in the workflow this execution ran`);
      const downstream = downstreamOf(state, fromBlockId);
      const logs = await listBlockLogs(deps.db, executionId);
      // A run a trigger block started (its webhook path or schedule) is rerun from that block too.
      const triggerBlockId = logs.find((l) => l.blockType !== 'starter' && getBlock(l.blockType)?.category === 'triggers')?.blockId;
      // A container this run reused ran no body block: its body's logs are copied from the run it reran
      // (reusedLogs.ts), but a rerun logged before the copies has none: they are in the run it reran (or one before).
      const topOf = topLevelOf(state);
      const reusedHere = reusedContainers(logs);
      const copied = new Set(bodyLogsOf(state, logs, reusedHere).map((l) => topOf?.(l.blockId)));
      let containers = new Set([...reusedHere].filter((c) => !copied.has(c)));
      const earlierBodies: BlockLogView[] = [];
      for (let from = earlier.rerunOf; from && containers.size > 0; ) {
        const older = await listBlockLogs(deps.db, from);
        earlierBodies.push(...bodyLogsOf(state, older, containers));
        const again = reusedContainers(older);
        containers = new Set([...containers].filter((c) => again.has(c)));
        from = (await getExecution(deps.db, from, { logs: false })).rerunOf;
      }
      const reused = reusedOutputs(state, [...logs, ...earlierBodies].filter((l) => !downstream.has(l.blockId)));
      const input: RunInput = {
        executionId: opts.newExecutionId ?? randomUUID(),
        workflowId: earlier.workflowId,
        state,
        input: earlier.input,
        requestId: currentRequestId() ?? randomUUID(),
        trigger: 'manual',
        stream: opts.stream,
        depth: 0,
        callChain: [earlier.workflowId],
        rerun: { fromBlockId, ...reused },
        ...(triggerBlockId ? { triggerBlockId } : {}),
        ...(earlier.workspaceId ? { workspaceId: earlier.workspaceId } : {}),
        ...(opts.actorId ? { actorId: opts.actorId } : {}),
        ...(earlier.deploymentVersion !== null ? { deploymentVersion: earlier.deploymentVersion } : {}),
      };
      return launch(input, { rerunOf: executionId, wait: opts.wait });
    },

    async resume() {
      for (const id of await runningExecutionIds(deps.db)) {
        const view = await getExecution(deps.db, id, { logs: false });
        void watch(id, view.workflowId);
      }
    },
  };
}

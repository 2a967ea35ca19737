import { ApplicationFailure } from '@temporalio/activity';
import type { InjectedSinks } from '@temporalio/worker';
import type { Logger } from '@weft/platform';
import { UNRECORDABLE_RUN_EVENT, UnrecordableRunEventError, recordRunEvents, type RunLogDeps } from '../executionsStore.js';
import type { RunEvent, RunLogSinks, RunnerActivities } from '../workflows/types.js';

/** How often, and after how long, a progress event the recorder refused is tried again. */
const SINK_ATTEMPTS = 6;
const SINK_FIRST_BACKOFF_MS = 100;

/**
 * Progress events a run hands over through its `runLog` sink, written in the background one batch
 * after another per run (so they land in the order they happened): the events handed over while the
 * run's previous batch was being written — at least those of one workflow activation — go in one
 * transaction. A refused batch is tried again with backoff (a run Temporal started itself, a
 * schedule, gets its row from its `runStarted` local activity, which may commit after the run's first
 * block events are handed over); after the last try its events are tried one by one, so one event
 * that cannot be recorded does not take the others with it.
 */
export interface RunEventQueue {
  enqueue(event: RunEvent): void;
  /**
   * The run is ending (its `runCompleted` is on its way): the events handed over and not yet being
   * written wait for it, to be written in its transaction (`tail`). Were it not to come (a worker
   * lost its workflow), they are written on their own after HOLD_MS.
   */
  hold(executionId: string): void;
  /** Resolves once every event of the run handed over so far is written (or given up on). */
  drain(executionId: string): Promise<void>;
  /** Waits for the run's write going on and answers the events held for its end (none when not held). */
  tail(executionId: string): Promise<RunEvent[]>;
  /** The run's end and its held events are written: forgets the run. */
  ended(executionId: string): void;
  /**
   * The run's end can never be recorded: the events held for it are written on their own (each that
   * can be), so the log keeps the last blocks; resolves once they are.
   */
  release(executionId: string): Promise<void>;
}

/** How long events held for a run's end wait for it before they are written on their own. */
export const HOLD_MS = 10_000;

export function createRunEventQueue(
  deps: RunLogDeps & { logger: Logger },
  opts: { record?: (deps: RunLogDeps, events: RunEvent[]) => Promise<unknown>; firstBackoffMs?: number; holdMs?: number } = {},
): RunEventQueue {
  const record = opts.record ?? recordRunEvents;
  const firstBackoffMs = opts.firstBackoffMs ?? SINK_FIRST_BACKOFF_MS;
  const holdMs = opts.holdMs ?? HOLD_MS;
  const runs = new Map<string, RunQueue>();
  const write = async (batch: RunEvent[]): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await record(deps, batch);
        return;
      } catch (err) {
        // One that can never be recorded is not tried again: alone, it is given up on at once.
        if (attempt < SINK_ATTEMPTS && !(err instanceof UnrecordableRunEventError)) {
          await new Promise((r) => setTimeout(r, firstBackoffMs * 2 ** (attempt - 1)));
          continue;
        }
        if (batch.length > 1) {
          for (const event of batch) await write([event]);
          return;
        }
        // The run's end (`runCompleted`) writes every block log the events did not.
        deps.logger.warn({ err, executionId: batch[0]?.executionId, type: batch[0]?.type }, 'a run event could not be recorded');
        return;
      }
    }
  };
  // Writes the run's pending events batch after batch until there are none, or the run is held.
  const start = (id: string, run: RunQueue) => {
    run.done = run.done.then(async () => {
      while (run.pending.length > 0 && !run.held) await write(run.pending.splice(0));
      if (!run.held && runs.get(id) === run) runs.delete(id);
    });
  };
  return {
    enqueue(event) {
      const id = event.executionId;
      const queued = runs.get(id);
      if (queued) {
        queued.pending.push(event);
        return;
      }
      const run: RunQueue = { pending: [event], done: Promise.resolve(), held: false };
      runs.set(id, run);
      // Started a microtask later: the other events of the same activation (and the run's hold,
      // when it ends in it) join the first batch.
      start(id, run);
    },
    hold(executionId) {
      let run = runs.get(executionId);
      if (!run) {
        run = { pending: [], done: Promise.resolve(), held: false };
        runs.set(executionId, run);
      }
      const held = run;
      held.held = true;
      clearTimeout(held.timer);
      held.timer = setTimeout(() => {
        held.held = false;
        start(executionId, held);
      }, holdMs);
      held.timer.unref?.();
    },
    async drain(executionId) {
      for (let run = runs.get(executionId); run && !run.held; run = runs.get(executionId)) await run.done;
    },
    async tail(executionId) {
      for (let run = runs.get(executionId); run; run = runs.get(executionId)) {
        if (run.held) {
          clearTimeout(run.timer);
          await run.done;
          return [...run.pending];
        }
        await run.done;
      }
      return [];
    },
    ended(executionId) {
      const run = runs.get(executionId);
      if (run?.held) runs.delete(executionId);
    },
    async release(executionId) {
      const run = runs.get(executionId);
      if (!run?.held) return;
      clearTimeout(run.timer);
      run.held = false;
      start(executionId, run);
      await run.done;
    },
  };
}

interface RunQueue {
  pending: RunEvent[];
  /** The run's writes so far (each batch after the one before). */
  done: Promise<void>;
  /** Held for the run's end: nothing more is written until it comes (or `timer` fires). */
  held: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The `runLog` sink: the workflow hands each block event over without waiting, and the worker
 * returns at once (the write goes on in the background), so a workflow task is never held open
 * by the run log. Not called while a worker replays history: those events were handed over before.
 * `end` comes in the activation that schedules the run's `runCompleted`: the events of that
 * activation (the last blocks') then wait for it and are written in its transaction.
 */
export function runLogSinks(queue: RunEventQueue): InjectedSinks<RunLogSinks> {
  return {
    runLog: {
      record: { fn: (_info, event) => queue.enqueue(event), callDuringReplay: false },
      end: { fn: (_info, executionId) => queue.hold(executionId), callDuringReplay: false },
    },
  };
}

/**
 * The run-log activity the runner's worker serves to its workflows (`runStarted`, `runCompleted`,
 * and every event of runs recorded before the sink): each progress event becomes a log row, an
 * outbox event and a wake-up for live readers. Idempotent per event, so Temporal's retries (a
 * worker killed after the commit, before it reported) write nothing twice. An event waits for the
 * run's events still being written through the sink, so `runCompleted` is always the last; the
 * events held for the run's end are written with `runCompleted`, in one transaction and before it.
 */
export function createRunLogActivities(
  deps: RunLogDeps,
  queue?: RunEventQueue,
  record: (deps: RunLogDeps, events: RunEvent[]) => Promise<unknown> = recordRunEvents,
): Pick<RunnerActivities, 'recordRunEvent'> {
  const recordOnce = async (events: RunEvent[]): Promise<void> => {
    try {
      await record(deps, events);
    } catch (err) {
      // Trying again cannot help (the local activity's retries have no limit): fail the activity for good.
      if (err instanceof UnrecordableRunEventError) throw ApplicationFailure.nonRetryable(err.message, UNRECORDABLE_RUN_EVENT);
      throw err;
    }
  };
  return {
    async recordRunEvent(event) {
      if (event.type !== 'runCompleted' || !queue) {
        await queue?.drain(event.executionId);
        await recordOnce([event]);
        return;
      }
      const tail = await queue.tail(event.executionId);
      try {
        await recordOnce([...tail, event]);
      } catch (err) {
        // Not retried: the events held for the end (the last blocks') are written without it, before the run fails.
        if (err instanceof ApplicationFailure && err.type === UNRECORDABLE_RUN_EVENT) await queue.release(event.executionId);
        throw err;
      }
      queue.ended(event.executionId);
    },
  };
}

/**
 * `startRun`: the run's `runStarted` and its environment in one local activity, one marker and one
 * activation instead of two. The two go on at once when the run names its actor; without one
 * (runs started before their arguments did) the environment reads the run's row, so it waits for
 * the event that may create it. Retried as a whole: the event is written once whatever the tries.
 */
export function createRunStartActivity(
  runLog: Pick<RunnerActivities, 'recordRunEvent'>,
  resources: Pick<RunnerActivities, 'loadEnvironment'>,
): Pick<RunnerActivities, 'startRun'> {
  return {
    async startRun(event, environment) {
      if (!environment) {
        await runLog.recordRunEvent(event);
        return {};
      }
      const { workspaceId, actorId } = environment;
      if (!actorId) {
        await runLog.recordRunEvent(event);
        return resources.loadEnvironment(workspaceId);
      }
      const [, env] = await Promise.all([runLog.recordRunEvent(event), resources.loadEnvironment(workspaceId, actorId)]);
      return env;
    },
  };
}

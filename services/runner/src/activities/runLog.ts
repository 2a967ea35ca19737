import type { InjectedSinks } from '@temporalio/worker';
import type { Logger } from '@weft/platform';
import { recordRunEvent, recordRunEvents, type RunLogDeps } from '../executionsStore.js';
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
  /** Resolves once every event of the run handed over so far is written (or given up on). */
  drain(executionId: string): Promise<void>;
}

export function createRunEventQueue(
  deps: RunLogDeps & { logger: Logger },
  opts: { record?: (deps: RunLogDeps, events: RunEvent[]) => Promise<unknown>; firstBackoffMs?: number } = {},
): RunEventQueue {
  const record = opts.record ?? recordRunEvents;
  const firstBackoffMs = opts.firstBackoffMs ?? SINK_FIRST_BACKOFF_MS;
  const runs = new Map<string, { pending: RunEvent[]; done: Promise<void> }>();
  const write = async (batch: RunEvent[]): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await record(deps, batch);
        return;
      } catch (err) {
        if (attempt < SINK_ATTEMPTS) {
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
  return {
    enqueue(event) {
      const id = event.executionId;
      const queued = runs.get(id);
      if (queued) {
        queued.pending.push(event);
        return;
      }
      const run = { pending: [event], done: Promise.resolve() };
      runs.set(id, run);
      // Started a microtask later: the other events of the same activation join the first batch.
      run.done = Promise.resolve().then(async () => {
        while (run.pending.length > 0) await write(run.pending.splice(0));
        runs.delete(id);
      });
    },
    async drain(executionId) {
      for (let run = runs.get(executionId); run; run = runs.get(executionId)) await run.done;
    },
  };
}

/**
 * The `runLog` sink: the workflow hands each block event over without waiting, and the worker
 * returns at once (the write goes on in the background), so a workflow task is never held open
 * by the run log. Not called while a worker replays history: those events were handed over before.
 */
export function runLogSinks(queue: RunEventQueue): InjectedSinks<RunLogSinks> {
  return { runLog: { record: { fn: (_info, event) => queue.enqueue(event), callDuringReplay: false } } };
}

/**
 * The run-log activity the runner's worker serves to its workflows (`runStarted`, `runCompleted`,
 * and every event of runs recorded before the sink): each progress event becomes a log row, an
 * outbox event and a wake-up for live readers. Idempotent per event, so Temporal's retries (a
 * worker killed after the commit, before it reported) write nothing twice. An event waits for the
 * run's events still being written through the sink, so `runCompleted` is always the last.
 */
export function createRunLogActivities(
  deps: RunLogDeps,
  queue?: RunEventQueue,
  record: (deps: RunLogDeps, event: RunEvent) => Promise<unknown> = recordRunEvent,
): Pick<RunnerActivities, 'recordRunEvent'> {
  return {
    async recordRunEvent(event) {
      await queue?.drain(event.executionId);
      await record(deps, event);
    },
  };
}

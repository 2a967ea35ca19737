import type { InjectedSinks } from '@temporalio/worker';
import type { Logger } from '@weft/platform';
import { recordRunEvent, type RunLogDeps } from '../executionsStore.js';
import type { RunEvent, RunLogSinks, RunnerActivities } from '../workflows/types.js';

/** How often, and after how long, a progress event the recorder refused is tried again. */
const SINK_ATTEMPTS = 6;
const SINK_FIRST_BACKOFF_MS = 100;

/**
 * Progress events a run hands over through its `runLog` sink, written in the background one after
 * another per run (so they land in the order they happened). A refusal is tried again with backoff:
 * a run Temporal started itself (a schedule) gets its row from its `runStarted` local activity,
 * which may commit after the run's first block event is handed over.
 */
export interface RunEventQueue {
  enqueue(event: RunEvent): void;
  /** Resolves once every event of the run handed over so far is written (or given up on). */
  drain(executionId: string): Promise<void>;
}

export function createRunEventQueue(
  deps: RunLogDeps & { logger: Logger },
  opts: { record?: (deps: RunLogDeps, event: RunEvent) => Promise<unknown>; firstBackoffMs?: number } = {},
): RunEventQueue {
  const record = opts.record ?? recordRunEvent;
  const firstBackoffMs = opts.firstBackoffMs ?? SINK_FIRST_BACKOFF_MS;
  const tails = new Map<string, Promise<void>>();
  const write = async (event: RunEvent) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await record(deps, event);
        return;
      } catch (err) {
        if (attempt >= SINK_ATTEMPTS) {
          // The run's end (`runCompleted`) writes every block log the events did not.
          deps.logger.warn({ err, executionId: event.executionId, type: event.type }, 'a run event could not be recorded');
          return;
        }
        await new Promise((r) => setTimeout(r, firstBackoffMs * 2 ** (attempt - 1)));
      }
    }
  };
  return {
    enqueue(event) {
      const id = event.executionId;
      const tail = (tails.get(id) ?? Promise.resolve()).then(() => write(event));
      tails.set(id, tail);
      void tail.then(() => {
        if (tails.get(id) === tail) tails.delete(id);
      });
    },
    async drain(executionId) {
      await tails.get(executionId);
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

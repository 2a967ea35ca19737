import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createLogger } from '@weft/platform';
import type { RunnerDB } from '../db.js';
import type { RunEvent } from '../workflows/types.js';
import { createRunEventQueue, createRunLogActivities, runLogSinks } from './runLog.js';

const deps = { db: {} as Kysely<RunnerDB>, instance: 'test', kick: () => {}, notify: () => {}, logger: createLogger('runlog-test', 'silent') };
const started = (executionId: string, blockId: string): RunEvent => ({ type: 'blockStarted', executionId, blockId, blockName: blockId, blockType: 'function', at: '2026-01-01T00:00:00.000Z' });

/** A recorder whose writes finish when the test says so, in any order it likes. */
function gatedRecorder() {
  const written: string[] = [];
  const gates: Array<() => void> = [];
  let refusals = 0;
  return {
    written,
    gates,
    refuseNext(n: number) {
      refusals = n;
    },
    record: async (_deps: unknown, event: RunEvent) => {
      if (refusals > 0) {
        refusals -= 1;
        throw new Error(`Execution ${event.executionId} has no row yet`);
      }
      await new Promise<void>((r) => gates.push(r));
      written.push(`${event.executionId}:${event.type === 'blockStarted' ? event.blockId : event.type}`);
    },
  };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 1));
};

describe('the run-log sink queue', () => {
  it('writes one run’s events one after another in the order they were handed over, other runs alongside', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record });
    queue.enqueue(started('r1', 'a'));
    queue.enqueue(started('r1', 'b'));
    queue.enqueue(started('r2', 'x'));
    await until(() => rec.gates.length === 2); // r1:a and r2:x, never r1:b before r1:a is written
    rec.gates.splice(0).reverse().forEach((open) => open());
    await until(() => rec.gates.length === 1);
    rec.gates.splice(0).forEach((open) => open());
    await queue.drain('r1');
    await queue.drain('r2');
    expect(rec.written.filter((w) => w.startsWith('r1'))).toEqual(['r1:a', 'r1:b']);
    expect(rec.written).toContain('r2:x');
  });

  it('tries a refused event again with backoff, and gives up after six tries without blocking the run’s later events', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record, firstBackoffMs: 1 });
    rec.refuseNext(2);
    queue.enqueue(started('r1', 'a'));
    await until(() => rec.gates.length === 1);
    rec.gates.splice(0).forEach((open) => open());
    await queue.drain('r1');
    expect(rec.written).toEqual(['r1:a']);

    rec.refuseNext(6);
    queue.enqueue(started('r1', 'lost'));
    queue.enqueue(started('r1', 'c'));
    await until(() => rec.gates.length === 1);
    rec.gates.splice(0).forEach((open) => open());
    await queue.drain('r1');
    expect(rec.written).toEqual(['r1:a', 'r1:c']);
  });

  it('records runCompleted through the activity only after the run’s queued events are written', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record });
    const acts = createRunLogActivities(deps, queue, rec.record);
    queue.enqueue(started('r1', 'a'));
    await until(() => rec.gates.length === 1);
    const completed = acts.recordRunEvent({ type: 'runCompleted', executionId: 'r1', workflowId: 'w', result: { success: true, output: null, logs: [] } });
    // Only the queued event's write is waiting: the end has not reached the recorder.
    await new Promise((r) => setImmediate(r));
    expect(rec.gates).toHaveLength(1);
    rec.gates.splice(0).forEach((open) => open());
    await until(() => rec.gates.length === 1);
    rec.gates.splice(0).forEach((open) => open());
    await completed;
    expect(rec.written).toEqual(['r1:a', 'r1:runCompleted']);
  });

  it('hands each sink call to the queue at once and is not called on replay', () => {
    const handed: RunEvent[] = [];
    const sinks = runLogSinks({ enqueue: (e) => void handed.push(e), drain: () => Promise.resolve() });
    const event = started('r1', 'a');
    const returned = sinks.runLog.record.fn({} as never, event);
    expect(returned).toBeUndefined();
    expect(handed).toEqual([event]);
    expect(sinks.runLog.record.callDuringReplay).toBe(false);
  });
});

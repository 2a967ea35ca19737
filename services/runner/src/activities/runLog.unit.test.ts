import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createLogger } from '@weft/platform';
import type { RunnerDB } from '../db.js';
import type { RunEvent } from '../workflows/types.js';
import { createRunEventQueue, createRunLogActivities, runLogSinks } from './runLog.js';

const deps = { db: {} as Kysely<RunnerDB>, instance: 'test', kick: () => {}, notify: () => {}, logger: createLogger('runlog-test', 'silent') };
const started = (executionId: string, blockId: string): RunEvent => ({ type: 'blockStarted', executionId, blockId, blockName: blockId, blockType: 'function', at: '2026-01-01T00:00:00.000Z' });
const label = (e: RunEvent) => `${e.executionId}:${e.type === 'blockStarted' ? e.blockId : e.type}`;

/** A recorder whose batches finish when the test opens their gate; it can refuse batches or single events. */
function gatedRecorder() {
  const batches: string[][] = [];
  const written: string[] = [];
  const gates: Array<() => void> = [];
  const state = { refusals: 0, refuse: (_e: RunEvent) => false };
  return {
    batches,
    written,
    gates,
    state,
    open: () => gates.splice(0).forEach((open) => open()),
    record: async (_deps: unknown, events: RunEvent[]) => {
      if (state.refusals > 0 || events.some(state.refuse)) {
        if (state.refusals > 0) state.refusals -= 1;
        throw new Error(`Execution ${events[0]?.executionId} has no row yet`);
      }
      batches.push(events.map(label));
      await new Promise<void>((r) => gates.push(r));
      written.push(...events.map(label));
    },
  };
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 1));
  }
};

describe('the run-log sink queue', () => {
  it('writes the events handed over together in one batch, in order, the next batch after it, other runs alongside', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record });
    queue.enqueue(started('r1', 'a'));
    queue.enqueue(started('r1', 'b'));
    queue.enqueue(started('r2', 'x'));
    await until(() => rec.gates.length === 2);
    expect(rec.batches).toEqual([['r1:a', 'r1:b'], ['r2:x']]);
    // Handed over while r1's batch is being written: waits for it, never overtakes it.
    queue.enqueue(started('r1', 'c'));
    await new Promise((r) => setImmediate(r));
    expect(rec.batches).toHaveLength(2);
    rec.open();
    await until(() => rec.gates.length === 1);
    rec.open();
    await queue.drain('r1');
    await queue.drain('r2');
    expect(rec.batches).toEqual([['r1:a', 'r1:b'], ['r2:x'], ['r1:c']]);
    expect(rec.written.filter((w) => w.startsWith('r1'))).toEqual(['r1:a', 'r1:b', 'r1:c']);
  });

  it('tries a refused batch again with backoff; after six tries its events one by one, so only the one that cannot be recorded is lost', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record, firstBackoffMs: 1 });
    rec.state.refusals = 2;
    queue.enqueue(started('r1', 'a'));
    await until(() => rec.gates.length === 1);
    rec.open();
    await queue.drain('r1');
    expect(rec.written).toEqual(['r1:a']);

    rec.state.refuse = (e) => e.type === 'blockStarted' && e.blockId === 'lost';
    queue.enqueue(started('r1', 'lost'));
    queue.enqueue(started('r1', 'c'));
    await until(() => rec.gates.length === 1);
    rec.open();
    await queue.drain('r1');
    expect(rec.written).toEqual(['r1:a', 'r1:c']);
  });

  it('records runCompleted through the activity only after the run’s queued events are written', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record });
    const acts = createRunLogActivities(deps, queue, (d, event) => rec.record(d, [event]));
    queue.enqueue(started('r1', 'a'));
    await until(() => rec.gates.length === 1);
    const completed = acts.recordRunEvent({ type: 'runCompleted', executionId: 'r1', workflowId: 'w', result: { success: true, output: null, logs: [] } });
    // Only the queued event's write is waiting: the end has not reached the recorder.
    await new Promise((r) => setImmediate(r));
    expect(rec.gates).toHaveLength(1);
    rec.open();
    await until(() => rec.gates.length === 1);
    rec.open();
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

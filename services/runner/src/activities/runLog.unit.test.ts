import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createLogger } from '@weft/platform';
import type { RunnerDB } from '../db.js';
import type { RunEvent } from '../workflows/types.js';
import { UnrecordableRunEventError } from '../executionsStore.js';
import { createRunEventQueue, createRunLogActivities, createRunStartActivity, runLogSinks } from './runLog.js';

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
  it('gives up at once on an event that can never be recorded (a value too deep to store), and writes the others', async () => {
    const tried: string[][] = [];
    const record = async (_deps: unknown, events: RunEvent[]) => {
      tried.push(events.map(label));
      if (events.some((e) => e.type === 'blockStarted' && e.blockId === 'deep')) throw new UnrecordableRunEventError('nested too deeply to store');
    };
    // Backoff long enough that a retry would outlast the test.
    const queue = createRunEventQueue(deps, { record, firstBackoffMs: 600_000 });
    queue.enqueue(started('r1', 'a'));
    queue.enqueue(started('r1', 'deep'));
    await queue.drain('r1');
    expect(tried).toEqual([['r1:a', 'r1:deep'], ['r1:a'], ['r1:deep']]);
  });

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
    const acts = createRunLogActivities(deps, queue, rec.record);
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

  it('writes the events handed over with the run’s end (after the write going on) in the end’s transaction, before it', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record });
    const acts = createRunLogActivities(deps, queue, rec.record);
    queue.enqueue(started('r1', 'a'));
    await until(() => rec.gates.length === 1);
    // The last activation: its blocks' events, then the end (as the sink calls come, in order).
    queue.enqueue(started('r1', 'b'));
    queue.enqueue(started('r1', 'c'));
    queue.hold('r1');
    const completed = acts.recordRunEvent({ type: 'runCompleted', executionId: 'r1', workflowId: 'w', result: { success: true, output: null, logs: [] } });
    rec.open();
    await until(() => rec.gates.length === 1);
    expect(rec.batches).toEqual([['r1:a'], ['r1:b', 'r1:c', 'r1:runCompleted']]);
    rec.open();
    await completed;
    expect(rec.written).toEqual(['r1:a', 'r1:b', 'r1:c', 'r1:runCompleted']);
    // Forgotten once written: a later event of that id is written on its own.
    queue.enqueue(started('r1', 'd'));
    await until(() => rec.gates.length === 1);
    rec.open();
    await queue.drain('r1');
    expect(rec.batches.at(-1)).toEqual(['r1:d']);
  });

  it('keeps the held events when writing the end fails, so the activity’s retry writes them again', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record });
    const acts = createRunLogActivities(deps, queue, rec.record);
    queue.enqueue(started('r1', 'a'));
    queue.hold('r1');
    rec.state.refusals = 1;
    const end: RunEvent = { type: 'runCompleted', executionId: 'r1', workflowId: 'w', result: { success: true, output: null, logs: [] } };
    await expect(acts.recordRunEvent(end)).rejects.toThrow(/no row yet/);
    const retried = acts.recordRunEvent(end);
    await until(() => rec.gates.length === 1);
    rec.open();
    await retried;
    expect(rec.batches).toEqual([['r1:a', 'r1:runCompleted']]);
  });

  it('writes the held events on their own when the run’s end can never be recorded (a value too deep to store), then fails for good', async () => {
    const tried: string[][] = [];
    const record = async (_deps: unknown, events: RunEvent[]) => {
      tried.push(events.map(label));
      if (events.some((e) => e.type === 'runCompleted')) throw new UnrecordableRunEventError('nested too deeply to store');
    };
    const queue = createRunEventQueue(deps, { record, holdMs: 600_000 });
    const acts = createRunLogActivities(deps, queue, record);
    queue.enqueue(started('r1', 'a'));
    queue.enqueue(started('r1', 'b'));
    queue.hold('r1');
    const end: RunEvent = { type: 'runCompleted', executionId: 'r1', workflowId: 'w', result: { success: true, output: null, logs: [] } };
    await expect(acts.recordRunEvent(end)).rejects.toMatchObject({ nonRetryable: true, type: 'UnrecordableRunEvent', message: 'nested too deeply to store' });
    // Written before the activity failed (not after the 10 minutes' hold): the run's watcher records its end after them.
    expect(tried).toEqual([['r1:a', 'r1:b', 'r1:runCompleted'], ['r1:a', 'r1:b']]);
  });

  it('writes held events on their own when the run’s end does not come in time', async () => {
    const rec = gatedRecorder();
    const queue = createRunEventQueue(deps, { record: rec.record, holdMs: 5 });
    queue.enqueue(started('r1', 'a'));
    queue.hold('r1');
    await until(() => rec.gates.length === 1);
    rec.open();
    await queue.drain('r1');
    expect(rec.written).toEqual(['r1:a']);
  });

  it('hands each sink call to the queue at once and is not called on replay', () => {
    const handed: RunEvent[] = [];
    const held: string[] = [];
    const sinks = runLogSinks({
      enqueue: (e) => void handed.push(e),
      hold: (id) => void held.push(id),
      drain: () => Promise.resolve(),
      tail: () => Promise.resolve([]),
      ended: () => {},
      release: () => Promise.resolve(),
    });
    const event = started('r1', 'a');
    const returned = sinks.runLog.record.fn({} as never, event);
    expect(returned).toBeUndefined();
    expect(handed).toEqual([event]);
    void sinks.runLog.end.fn({} as never, 'r1');
    expect(held).toEqual(['r1']);
    expect(sinks.runLog.record.callDuringReplay).toBe(false);
    expect(sinks.runLog.end.callDuringReplay).toBe(false);
  });

  it('starts a run in one activity: its event and its environment at once when the actor is known, the event first when not, no environment unless asked', async () => {
    const steps: string[] = [];
    let recorded: () => void = () => {};
    const start = createRunStartActivity(
      { recordRunEvent: () => new Promise<void>((r) => { steps.push('record'); recorded = () => { steps.push('recorded'); r(); }; }) },
      { loadEnvironment: (ws, actor) => { steps.push(`env ${ws} ${actor ?? '-'}`); return Promise.resolve({ K: 'v' }); } },
    );
    const event: RunEvent = { type: 'runStarted', executionId: 'r1', workflowId: 'w', at: '2026-01-01T00:00:00.000Z', ordinal: 1 };
    const both = start.startRun(event, { workspaceId: 'ws', actorId: 'u1' });
    await until(() => steps.length === 2);
    expect(steps).toEqual(['record', 'env ws u1']);
    recorded();
    expect(await both).toEqual({ K: 'v' });

    steps.length = 0;
    const noActor = start.startRun(event, { workspaceId: 'ws' });
    await until(() => steps.length === 1);
    expect(steps).toEqual(['record']);
    recorded();
    expect(await noActor).toEqual({ K: 'v' });
    expect(steps).toEqual(['record', 'recorded', 'env ws -']);

    steps.length = 0;
    const bare = start.startRun(event);
    recorded();
    expect(await bare).toEqual({});
    expect(steps).toEqual(['record', 'recorded']);
  });
});

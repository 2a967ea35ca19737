import { describe, expect, it } from 'vitest';
import { afterPaintQueue, type FrameTimers } from './afterPaint';

/** Frames and tasks that run only when the test says so. */
function manualTimers() {
  const frames = new Map<number, () => void>();
  const tasks = new Map<number, () => void>();
  let next = 1;
  const timers: FrameTimers = {
    frame: (fn) => (frames.set(next, fn), next++),
    cancelFrame: (id) => void frames.delete(id),
    later: (fn) => (tasks.set(next, fn), next++),
    cancelLater: (id) => void tasks.delete(id),
  };
  const drain = (queue: Map<number, () => void>) => {
    const due = [...queue.values()];
    queue.clear();
    for (const fn of due) fn();
  };
  return { timers, frames, tasks, paint: () => drain(frames), runTasks: () => drain(tasks) };
}

/** A queue that counts its runs, on manual timers. */
function counted() {
  const t = manualTimers();
  const counter = { runs: 0 };
  return { ...t, counter, queue: afterPaintQueue(() => counter.runs++, t.timers) };
}

describe('afterPaintQueue', () => {
  it('runs in a task after the next frame, once for all requests made before it', () => {
    const { queue, counter, paint, runTasks, frames, tasks } = counted();
    queue.request();
    queue.request();
    expect(tasks.size).toBe(0);
    runTasks();
    expect(counter.runs).toBe(0);
    paint();
    expect(counter.runs).toBe(0);
    queue.request();
    runTasks();
    expect(counter.runs).toBe(1);
    expect(frames.size + tasks.size).toBe(0);
  });

  it('waits for another frame for a request after it ran', () => {
    const { queue, counter, paint, runTasks } = counted();
    queue.request();
    paint();
    runTasks();
    queue.request();
    runTasks();
    expect(counter.runs).toBe(1);
    paint();
    runTasks();
    expect(counter.runs).toBe(2);
  });

  it('runs nothing once cancelled, before or after the frame', () => {
    const { queue, counter, paint, runTasks } = counted();
    queue.request();
    queue.cancel();
    paint();
    runTasks();
    queue.request();
    paint();
    queue.cancel();
    runTasks();
    expect(counter.runs).toBe(0);
  });

  it('shares one frame and one task among queues, each still run once and cancelled alone', () => {
    const { timers, frames, tasks, paint, runTasks } = manualTimers();
    const runs: string[] = [];
    const history = afterPaintQueue(() => runs.push('history'), timers);
    const version = afterPaintQueue(() => runs.push('version'), timers);
    const pending = afterPaintQueue(() => runs.push('pending'), timers);
    history.request();
    version.request();
    pending.request();
    version.request();
    expect(frames.size).toBe(1);
    pending.cancel();
    paint();
    expect(tasks.size).toBe(1);
    runTasks();
    expect(runs).toEqual(['history', 'version']);
    expect(frames.size + tasks.size).toBe(0);
  });
});

import { useEffect, useRef, useState } from 'react';

/** How a queue waits for the next frame and then for a task after it (injected in tests). */
export interface FrameTimers {
  frame(fn: () => void): number;
  cancelFrame(id: number): void;
  later(fn: () => void): number;
  cancelLater(id: number): void;
}

const browserTimers: FrameTimers = {
  frame: (fn) => requestAnimationFrame(fn),
  cancelFrame: (id) => cancelAnimationFrame(id),
  later: (fn) => window.setTimeout(fn, 0),
  cancelLater: (id) => window.clearTimeout(id),
};

/** Every queue waiting on one set of timers: one frame request and one task serve them all. */
interface Batch {
  add(run: () => void): void;
  remove(run: () => void): void;
}

function batchOn(timers: FrameTimers): Batch {
  let frame: number | undefined;
  let task: number | undefined;
  const waiting = new Set<() => void>();
  const flush = () => {
    task = undefined;
    const due = [...waiting];
    waiting.clear();
    for (const run of due) run();
  };
  return {
    add(run) {
      waiting.add(run);
      if (frame !== undefined || task !== undefined) return;
      frame = timers.frame(() => {
        frame = undefined;
        task = timers.later(flush);
      });
    },
    remove(run) {
      waiting.delete(run);
      if (waiting.size > 0) return;
      if (frame !== undefined) timers.cancelFrame(frame);
      if (task !== undefined) timers.cancelLater(task);
      frame = task = undefined;
    },
  };
}

const batches = new WeakMap<FrameTimers, Batch>();

/**
 * Runs `run` in a task after the next frame, once for every request made before then: the frame
 * shows what changed at the time of the request, and what `run` changes follows in the frame after.
 * Queues on the same timers share that frame request and that task: a remote edit that changes the
 * history, the version and the saving count asks the browser for one frame and one task, not three
 * (each such call can wake another thread, which on a busy machine costs the edit time), and React
 * renders what they change together.
 */
export function afterPaintQueue(run: () => void, timers: FrameTimers = browserTimers): { request(): void; cancel(): void } {
  let batch = batches.get(timers);
  if (!batch) {
    batch = batchOn(timers);
    batches.set(timers, batch);
  }
  const shared = batch;
  // Its own function, so two queues with the same `run` still run it once each.
  const mine = () => run();
  return {
    request: () => shared.add(mine),
    cancel: () => shared.remove(mine),
  };
}

/**
 * `value` as it was when the last frame was painted: a change shows a frame later. For parts of the
 * page beside the canvas (the history panel, the version), so that drawing them does not hold back
 * the frame that shows an edit on the canvas. Unlike `useDeferredValue`, whose render may come
 * before that frame, this render always comes after it.
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  latest.current = value;
  const [queue] = useState(() => afterPaintQueue(() => setShown(() => latest.current)));
  useEffect(() => () => queue.cancel(), [queue]);
  useEffect(() => {
    if (!Object.is(value, shown)) queue.request();
  }, [value, shown, queue]);
  return shown;
}

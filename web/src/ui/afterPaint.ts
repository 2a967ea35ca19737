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

/**
 * Runs `run` in a task after the next frame, once for every request made before then: the frame
 * shows what changed at the time of the request, and what `run` changes follows in the frame after.
 */
export function afterPaintQueue(run: () => void, timers: FrameTimers = browserTimers): { request(): void; cancel(): void } {
  let frame: number | undefined;
  let task: number | undefined;
  return {
    request() {
      if (frame !== undefined || task !== undefined) return;
      frame = timers.frame(() => {
        frame = undefined;
        task = timers.later(() => {
          task = undefined;
          run();
        });
      });
    },
    cancel() {
      if (frame !== undefined) timers.cancelFrame(frame);
      if (task !== undefined) timers.cancelLater(task);
      frame = task = undefined;
    },
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

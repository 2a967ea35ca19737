import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { WORKER_SOURCE } from './workerSource.js';
import { heapBounds } from './workerMemory.js';
import { SANDBOX_PRELUDE } from './prelude.js';
import { MAX_FETCHES_PER_CALL, MAX_FETCH_REQUEST_BYTES } from './sandboxFetch.js';
import { MAX_RESULT_CHARS, SANDBOX_CANCELLED, timeoutMessage, toResult, type SandboxResult } from './sandboxResult.js';
import { closeFetches, fetchFor, type FetchCall } from './fetchLane.js';
import type { Active, FromWorker, Job, SandboxPoolOptions, SandboxRun, SandboxTestHooks, Slot } from './poolTypes.js';
import { policyFromEnv, type AddressPolicy } from '../net/addressPolicy.js';

/** Function execute timeout default (spec 000 §9). */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 10_000;
export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
const MAX_STDOUT_CHARS = 1_000_000;
/** QuickJS's own stack limit; the worker thread's native stack is far larger, so this one always fires first. */
const SANDBOX_STACK_BYTES = 512 * 1024;
const WORKER_STACK_MB = 32;
/** Extra time the host gives a job before it ends the worker thread itself (a native call that never checks the interrupt). */
const WATCHDOG_GRACE_MS = 2_000;
/** Timers (setTimeout and setInterval) one call may have pending at once. */
export const MAX_TIMERS_PER_CALL = 1_000;
export { MAX_RESULT_CHARS, PENDING_MESSAGE, SANDBOX_CANCELLED, type SandboxResult } from './sandboxResult.js';
export type { SandboxPoolOptions, SandboxRun, SandboxTestHooks } from './poolTypes.js';

/** WORKER_SOURCE code reaches quickjs through its resolved path: eval'd workers cannot resolve packages from here. */
const quickjsPath = createRequire(import.meta.url).resolve('quickjs-emscripten');

const positiveInt = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const STOPPED = 'Code execution failed: the sandbox stopped unexpectedly';
/**
 * What a started call answers when the watchdog ends its thread for another call stuck there and it
 * is not run again (it had made requests, had run long, or had been run again once already): not
 * its own fault, and its caller may run it again when its requests may be repeated.
 */
export const NEIGHBOUR_STUCK =
  'Code execution failed: another function on the same sandbox thread was stuck past its time limit and the thread was ended; this one was stopped with it and not run again, as it had made requests, had run long or had been run again already';
/**
 * A started call that made no request runs again on another thread when a call stuck beside it ends
 * its thread, once, and only if it had run at most this long: its answer then comes at most this +
 * its limit later than it would have, inside the margin its caller gives over its limit (the
 * runner's function activity: 30 s).
 */
const RERUN_MAX_SPENT_MS = 20_000;
/** What calls still queued or running answer once the pool is closed (the process is shutting down). */
const CLOSED = 'Code execution failed: the sandbox is closed';

/**
 * Untrusted code runs in QuickJS (WebAssembly) inside worker threads: the sandbox has no host
 * objects (only `params`, `environmentVariables`, a console that records lines, timers that live
 * only as long as the call, and a `fetch` the host makes through the outbound guard), a time limit
 * (QuickJS's interrupt, a deadline while the code awaits, and a host watchdog that ends the thread),
 * a memory limit, a stack limit well inside the thread's native stack, and caps on output, timers
 * and requests. Each call has a runtime of its own; a thread holds several calls, so calls that
 * await do not hold a thread each. A thread that dies for any reason is replaced; the call answers
 * which limit fired.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  /** Threads taken out of the pool after a crash answer: they finish the calls they hold, then end. */
  private readonly draining = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  readonly prewarm: boolean;
  private readonly lanesPerWorker: number;
  /** A call's memory limit when its run sets none: the threads' memory bounds are sized for it. */
  private readonly memoryLimitBytes: number;
  private readonly heap: { capBytes: number; retireBytes: number };
  private readonly policy: AddressPolicy;
  private readonly testHooks: SandboxTestHooks | undefined;

  constructor(opts: SandboxPoolOptions = {}) {
    const size = opts.size ?? positiveInt(process.env.WEFT_SANDBOX_WORKERS, Math.min(4, availableParallelism()));
    this.lanesPerWorker = opts.callsPerWorker ?? positiveInt(process.env.WEFT_SANDBOX_CALLS_PER_WORKER, 8);
    this.prewarm = opts.prewarm ?? true;
    this.memoryLimitBytes = opts.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
    this.heap = heapBounds(this.lanesPerWorker, this.memoryLimitBytes);
    this.policy = opts.policy ?? policyFromEnv();
    this.testHooks = opts.testHooks;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const cancelFlags = new SharedArrayBuffer(4 * this.lanesPerWorker);
    const computing = new SharedArrayBuffer(4);
    const startedFlags = new SharedArrayBuffer(4 * this.lanesPerWorker);
    const requestedFlags = new SharedArrayBuffer(4 * this.lanesPerWorker);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        quickjsPath,
        prewarm: this.prewarm,
        prelude: SANDBOX_PRELUDE,
        cancelFlags,
        computing,
        startedFlags,
        requestedFlags,
        ...(this.testHooks ? { testHooks: this.testHooks } : {}),
        limits: {
          memoryLimitBytes: this.memoryLimitBytes,
          stackBytes: SANDBOX_STACK_BYTES,
          maxTimers: MAX_TIMERS_PER_CALL,
          maxFetches: MAX_FETCHES_PER_CALL,
          maxRequestBodyBytes: MAX_FETCH_REQUEST_BYTES,
          heapCapBytes: this.heap.capBytes,
        },
      },
      resourceLimits: { stackSizeMb: WORKER_STACK_MB, maxOldGenerationSizeMb: 256 },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    const slot: Slot = { worker, ready: Promise.resolve(), lanes: new Array<Active | null>(this.lanesPerWorker).fill(null), cancelFlags: new Int32Array(cancelFlags), computing: new Int32Array(computing), startedFlags: new Int32Array(startedFlags), requestedFlags: new Int32Array(requestedFlags) };
    slot.ready = new Promise<void>((resolve) => {
      worker.on('message', (m: FromWorker) => {
        if ('ready' in m) resolve();
      });
      worker.once('exit', () => resolve());
    });
    worker.on('message', (m: FromWorker) => this.onMessage(slot, m));
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      const index = this.slots.indexOf(slot);
      if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
      this.draining.delete(slot);
      this.drop(slot, () => ({ success: false, error: this.closed ? CLOSED : STOPPED, stdout: '' }));
      this.pump();
    });
    return slot;
  }

  private onMessage(slot: Slot, m: FromWorker): void {
    if ('started' in m) {
      const active = this.find(slot, m.started);
      if (!active) return;
      active.startedAt = Date.now();
      active.watchdog = setTimeout(() => this.overdue(slot, active), active.job.run.timeoutMs + WATCHDOG_GRACE_MS);
    } else if ('fetch' in m) {
      const active = this.find(slot, m.fetch.id);
      if (active) fetchFor(active, m.fetch, this.fetchCall(slot, active));
    } else if ('result' in m) {
      const active = this.find(slot, m.id);
      if (!active) return;
      this.release(slot, active);
      if (!active.answered) {
        active.answered = true;
        active.job.resolve(toResult(m.result, active.job.run));
      }
      // The thread's host code failed (not the user's code): its state is not trusted any more.
      if (m.result.kind === 'crash' || m.result.retire) this.drain(slot);
      // Its WebAssembly memory never shrinks: a thread that grew large hands over to a fresh one.
      else if ((m.result.heapBytes ?? 0) > this.heap.retireBytes) this.drain(slot);
      if (this.draining.has(slot) && slot.lanes.every((a) => a === null)) void slot.worker.terminate();
      this.pump();
    }
  }

  /**
   * A job's watchdog: the thread did not answer it by its limit + grace. When another call is
   * computing, that call holds the thread: this one is answered at its limit and the thread kept
   * (the computing call's own watchdog ends it if it stays stuck). Otherwise the thread is stuck in
   * this call (a native call that never checks the interrupt) and is ended: the calls beside it past
   * their own limit answer that limit; the others are not at fault and are spared where that is safe
   * (see `spare`).
   */
  private overdue(slot: Slot, active: Active): void {
    if (slot.lanes[active.lane] !== active) return;
    const computing = Atomics.load(slot.computing, 0);
    if (computing !== 0 && computing !== active.job.id) {
      this.answer(active, { success: false, error: timeoutMessage(active.job.run.timeoutMs), stdout: '', limit: 'time' });
      return;
    }
    const now = Date.now();
    this.retire(slot, (a) =>
      a === active || (a.startedAt !== null && now > a.startedAt + a.job.run.timeoutMs)
        ? { success: false, error: timeoutMessage(a.job.run.timeoutMs), stdout: '', limit: 'time' }
        : this.spare(slot, a, now),
    );
  }

  /**
   * A started call on a thread ended for another call's sake. When nothing of it left the thread (it
   * asked for no request: its timers, console and memory all lived in its runtime, now gone), running
   * it again is running it as if for the first time: it goes back to the queue, with its full limit,
   * once, and only when it had run at most RERUN_MAX_SPENT_MS. A call that asked for a request may
   * have had effects outside (a POST, a message sent) and is never run again by the pool: it answers
   * NEIGHBOUR_STUCK, and whoever called it decides whether running it again is safe.
   */
  private spare(slot: Slot, a: Active, now: number): SandboxResult | 'again' {
    // The thread's flag, set before a request leaves: its `fetch` message may never have arrived.
    const requested = Atomics.load(slot.requestedFlags, a.lane) === a.job.id;
    const spent = a.startedAt === null ? 0 : now - a.startedAt;
    if (requested || a.job.reruns > 0 || spent > RERUN_MAX_SPENT_MS) return { success: false, error: NEIGHBOUR_STUCK, stdout: '' };
    a.job.reruns++;
    return 'again';
  }

  /** Answers a job now (the thread's answer, if it comes, is ignored) and closes its requests. */
  private answer(active: Active, result: SandboxResult): void {
    if (active.answered) return;
    active.answered = true;
    active.job.resolve(result);
    closeFetches(active);
  }

  private find(slot: Slot, id: number): Active | undefined {
    return slot.lanes.find((a): a is Active => a !== null && a.job.id === id);
  }

  /** Frees a lane: the job's watchdog stops and its requests in flight are aborted. */
  private release(slot: Slot, active: Active): void {
    if (active.watchdog) clearTimeout(active.watchdog);
    active.watchdog = null;
    closeFetches(active);
    if (slot.lanes[active.lane] === active) slot.lanes[active.lane] = null;
  }

  /**
   * Releases every lane of a thread that is gone: a job the thread never started goes back to the
   * front of the queue (it never ran), the others not answered yet are answered, or put back when
   * `answer` says `again` (a started job it judged safe to run again). Whether the thread started a
   * job is read from its shared flag, not from the `started` message, which may not have arrived: a
   * job that started may have made requests, and must not run twice.
   */
  private drop(slot: Slot, answer: (a: Active) => SandboxResult | 'again'): void {
    const again: Job[] = [];
    for (const active of slot.lanes) {
      if (!active) continue;
      this.release(slot, active);
      if (active.answered) continue;
      const outcome = this.started(slot, active) ? answer(active) : 'again';
      if (outcome !== 'again') this.answer(active, outcome);
      else if (this.closed) this.answer(active, { success: false, error: CLOSED, stdout: '' });
      else again.push(active.job);
    }
    this.queue.unshift(...again);
  }

  /** Whether the thread started a job (its `started` message may still be in flight). */
  private started(slot: Slot, active: Active): boolean {
    return active.startedAt !== null || Atomics.load(slot.startedFlags, active.lane) === active.job.id;
  }

  /** What a job's requests need of it: its limits, whether it still waits, and its thread to answer. */
  private fetchCall(slot: Slot, active: Active): FetchCall {
    return {
      policy: this.policy,
      limitBytes: active.job.run.memoryLimitBytes,
      timeLeftMs: () => (active.startedAt ?? Date.now()) + active.job.run.timeoutMs - Date.now(),
      live: () => slot.lanes[active.lane] === active && !active.answered,
      post: (done) => slot.worker.postMessage({ fetchDone: done }),
    };
  }

  private pick(): Slot | undefined {
    let best: Slot | undefined;
    let bestUsed = Infinity;
    for (const slot of this.slots) {
      const used = slot.lanes.filter((a) => a !== null).length;
      if (used < slot.lanes.length && used < bestUsed) {
        best = slot;
        bestUsed = used;
      }
    }
    return best;
  }

  private pump(): void {
    for (;;) {
      if (this.queue.length === 0 || this.closed) return;
      const slot = this.pick();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      const lane = slot.lanes.indexOf(null);
      const active: Active = { job, lane, posted: false, answered: false, startedAt: null, watchdog: null, fetches: new Set(), waitingFetches: [], fetchedBytes: 0 };
      slot.lanes[lane] = active;
      void slot.ready.then(() => {
        if (slot.lanes[lane] !== active) return;
        if (active.answered) {
          // Cancelled before the thread was ready: it never saw the job.
          this.release(slot, active);
          this.pump();
          return;
        }
        active.posted = true;
        const { lineOffset: _l, ...payload } = job.run;
        slot.worker.postMessage({ run: { id: job.id, lane, ...payload, maxStdoutChars: MAX_STDOUT_CHARS, maxResultChars: MAX_RESULT_CHARS, stackBytes: SANDBOX_STACK_BYTES } });
      });
    }
  }

  run(run: SandboxRun): Promise<SandboxResult> {
    if (this.closed) return Promise.resolve({ success: false, error: CLOSED, stdout: '' });
    const cancelled: SandboxResult = { success: false, error: SANDBOX_CANCELLED, stdout: '' };
    if (run.signal?.aborted) return Promise.resolve(cancelled);
    return new Promise((resolve) => {
      const signal = run.signal;
      const onAbort = () => this.cancel(job, cancelled);
      const job: Job = {
        id: this.nextId,
        run: {
          code: run.code,
          params: run.params,
          envVars: run.envVars,
          timeoutMs: run.timeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
          memoryLimitBytes: run.memoryLimitBytes ?? this.memoryLimitBytes,
          lineOffset: run.lineOffset ?? 0,
        },
        reruns: 0,
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
      };
      // Ids go to an Int32Array (the cancel flags): they wrap before 2^31.
      this.nextId = (this.nextId % 0x7fff_ffff) + 1;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Calls in progress (a call stopped by its signal no longer counts). */
  get busy(): number {
    return [...this.slots, ...this.draining].reduce((n, s) => n + s.lanes.filter((a) => a !== null && !a.answered).length, 0);
  }

  /**
   * Stops `job`: taken off the queue, or answered now and interrupted in its thread (the interrupt
   * handler sees its cancel flag while it computes; the thread drops it at once while it awaits).
   * Its requests in flight are aborted; the thread goes on with its other calls.
   */
  private cancel(job: Job, answer: SandboxResult): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.resolve(answer);
      return;
    }
    for (const slot of [...this.slots, ...this.draining]) {
      const active = this.find(slot, job.id);
      if (!active || active.answered) continue;
      this.answer(active, answer);
      if (active.posted) {
        Atomics.store(slot.cancelFlags, active.lane, job.id);
        slot.worker.postMessage({ cancel: job.id });
      }
      return;
    }
  }

  /** Ends a slot's thread, answering its calls, and puts a fresh one in its place at once, so no job is handed to the dying thread. */
  private retire(slot: Slot, answer: (a: Active) => SandboxResult | 'again'): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
    this.draining.delete(slot);
    this.drop(slot, answer);
    void slot.worker.terminate();
    this.pump();
  }

  /** Takes a slot's thread out of the pool (a fresh one takes its place): it gets no new job and ends once the jobs it holds are answered. */
  private drain(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || this.closed) return;
    this.slots[index] = this.spawn();
    this.draining.add(slot);
  }

  /** Ends every thread; calls still queued or running answer `Code execution failed: the sandbox is closed`. */
  async close(): Promise<void> {
    this.closed = true;
    const closed: SandboxResult = { success: false, error: CLOSED, stdout: '' };
    for (const job of this.queue.splice(0)) job.resolve(closed);
    const slots = [...this.slots, ...this.draining];
    for (const slot of slots) this.drop(slot, () => closed);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let shared: SandboxPool | null = null;

/** The process's sandbox pool (created on first use). */
export function sharedSandbox(): SandboxPool {
  shared ??= new SandboxPool();
  return shared;
}

/**
 * Runs untrusted function-block code with a time and memory limit. The code is a function body: it
 * may `return` a value and use `await`; it sees `params`, `environmentVariables` and `console`.
 */
export function runInSandbox(run: SandboxRun): Promise<SandboxResult> {
  return sharedSandbox().run(run);
}

import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import type { FunctionDebug } from '@weft/contracts';
import { WORKER_SOURCE } from './workerSource.js';

/** Function execute timeout default (spec 000 §9). */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 10_000;
export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
const MAX_STDOUT_CHARS = 1_000_000;
/** The largest result (as JSON text) a function may return. */
export const MAX_RESULT_CHARS = 10_000_000;
/** QuickJS's own stack limit; the worker thread's native stack is far larger, so this one always fires first. */
const SANDBOX_STACK_BYTES = 512 * 1024;
const WORKER_STACK_MB = 32;
/** Extra time the host gives a job before it ends the worker thread itself (a native call that never checks the interrupt). */
const WATCHDOG_GRACE_MS = 2_000;

export interface SandboxRun {
  code: string;
  params: Record<string, unknown>;
  envVars: Record<string, string>;
  timeoutMs?: number;
  memoryLimitBytes?: number;
  /** Lines put before the user's code (declarations), subtracted from error lines. */
  lineOffset?: number;
  /** Aborting stops the code at once: a queued job never starts, a running one loses its thread. */
  signal?: AbortSignal | undefined;
}

/** What a run stopped by its signal answers (its activity was cancelled: nobody reads it but the log). */
export const SANDBOX_CANCELLED = 'Code execution cancelled';

export type SandboxResult =
  | { success: true; result: unknown; stdout: string }
  | { success: false; error: string; stdout: string; debug?: FunctionDebug; limit?: 'time' | 'memory' | 'stack' | 'output' };

interface WorkerAnswer {
  success: boolean;
  kind?: 'timeout' | 'memory' | 'stack' | 'pending' | 'error' | 'output' | 'crash';
  resultJson?: string;
  stdout: string;
  error?: { name: string; message: string; stack: string };
  runMs?: number;
}

interface Job {
  id: number;
  run: Required<Omit<SandboxRun, 'lineOffset' | 'signal'>> & { lineOffset: number };
  resolve: (r: SandboxResult) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  job: Job | null;
  watchdog: NodeJS.Timeout | null;
}

export interface SandboxPoolOptions {
  /** Worker threads (default WEFT_SANDBOX_WORKERS, else the number of CPUs, at most 4). */
  size?: number;
  /** Keep a fresh runtime ready between calls (default true); off, every call pays the cold start. */
  prewarm?: boolean;
}

/** WORKER_SOURCE code reaches quickjs through its resolved path: eval'd workers cannot resolve packages from here. */
const quickjsPath = createRequire(import.meta.url).resolve('quickjs-emscripten');

/**
 * Untrusted code runs in QuickJS (WebAssembly) inside worker threads: the sandbox has no host
 * objects at all (only `params`, `environmentVariables` and a console that records lines), a time
 * limit (QuickJS's interrupt, and a host watchdog that ends the thread), a memory limit, a stack
 * limit well inside the thread's native stack, and a cap on output. A thread that dies for any
 * reason is replaced; the call answers which limit fired.
 */
export class SandboxPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  readonly prewarm: boolean;

  constructor(opts: SandboxPoolOptions = {}) {
    const fromEnv = Number(process.env.WEFT_SANDBOX_WORKERS);
    const size = opts.size ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.min(4, availableParallelism()));
    this.prewarm = opts.prewarm ?? true;
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { quickjsPath, prewarm: this.prewarm, limits: { memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES, stackBytes: SANDBOX_STACK_BYTES } },
      resourceLimits: { stackSizeMb: WORKER_STACK_MB, maxOldGenerationSizeMb: 256 },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    const slot: Slot = { worker, ready: Promise.resolve(), job: null, watchdog: null };
    slot.ready = new Promise<void>((resolve) => {
      const onReady = (m: unknown) => {
        if (typeof m === 'object' && m !== null && 'ready' in m) {
          worker.off('message', onReady);
          resolve();
        }
      };
      worker.on('message', onReady);
      worker.once('exit', () => resolve());
    });
    worker.on('message', (m: { id?: number; result?: WorkerAnswer }) => {
      if (!m.result || !slot.job || m.id !== slot.job.id) return;
      const job = slot.job;
      this.finish(slot);
      job.resolve(toResult(m.result, job.run));
      this.pump();
    });
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      const job = slot.job;
      const index = this.slots.indexOf(slot);
      if (slot.watchdog) clearTimeout(slot.watchdog);
      slot.job = null;
      if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
      if (job) job.resolve({ success: false, error: 'Code execution failed: the sandbox stopped unexpectedly', stdout: '' });
      this.pump();
    });
    return slot;
  }

  private finish(slot: Slot): void {
    if (slot.watchdog) clearTimeout(slot.watchdog);
    slot.watchdog = null;
    slot.job = null;
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift() as Job;
      slot.job = job;
      const { lineOffset: _l, ...payload } = job.run;
      void slot.ready.then(() => {
        if (slot.job !== job) return;
        slot.worker.postMessage({ id: job.id, ...payload, maxStdoutChars: MAX_STDOUT_CHARS, maxResultChars: MAX_RESULT_CHARS, stackBytes: SANDBOX_STACK_BYTES });
        slot.watchdog = setTimeout(() => {
          if (slot.job !== job) return;
          this.retire(slot);
          job.resolve({ success: false, error: timeoutMessage(job.run.timeoutMs), stdout: '', limit: 'time' });
        }, job.run.timeoutMs + WATCHDOG_GRACE_MS);
      });
    }
  }

  run(run: SandboxRun): Promise<SandboxResult> {
    if (this.closed) return Promise.resolve({ success: false, error: 'Code execution failed: the sandbox is closed', stdout: '' });
    const cancelled: SandboxResult = { success: false, error: SANDBOX_CANCELLED, stdout: '' };
    if (run.signal?.aborted) return Promise.resolve(cancelled);
    return new Promise((resolve) => {
      const signal = run.signal;
      const onAbort = () => this.cancel(job, cancelled);
      const job: Job = {
        id: this.nextId++,
        run: {
          code: run.code,
          params: run.params,
          envVars: run.envVars,
          timeoutMs: run.timeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS,
          memoryLimitBytes: run.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES,
          lineOffset: run.lineOffset ?? 0,
        },
        resolve: (r) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(r);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Threads running code right now (a job stopped by its signal no longer counts). */
  get busy(): number {
    return this.slots.filter((s) => s.job !== null).length;
  }

  /** Stops `job`: taken off the queue, or its thread ended (QuickJS cannot be interrupted from outside; the thread is replaced). */
  private cancel(job: Job, answer: SandboxResult): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.retire(slot);
    if (queued >= 0 || slot) job.resolve(answer);
  }

  /** Ends a slot's thread and puts a fresh one in its place at once, so no job is handed to the dying thread. */
  private retire(slot: Slot): void {
    this.finish(slot);
    const index = this.slots.indexOf(slot);
    if (index >= 0 && !this.closed) this.slots[index] = this.spawn();
    void slot.worker.terminate();
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

function timeoutMessage(ms: number): string {
  return `Function execution timed out after ${ms} ms`;
}

/** Where in the user's code an error was thrown: the first frame in function.js, less the wrapper's line. */
function debugOf(err: { name: string; message: string; stack: string }, lineOffset: number): FunctionDebug {
  const m = /function\.js:(\d+)(?::(\d+))?/.exec(err.stack);
  const debug: FunctionDebug = { errorType: err.name, stack: err.stack };
  if (m?.[1]) {
    debug.line = Math.max(1, Number(m[1]) - 1 - lineOffset);
    if (m[2]) debug.column = Number(m[2]);
  }
  return debug;
}

function parseResult(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return (JSON.parse(text) as unknown) ?? null;
  } catch {
    return null;
  }
}

function toResult(a: WorkerAnswer, run: Job['run']): SandboxResult {
  if (a.success) {
    return { success: true, result: parseResult(a.resultJson), stdout: a.stdout };
  }
  const mb = Math.round(run.memoryLimitBytes / 1024 / 1024);
  switch (a.kind) {
    case 'timeout':
      return { success: false, error: timeoutMessage(run.timeoutMs), stdout: a.stdout, limit: 'time' };
    case 'memory':
      return { success: false, error: `Function execution exceeded the memory limit of ${mb} MB`, stdout: a.stdout, limit: 'memory' };
    case 'stack':
      return { success: false, error: 'Function execution exceeded the stack size limit (too much recursion)', stdout: a.stdout, limit: 'stack' };
    case 'output':
      return { success: false, error: `Function result exceeds the limit of ${MAX_RESULT_CHARS / 1_000_000} MB of JSON`, stdout: a.stdout, limit: 'output' };
    case 'pending':
      return { success: false, error: 'Function did not finish: it awaits something that never resolves', stdout: a.stdout };
    case 'error':
    case 'crash':
    case undefined: {
      const err = a.error ?? { name: 'Error', message: 'Code execution failed', stack: '' };
      return { success: false, error: `${err.name}: ${err.message}`, stdout: a.stdout, debug: debugOf(err, run.lineOffset) };
    }
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

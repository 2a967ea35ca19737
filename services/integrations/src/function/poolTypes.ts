/** The sandbox pool's shapes: what a caller gives (a run, the pool's options) and what the pool keeps per thread and per call. */
import type { Worker } from 'node:worker_threads';
import type { SandboxResult, WorkerAnswer } from './sandboxResult.js';
import type { FetchLane, FetchRequest } from './fetchLane.js';
import type { AddressPolicy } from '../net/addressPolicy.js';

export interface SandboxRun {
  code: string;
  params: Record<string, unknown>;
  envVars: Record<string, string>;
  timeoutMs?: number;
  memoryLimitBytes?: number;
  /** Lines put before the user's code (declarations), subtracted from error lines. */
  lineOffset?: number;
  /** Aborting stops the code at once: a queued job never starts, a running one is interrupted and its requests closed. */
  signal?: AbortSignal | undefined;
}

export interface Job {
  id: number;
  run: Required<Omit<SandboxRun, 'lineOffset' | 'signal'>> & { lineOffset: number };
  resolve: (r: SandboxResult) => void;
  /** Times the job was run again after another call's stuck thread was ended under it (at most once). */
  reruns: number;
}

/** A job handed to a thread: it holds its lane until the thread answers it, even after the caller got its answer (cancelled, timed out by the watchdog). */
export interface Active extends FetchLane {
  job: Job;
  lane: number;
  posted: boolean;
  answered: boolean;
  startedAt: number | null;
  watchdog: NodeJS.Timeout | null;
}

export interface Slot {
  worker: Worker;
  ready: Promise<void>;
  lanes: (Active | null)[];
  /** Per lane, the id of a job the host cancelled: the thread's interrupt handler reads it while code runs. */
  cancelFlags: Int32Array;
  /** The id of the job the thread is computing now (0: none), written by the thread: the watchdog blames that one. */
  computing: Int32Array;
  /**
   * Per lane, the id of the last job the thread started there, written by the thread before any of
   * the job's code runs: a job whose `started` message was still in flight when its thread died may
   * have run (and fetched), so it is not run again.
   */
  startedFlags: Int32Array;
  /**
   * Per lane, the id of the last job that asked for a request there, written by the thread before it
   * hands the request over: a started job that never did may be run again on another thread (all it
   * did stayed inside its runtime); one that did may have had effects outside, and is not.
   */
  requestedFlags: Int32Array;
}

export type FromWorker =
  | { ready: true }
  | { started: number }
  | { fetch: FetchRequest }
  | { id: number; result: WorkerAnswer };

export interface SandboxPoolOptions {
  /** Worker threads (default WEFT_SANDBOX_WORKERS, else the number of CPUs, at most 4). */
  size?: number;
  /** Calls one thread holds at once (default WEFT_SANDBOX_CALLS_PER_WORKER, else 8): while one awaits a timer or a fetch, another runs. */
  callsPerWorker?: number;
  /** A call's memory limit when its run sets none (default 64 MB); a thread's memory bounds are sized for lanes × this limit. */
  memoryLimitBytes?: number;
  /** Keep a fresh runtime ready between calls (default true); off, every call pays the cold start. */
  prewarm?: boolean;
  /** Which addresses the code's `fetch` may reach (default: WEFT_ALLOW_PRIVATE_NETWORK / WEFT_OUTBOUND_ALLOWLIST, as every tool). */
  policy?: AddressPolicy;
  /** Tests only (never set by the service): faults the threads play so the pool's answers to them can be tested. */
  testHooks?: SandboxTestHooks;
}

/** Faults a test asks of the threads (all off by default); see WORKER_SOURCE. */
export interface SandboxTestHooks {
  /** The thread never posts `started`: as if it died with that message still in flight. */
  withholdStarted?: boolean;
  /** The code gets a global `hang()` that blocks its thread in a host call that never returns (stuck in native code). */
  hang?: boolean;
}

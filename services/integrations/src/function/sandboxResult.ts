import type { FunctionDebug } from '@weft/contracts';

/** The largest result (as JSON text) a function may return. */
export const MAX_RESULT_CHARS = 10_000_000;
/**
 * A call whose promise is still pending when no timer is left and no request is in flight can never
 * finish: it is answered at once with this (not left to run into its time limit).
 */
export const PENDING_MESSAGE = 'Function did not finish: it awaits something that never resolves';

/** What a run stopped by its signal answers (its activity was cancelled: nobody reads it but the log). */
export const SANDBOX_CANCELLED = 'Code execution cancelled';

/** What a sandbox call answers: its result and console, or the error and which limit fired. */
export type SandboxResult =
  | { success: true; result: unknown; stdout: string }
  | { success: false; error: string; stdout: string; debug?: FunctionDebug; limit?: 'time' | 'memory' | 'stack' | 'output' };

/** What a thread answers for a job. */
export interface WorkerAnswer {
  success: boolean;
  kind?: 'timeout' | 'memory' | 'stack' | 'pending' | 'error' | 'output' | 'crash' | 'cancelled';
  resultJson?: string;
  stdout: string;
  error?: { name: string; message: string; stack: string };
  runMs?: number;
  /** The thread's WebAssembly memory when it answered (it never shrinks). */
  heapBytes?: number;
  /** The thread's host code saw its WebAssembly fail (a trap, no memory left for a copy): it is to be retired. */
  retire?: boolean;
}

/** The answer of a call that ran past its time limit. */
export function timeoutMessage(ms: number): string {
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

/** A thread's answer as the call's result: which limit fired, or the error and where it was thrown. */
export function toResult(a: WorkerAnswer, run: { timeoutMs: number; memoryLimitBytes: number; lineOffset: number }): SandboxResult {
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
      return { success: false, error: PENDING_MESSAGE, stdout: a.stdout };
    case 'cancelled':
      return { success: false, error: SANDBOX_CANCELLED, stdout: a.stdout };
    case 'error':
    case 'crash':
    case undefined: {
      const err = a.error ?? { name: 'Error', message: 'Code execution failed', stack: '' };
      return { success: false, error: `${err.name}: ${err.message}`, stdout: a.stdout, debug: debugOf(err, run.lineOffset) };
    }
  }
}

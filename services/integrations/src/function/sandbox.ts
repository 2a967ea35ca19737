import { getQuickJS, shouldInterruptAfterDeadline, type QuickJSContext, type QuickJSHandle } from 'quickjs-emscripten';

/** Function execute timeout default (spec 000 §9). */
export const DEFAULT_FUNCTION_TIMEOUT_MS = 10_000;
export const DEFAULT_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
const MAX_STDOUT_CHARS = 1_000_000;

export interface SandboxRun {
  code: string;
  params: Record<string, unknown>;
  envVars: Record<string, string>;
  timeoutMs?: number;
  memoryLimitBytes?: number;
}

export type SandboxResult = { success: true; result: unknown; stdout: string } | { success: false; error: string; stdout: string };

/**
 * Runs untrusted function-block code in a fresh QuickJS (WebAssembly) runtime with a time and a
 * memory limit. The code is a function body: it may `return` a value and use `await`; it sees
 * `params`, `environmentVariables` and `console`.
 */
export async function runInSandbox(run: SandboxRun): Promise<SandboxResult> {
  const quickjs = await getQuickJS();
  const timeoutMs = run.timeoutMs ?? DEFAULT_FUNCTION_TIMEOUT_MS;
  const memoryLimit = run.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(memoryLimit);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + timeoutMs));
  const vm = runtime.newContext();
  let stdout = '';
  const write = (line: string) => {
    if (stdout.length < MAX_STDOUT_CHARS) stdout += `${line}\n`.slice(0, MAX_STDOUT_CHARS - stdout.length);
  };
  try {
    installConsole(vm, write);
    setGlobalJson(vm, 'params', run.params);
    setGlobalJson(vm, 'environmentVariables', run.envVars);
    const evaluated = vm.evalCode(`(async () => {\n${run.code}\n})()`, 'function.js');
    if (evaluated.error) return failure(vm, evaluated.error, stdout, timeoutMs, memoryLimit);
    const promise = evaluated.value;
    try {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) return failure(vm, jobs.error, stdout, timeoutMs, memoryLimit);
      const state = vm.getPromiseState(promise);
      if (state.type === 'pending') {
        return { success: false, error: 'Function did not finish: it awaits something that never resolves', stdout };
      }
      if (state.type === 'rejected') return failure(vm, state.error, stdout, timeoutMs, memoryLimit);
      const result = vm.dump(state.value);
      state.value.dispose();
      return { success: true, result: result === undefined ? null : result, stdout };
    } finally {
      promise.dispose();
    }
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function installConsole(vm: QuickJSContext, write: (line: string) => void): void {
  const consoleObj = vm.newObject();
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const fn = vm.newFunction(level, (...args: QuickJSHandle[]) => {
      write(args.map((a) => formatValue(vm.dump(a))).join(' '));
    });
    vm.setProp(consoleObj, level, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleObj);
  consoleObj.dispose();
}

function setGlobalJson(vm: QuickJSContext, name: string, value: unknown): void {
  const parsed = vm.evalCode(`(${JSON.stringify(JSON.stringify(value ?? null))})`);
  const text = vm.unwrapResult(parsed);
  const json = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(json, 'parse');
  const handle = vm.unwrapResult(vm.callFunction(parse, json, text));
  vm.setProp(vm.global, name, handle);
  for (const h of [handle, parse, json, text]) h.dispose();
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function failure(vm: QuickJSContext, handle: QuickJSHandle, stdout: string, timeoutMs: number, memoryLimit: number): SandboxResult {
  const dumped: unknown = vm.dump(handle);
  handle.dispose();
  const err = typeof dumped === 'object' && dumped !== null ? (dumped as { name?: unknown; message?: unknown }) : { message: dumped };
  const name = typeof err.name === 'string' ? err.name : 'Error';
  const message = typeof err.message === 'string' ? err.message : String(err.message);
  if (name === 'InternalError' && message === 'interrupted') {
    return { success: false, error: `Function execution timed out after ${timeoutMs} ms`, stdout };
  }
  if (message === 'out of memory' || name === 'RangeError' && message.includes('memory')) {
    return { success: false, error: `Function execution exceeded the memory limit of ${Math.round(memoryLimit / 1024 / 1024)} MB`, stdout };
  }
  return { success: false, error: `${name}: ${message}`, stdout };
}

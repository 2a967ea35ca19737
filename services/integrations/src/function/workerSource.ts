/**
 * The sandbox worker thread's program (plain JavaScript, run with `eval: true` so it works the same
 * from the TypeScript sources under test and from the build). It keeps one fresh QuickJS runtime
 * and context ready, runs one job at a time in it, answers, and prepares the next fresh one: no
 * state survives from one call to the next.
 */
export const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const qjs = require(workerData.quickjsPath);
let quickjs;
let ready;

function fresh(limits) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryLimitBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const vm = runtime.newContext();
  return { runtime, vm, memoryLimitBytes: limits.memoryLimitBytes };
}

function setGlobalJson(vm, name, value) {
  const text = vm.newString(JSON.stringify(value === undefined ? null : value));
  const json = vm.getProp(vm.global, 'JSON');
  const parse = vm.getProp(json, 'parse');
  const handle = vm.unwrapResult(vm.callFunction(parse, json, text));
  vm.setProp(vm.global, name, handle);
  for (const h of [handle, parse, json, text]) h.dispose();
}

function formatValue(value) {
  if (typeof value === 'string') return value;
  try { const t = JSON.stringify(value); return t === undefined ? String(value) : t; } catch { return String(value); }
}

function describe(vm, handle) {
  let dumped;
  try { dumped = vm.dump(handle); } catch { dumped = { name: 'Error', message: 'unreadable error' }; }
  handle.dispose();
  const err = typeof dumped === 'object' && dumped !== null ? dumped : { message: dumped };
  return {
    name: typeof err.name === 'string' ? err.name : 'Error',
    message: typeof err.message === 'string' ? err.message : String(err.message),
    stack: typeof err.stack === 'string' ? err.stack : '',
  };
}

function run(job) {
  let box = ready && ready.memoryLimitBytes === job.memoryLimitBytes ? ready : null;
  ready = null;
  if (!box) box = fresh(job);
  const { runtime, vm } = box;
  let stdout = '';
  const write = (line) => {
    if (stdout.length < job.maxStdoutChars) stdout += (line + '\n').slice(0, job.maxStdoutChars - stdout.length);
  };
  const deadline = Date.now() + job.timeoutMs;
  let interrupted = false;
  runtime.setInterruptHandler(() => { if (Date.now() > deadline) { interrupted = true; return true; } return false; });
  const fail = (handle) => {
    const e = describe(vm, handle);
    if (interrupted || (e.name === 'InternalError' && e.message === 'interrupted')) return { success: false, kind: 'timeout', stdout };
    if (e.message === 'out of memory' || (e.name === 'RangeError' && /memory/.test(e.message))) return { success: false, kind: 'memory', stdout };
    if (/stack overflow/.test(e.message)) return { success: false, kind: 'stack', stdout, error: e };
    return { success: false, kind: 'error', error: e, stdout };
  };
  try {
    const consoleObj = vm.newObject();
    for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
      const fn = vm.newFunction(level, (...args) => { write(args.map((a) => formatValue(vm.dump(a))).join(' ')); });
      vm.setProp(consoleObj, level, fn);
      fn.dispose();
    }
    vm.setProp(vm.global, 'console', consoleObj);
    consoleObj.dispose();
    setGlobalJson(vm, 'params', job.params);
    setGlobalJson(vm, 'environmentVariables', job.envVars);
    const evaluated = vm.evalCode('(async () => {\n' + job.code + '\n})()', 'function.js');
    if (evaluated.error) return fail(evaluated.error);
    const promise = evaluated.value;
    try {
      const jobs = runtime.executePendingJobs();
      if (jobs.error) return fail(jobs.error);
      if (interrupted) return { success: false, kind: 'timeout', stdout };
      const state = vm.getPromiseState(promise);
      if (state.type === 'pending') return { success: false, kind: 'pending', stdout };
      if (state.type === 'rejected') return fail(state.error);
      // The result leaves the sandbox as JSON text, measured before it is copied out.
      const json = vm.getProp(vm.global, 'JSON');
      const stringify = vm.getProp(json, 'stringify');
      const text = vm.callFunction(stringify, json, state.value);
      state.value.dispose();
      stringify.dispose();
      json.dispose();
      if (text.error) return fail(text.error);
      const lenHandle = vm.getProp(text.value, 'length');
      const len = vm.typeof(lenHandle) === 'number' ? vm.getNumber(lenHandle) : 0;
      lenHandle.dispose();
      if (len > job.maxResultChars) { text.value.dispose(); return { success: false, kind: 'output', stdout }; }
      const out = vm.typeof(text.value) === 'string' ? vm.getString(text.value) : 'null';
      text.value.dispose();
      return { success: true, resultJson: out, stdout };
    } finally {
      promise.dispose();
    }
  } finally {
    try { vm.dispose(); runtime.dispose(); } catch { /* a broken runtime is dropped with the worker */ }
  }
}

qjs.getQuickJS().then((q) => {
  quickjs = q;
  if (workerData.prewarm) ready = fresh(workerData.limits);
  parentPort.on('message', (job) => {
    const started = performance.now();
    let result;
    try { result = run(job); } catch (err) { result = { success: false, kind: 'crash', stdout: '', error: { name: 'Error', message: String(err && err.message || err), stack: '' } }; }
    result.runMs = performance.now() - started;
    parentPort.postMessage({ id: job.id, result });
    if (workerData.prewarm && !ready) ready = fresh(workerData.limits);
  });
  parentPort.postMessage({ ready: true });
});
`;

import { WORKER_MEMORY_SOURCE } from './workerMemory.js';

/**
 * The sandbox worker thread's program (plain JavaScript, run with `eval: true` so it works the same
 * from the TypeScript sources under test and from the build). Each call gets a fresh QuickJS runtime
 * and context of its own (one is kept ready), so no state survives from one call to the next. A
 * thread holds several calls at once: while one awaits a timer or a fetch, another runs. A call
 * ends when its promise settles, its time limit passes, the host cancels it, or nothing is left
 * that could settle it (no timer, no fetch in flight); its timers are then cleared and its fetches
 * dropped.
 *
 * Messages in: `{run}` a call, `{cancel: id}`, `{fetchDone: {id, req, meta, body} | {id, req, error}}`
 * (a response's status and headers as JSON text, its body the bytes as they came, a Uint8Array).
 * Out: `{ready}`, `{started: id}`, `{fetch: {id, req, request, bytes?}}` (the host makes the request
 * through the outbound guard; `bytes` a binary body, transferred), `{id, result}` (`result.heapBytes`:
 * the thread's WebAssembly memory then, by which the host retires a thread grown large). What a call
 * may hold is measured and bounded by WORKER_MEMORY_SOURCE (workerMemory.ts). Three shared arrays tell the host
 * what the thread did even when it dies before its messages arrive: `computing` holds the id of the
 * call computing now (0 when none), so the watchdog knows which call holds the thread;
 * `startedFlags` (one per lane) the id of the last call the thread started there, set before any of
 * its code runs; `requestedFlags` (one per lane) the id of the last call that handed a request over
 * there, set before the request leaves. So the host hands a call that never started to another
 * thread, and runs again a started one only when nothing of it left the thread (no request).
 *
 * `workerData.testHooks` (tests only, absent otherwise): `withholdStarted` never posts `{started}`
 * (a thread that dies with that message in flight); `hang` gives the code a global `hang()` that
 * blocks the thread in a host call that never returns (a native call that never checks the interrupt).
 */
export const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const qjs = require(workerData.quickjsPath);
const cancelled = new Int32Array(workerData.cancelFlags);
const computing = new Int32Array(workerData.computing);
const startedFlags = new Int32Array(workerData.startedFlags);
const requestedFlags = new Int32Array(workerData.requestedFlags);
const testHooks = workerData.testHooks || {};
/** Promise jobs run between checks of the call's stop, deadline and cancel flag: an interrupted job is only a rejection to the code, which may go on. */
const JOB_BATCH = 64;
const { maxTimers, maxFetches, maxRequestBodyBytes, heapCapBytes } = workerData.limits;
let quickjs;
let ready;
const calls = new Map();
let nextSweep = 0;
/** The call whose code or host callbacks run now: WebAssembly memory it makes grow is counted against it. */
let current = null;
${WORKER_MEMORY_SOURCE}
function fresh(limits) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryLimitBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  let vm;
  try { vm = runtime.newContext(); } catch (err) { runtime.dispose(); throw err; }
  return { runtime, vm, memoryLimitBytes: limits.memoryLimitBytes };
}

/** Keeps a runtime ready, its memory counted against no call; when the thread's memory is at its bound, the next call makes its own. */
function refill() {
  if (!workerData.prewarm || ready) return;
  const outer = current;
  current = null;
  try { ready = fresh(workerData.limits); } catch { ready = undefined; } finally { current = outer; }
}

function setGlobalJson(call, name, value) {
  const { vm } = call;
  const text = newStringIn(call, JSON.stringify(value === undefined ? null : value));
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
  // dump disposes some values itself (a promise): disposing again would throw 'Lifetime not alive'.
  if (handle.alive) handle.dispose();
  const err = typeof dumped === 'object' && dumped !== null ? dumped : { message: dumped };
  return {
    name: typeof err.name === 'string' ? err.name : 'Error',
    message: typeof err.message === 'string' ? err.message : String(err.message),
    stack: typeof err.stack === 'string' ? err.stack : '',
  };
}

const isCancelled = (call) => Atomics.load(cancelled, call.lane) === call.id;

/** What a thrown or rejected value means: a limit that fired, or the code's own error. */
function classify(call, handle) {
  const e = describe(call.vm, handle);
  if (call.stop === 'cancelled') return { success: false, kind: 'cancelled' };
  if (call.stop === 'memory' || call.growRefused) return { success: false, kind: 'memory' };
  if (call.stop === 'timeout' || (e.name === 'InternalError' && e.message === 'interrupted')) return { success: false, kind: 'timeout' };
  if (e.message === 'out of memory' || (e.name === 'RangeError' && /memory/.test(e.message))) return { success: false, kind: 'memory' };
  if (/stack overflow/.test(e.message)) return { success: false, kind: 'stack', error: e };
  return { success: false, kind: 'error', error: e };
}

function crash(err) {
  return { success: false, kind: 'crash', error: { name: 'Error', message: String((err && err.message) || err), stack: '' } };
}

/** The result leaves the sandbox as JSON text, measured before it is copied out. */
function resultOf(call, value) {
  const { vm } = call;
  const json = vm.getProp(vm.global, 'JSON');
  const stringify = vm.getProp(json, 'stringify');
  const text = vm.callFunction(stringify, json, value);
  value.dispose();
  stringify.dispose();
  json.dispose();
  if (text.error) return classify(call, text.error);
  const lenHandle = vm.getProp(text.value, 'length');
  const len = vm.typeof(lenHandle) === 'number' ? vm.getNumber(lenHandle) : 0;
  lenHandle.dispose();
  if (len > call.maxResultChars) { text.value.dispose(); return { success: false, kind: 'output' }; }
  const out = vm.typeof(text.value) === 'string' ? vm.getString(text.value) : 'null';
  text.value.dispose();
  return { success: true, resultJson: out };
}

function dispose(call) {
  call.bodies.clear();
  call.bodyBytes = 0;
  for (const deferred of call.fetches.values()) { try { deferred.dispose(); } catch { /* gone with the runtime */ } }
  call.fetches.clear();
  for (const h of [call.fire, call.promise]) { try { if (h && h.alive) h.dispose(); } catch { /* gone with the runtime */ } }
  // A runtime that cannot be freed is left, and the thread's next answer asks the host to retire it.
  try { call.vm.dispose(); call.runtime.dispose(); } catch { suspect = true; }
}

/** Answers a call once; its timers stop now. Inside another call's interrupt handler the runtime is freed later, outside QuickJS. */
function end(call, answer, later) {
  if (call.done) return;
  if (call.fault && answer.kind !== 'crash') answer = crash(call.fault);
  call.done = true;
  // The memory kept from the call in its turn is free again before its runtime goes and the next one is made.
  releaseBallast(call);
  calls.delete(call.id);
  if (suspect || (!later && freeOverLimit())) answer.retire = true;
  clearTimeout(call.deadlineTimer);
  for (const timer of call.timers.values()) clearTimeout(timer);
  call.timers.clear();
  answer.stdout = call.stdout;
  answer.runMs = performance.now() - call.startedAt;
  answer.heapBytes = wasmMemory.buffer.byteLength;
  parentPort.postMessage({ id: call.id, result: answer });
  if (later) setImmediate(() => { dispose(call); refill(); });
  else { dispose(call); refill(); }
}

function guarded(call, fn) {
  if (call.done) return;
  Atomics.store(computing, 0, call.id);
  const outer = current;
  current = call;
  // A turn of the call: what the thread's memory in use changes by until it ends is the call's.
  const turn = !call.inTurn;
  try {
    if (turn) enterTurn(call);
    fn();
  } catch (err) {
    noteFault(call, err);
    // A copy refused by the call's limit (copyInto), or one the thread had no memory for (guardMalloc): the memory limit's answer.
    end(call, !call.fault && (call.stop === 'memory' || isOutOfMemory(err)) ? { success: false, kind: 'memory' } : crash(err));
  } finally {
    if (turn) leaveTurn(call);
    current = outer;
    Atomics.store(computing, 0, 0);
  }
}

/** Why the call must end now, if it must: cancelled, or past its deadline (a promise that settles late still ends it as a timeout). */
function mustStop(call) {
  if (!call.stop) {
    if (isCancelled(call)) call.stop = 'cancelled';
    else if (Date.now() > call.deadline) call.stop = 'timeout';
  }
  return call.stop;
}

/**
 * Runs the call's pending promise jobs in batches, ending the call between two batches once it is
 * stopped, then ends it if its promise settled or nothing can settle it any more.
 */
function drive(call) {
  for (;;) {
    if (call.done) return;
    const jobs = call.runtime.executePendingJobs(JOB_BATCH);
    if (jobs.error) return end(call, classify(call, jobs.error));
    if (mustStop(call)) return end(call, { success: false, kind: call.stop });
    if (jobs.value < JOB_BATCH) break;
  }
  const state = call.vm.getPromiseState(call.promise);
  // Before the call goes on (a timer, a response) or answers: what it holds now, all of it.
  if (overMemory(call, state.type !== 'pending')) {
    const held = state.type === 'fulfilled' ? state.value : state.type === 'rejected' ? state.error : null;
    if (held && held.alive) held.dispose();
    return end(call, { success: false, kind: 'memory' });
  }
  if (state.type === 'pending') {
    if (call.timers.size === 0 && call.fetches.size === 0) end(call, { success: false, kind: 'pending' });
    return;
  }
  if (state.type === 'rejected') return end(call, classify(call, state.error));
  end(call, resultOf(call, state.value));
}

/** While one call computes, the others' deadlines and cancellations are answered from its interrupt handler. */
function sweep(now, running) {
  for (const call of calls.values()) {
    if (call === running) continue;
    if (isCancelled(call)) end(call, { success: false, kind: 'cancelled' }, true);
    else if (now > call.deadline) end(call, { success: false, kind: 'timeout' }, true);
  }
}

function interruptHandler(call) {
  return () => {
    // Once stopped, every later job is interrupted too, until drive ends the call.
    if (call.stop) return true;
    const now = Date.now();
    if (isCancelled(call)) { call.stop = 'cancelled'; return true; }
    if (now > call.deadline) { call.stop = 'timeout'; return true; }
    if (overMemory(call, false)) { call.stop = 'memory'; return true; }
    if (calls.size > 1 && now >= nextSweep) { nextSweep = now + 10; sweep(now, call); }
    return false;
  };
}

function fire(call, id) {
  const idHandle = call.vm.newNumber(id);
  const r = call.vm.callFunction(call.fire, call.vm.undefined, idHandle);
  idHandle.dispose();
  // An error thrown by a timer's callback ends the call with it (Node would end the process).
  if (r.error) return end(call, classify(call, r.error));
  r.value.dispose();
  drive(call);
}

/** A function the code may call: a RuntimeError it meets (QuickJS would hand it to the code as an error) makes the call a crash. */
function hostFunction(call, name, fn) {
  return call.vm.newFunction(name, (...args) => {
    try { return fn(...args); } catch (err) { noteFault(call, err); throw err; }
  });
}

function install(call, job) {
  const { vm } = call;
  const consoleObj = vm.newObject();
  const write = (line) => {
    if (call.stdout.length < job.maxStdoutChars) call.stdout += (line + '\n').slice(0, job.maxStdoutChars - call.stdout.length);
  };
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    // Once stdout is full a line is dropped before any of it is copied out: a loop logging a large value
    // copies it no more, and no getter of the code runs for it.
    const fn = hostFunction(call, level, (...args) => {
      if (call.stdout.length >= job.maxStdoutChars) return;
      write(args.map((a) => formatValue(vm.dump(a))).join(' '));
    });
    vm.setProp(consoleObj, level, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleObj);
  consoleObj.dispose();
  setGlobalJson(call, 'params', job.params);
  setGlobalJson(call, 'environmentVariables', job.envVars);

  const timerStart = hostFunction(call, 'timerStart', (idHandle, msHandle, repeatHandle) => {
    if (call.timers.size >= maxTimers) throw new RangeError('Too many timers: at most ' + maxTimers + ' may be pending at once');
    const id = vm.getNumber(idHandle);
    const ms = Math.min(vm.getNumber(msHandle) || 0, 2147483647);
    const repeat = vm.dump(repeatHandle) === true;
    const previous = call.timers.get(id);
    if (previous !== undefined) clearTimeout(previous);
    const onTimer = () => {
      if (!repeat) call.timers.delete(id);
      guarded(call, () => fire(call, id));
    };
    call.timers.set(id, repeat ? setInterval(onTimer, ms) : setTimeout(onTimer, ms));
  });
  const timerStop = hostFunction(call, 'timerStop', (idHandle) => {
    const id = vm.getNumber(idHandle);
    const timer = call.timers.get(id);
    if (timer === undefined) return;
    clearTimeout(timer);
    call.timers.delete(id);
  });
  const hostFetch = hostFunction(call, 'hostFetch', (requestHandle, bytesHandle) => {
    if (call.fetchCount >= maxFetches) throw new RangeError('Too many fetch requests: at most ' + maxFetches + ' per call');
    // A request's size is checked before anything is copied: its JSON (a text body in it) and a binary
    // body (an ArrayBuffer the prelude made: its length read first, then copied out once and handed
    // over, not cloned). The bodies of a call's requests not answered yet total at most its limit.
    let view;
    if (bytesHandle !== undefined && vm.typeof(bytesHandle) !== 'undefined') {
      // Its length first (QuickJS's own, no getter of the code's): a body too large is refused before getArrayBuffer copies it inside the sandbox's memory.
      if (quickjs.ffi.QTS_GetArrayBufferLength(vm.ctx.value, bytesHandle.value) > maxRequestBodyBytes) throw new TypeError(requestBodyMessage);
      view = vm.getArrayBuffer(bytesHandle);
    }
    try {
      const text = requestText(vm, requestHandle);
      const size = text.bodyBytes + (view ? view.value.byteLength : 0);
      if (size > maxRequestBodyBytes) throw new TypeError(requestBodyMessage);
      if (call.requestBytes + size > call.memoryLimitBytes) throw new TypeError(requestTotalMessage(call.memoryLimitBytes));
      const bytes = view ? new Uint8Array(view.value) : undefined;
      const req = ++call.fetchCount;
      const deferred = vm.newPromise();
      call.fetches.set(req, deferred);
      call.requestBytes += size;
      call.requestSizes.set(req, size);
      // Before the request leaves: from here on the call may have had effects outside, and the host never runs it again.
      Atomics.store(requestedFlags, call.lane, call.id);
      const request = { id: call.id, req, request: text.json };
      if (bytes !== undefined) request.bytes = bytes;
      parentPort.postMessage({ fetch: request }, bytes !== undefined ? [bytes.buffer] : []);
      return deferred.handle;
    } finally {
      if (view) view.dispose();
    }
  });
  // A response's body, read once: the bytes as an ArrayBuffer, or their UTF-8 decoding as a browser
  // decodes it (invalid sequences become U+FFFD, a leading BOM dropped), as {text, nul}: QuickJS takes
  // strings up to their first NUL, so text holding NULs goes in with NUL as \u0001\u0001 and \u0001 as
  // \u0001\u0002 (nul: true), and the prelude turns them back.
  const hostBody = hostFunction(call, 'hostBody', (reqHandle, kindHandle) => {
    const req = vm.getNumber(reqHandle);
    const bytes = call.bodies.get(req);
    if (bytes === undefined) throw new TypeError('Body has already been consumed');
    call.bodies.delete(req);
    call.bodyBytes -= bytes.byteLength;
    if (vm.getString(kindHandle) === 'bytes') {
      return newArrayBufferIn(call, bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer);
    }
    const decoded = new TextDecoder().decode(bytes);
    const nul = decoded.includes('\u0000');
    const text = nul ? decoded.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u0001\u0001' : '\u0001\u0002')) : decoded;
    const obj = vm.newObject();
    const textHandle = newStringIn(call, text);
    vm.setProp(obj, 'text', textHandle);
    textHandle.dispose();
    vm.setProp(obj, 'nul', nul ? vm.true : vm.false);
    return obj;
  });
  if (testHooks.hang) {
    const hang = vm.newFunction('hang', () => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); });
    vm.setProp(vm.global, 'hang', hang);
    hang.dispose();
  }
  const prelude = vm.unwrapResult(vm.evalCode(workerData.prelude, 'sandbox.js'));
  call.fire = vm.unwrapResult(vm.callFunction(prelude, vm.undefined, timerStart, timerStop, hostFetch, hostBody));
  for (const h of [prelude, timerStart, timerStop, hostFetch, hostBody]) h.dispose();
}

function start(job) {
  // Before anything of the call runs: from here on the host must not hand it to another thread.
  Atomics.store(startedFlags, job.lane, job.id);
  let box = ready && ready.memoryLimitBytes === job.memoryLimitBytes ? ready : null;
  if (box) ready = null;
  else {
    // A thread whose memory is at its bound may have no room for another runtime: the call answers the memory limit.
    try { box = fresh(job); } catch {
      parentPort.postMessage({ id: job.id, result: { success: false, kind: 'memory', stdout: '', heapBytes: wasmMemory.buffer.byteLength } });
      return;
    }
  }
  const call = {
    id: job.id, lane: job.lane, runtime: box.runtime, vm: box.vm,
    deadline: Date.now() + job.timeoutMs, startedAt: performance.now(),
    stdout: '', maxResultChars: job.maxResultChars,
    timers: new Map(), fetches: new Map(), fetchCount: 0, bodies: new Map(), bodyBytes: 0, requestBytes: 0, requestSizes: new Map(),
    memoryLimitBytes: job.memoryLimitBytes, grownBytes: 0, growLimit: 0, growRefused: false, nextMemoryCheck: 0,
    held: 0, inTurn: false, inUseAtTurn: 0, ballast: [],
    done: false, stop: null, promise: null, fire: null, deadlineTimer: null,
  };
  calls.set(call.id, call);
  if (!testHooks.withholdStarted) parentPort.postMessage({ started: call.id });
  if (isCancelled(call)) return end(call, { success: false, kind: 'cancelled' });
  call.deadlineTimer = setTimeout(() => guarded(call, () => end(call, { success: false, kind: 'timeout' })), job.timeoutMs + 1);
  call.runtime.setInterruptHandler(interruptHandler(call));
  guarded(call, () => {
    install(call, job);
    const evaluated = call.vm.evalCode('(async () => {\n' + job.code + '\n})()', 'function.js');
    if (evaluated.error) return end(call, classify(call, evaluated.error));
    call.promise = evaluated.value;
    drive(call);
  });
}

/** A response as the prelude reads it: {meta, req}; its body stays here until the code reads it (hostBody). */
function responseOf(call, done) {
  const { vm } = call;
  call.bodies.set(done.req, done.body);
  call.bodyBytes += done.body.byteLength;
  const obj = vm.newObject();
  const meta = newStringIn(call, done.meta);
  vm.setProp(obj, 'meta', meta);
  meta.dispose();
  const req = vm.newNumber(done.req);
  vm.setProp(obj, 'req', req);
  req.dispose();
  return obj;
}

function settleFetch(done) {
  const call = calls.get(done.id);
  const deferred = call && call.fetches.get(done.req);
  if (!deferred) return;
  call.fetches.delete(done.req);
  call.requestBytes -= call.requestSizes.get(done.req) || 0;
  call.requestSizes.delete(done.req);
  guarded(call, () => {
    const { vm } = call;
    const value = done.error !== undefined ? vm.newError({ name: 'TypeError', message: done.error }) : responseOf(call, done);
    // The body waits here for the code to read it: with what the call holds, it may not pass its limit.
    if (done.error === undefined && overMemory(call, true)) {
      value.dispose();
      deferred.dispose();
      return end(call, { success: false, kind: 'memory' });
    }
    try {
      if (done.error !== undefined) deferred.reject(value);
      else deferred.resolve(value);
    } finally {
      value.dispose();
      deferred.dispose();
    }
    drive(call);
  });
}

const wasmMemory = boundedMemory();
qjs.newQuickJSWASMModule(qjs.newVariant(qjs.RELEASE_SYNC, { wasmMemory })).then((q) => {
  quickjs = q;
  guardMalloc(q.module);
  refill();
  parentPort.on('message', (m) => {
    if (m.run) start(m.run);
    else if (m.cancel !== undefined) {
      const call = calls.get(m.cancel);
      if (call) end(call, { success: false, kind: 'cancelled' });
    } else if (m.fetchDone) settleFetch(m.fetchDone);
  });
  parentPort.postMessage({ ready: true });
});
`;

/**
 * What a call may hold, as the worker thread measures and bounds it (plain JavaScript, spliced into
 * WORKER_SOURCE, whose names it uses: `current`, `calls`, `quickjs`, `wasmMemory`, `cancelled`, `workerData`, `heapCapBytes`, `maxRequestBodyBytes`).
 *
 * This QuickJS build has no malloc_usable_size, so its own memory limit sees each allocation's size
 * but not what the runtime holds in total. A call is therefore measured (QuickJS's walk of its
 * runtime: objects, strings, arrays, buffers, plus a Map or Set record's 48 bytes for each allocation
 * the walk does not see) with the response bodies it has not read, from its interrupt handler while
 * it computes and after each of its turns; and the thread's WebAssembly memory is bounded
 * (heapBounds), a call making it grow by about its own limit, which covers what that measure
 * underrates (a rope's leaves: strings of any length, each charged 48 bytes), with a thread whose
 * free memory passes one call's limit retired (freeOverLimit). Host copies into a runtime are
 * checked first (copyInto) and malloc's 0 throws before any write (guardMalloc).
 */
export const WORKER_MEMORY_SOURCE = String.raw`
/** A call's memory is measured at most this often while it computes (and after each of its turns), more rarely when measuring costs more (a large heap). */
const MEMORY_CHECK_MS = 5;
const MEMORY_CHECK_COST_FACTOR = 20;
const PAGE = 65536;
/** The build's own bound on its memory (2 GB): a larger maximum would not be accepted for its memory import. */
const MAX_PAGES = 32768;

/**
 * The thread's WebAssembly memory: at most heapCapBytes, and a call may make it grow until it has
 * made it grow by its memory limit (memory freed by other calls is reused first). The last growth
 * may go past that: emscripten asks a fifth of the memory more at once (capped at the request + 96 MB),
 * so on a thread grown large one growth alone is most of a call's limit, and charging all of it
 * before it is made would refuse a call holding far less than its limit. A growth refused makes the
 * allocation fail: QuickJS throws 'out of memory' (or a bare null), the memory limit's answer. This
 * bounds what QuickJS cannot count itself (this build has no malloc_usable_size: its limit sees only
 * each allocation's size).
 */
function boundedMemory() {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: Math.min(MAX_PAGES, Math.floor(heapCapBytes / PAGE)) });
  const grow = WebAssembly.Memory.prototype.grow;
  Object.defineProperty(memory, 'grow', {
    value: (pages) => {
      const call = current;
      const bytes = pages * PAGE;
      if (call && call.grownBytes >= call.memoryLimitBytes) {
        // QuickJS may answer the failed allocation with a bare null: the call answers its memory limit all the same.
        call.growRefused = true;
        throw new RangeError('out of memory');
      }
      const previous = grow.call(memory, pages);
      if (call) call.grownBytes += bytes;
      return previous;
    },
  });
  return memory;
}

/**
 * What one allocation the walk does not see is charged: a Map or Set record's (48 bytes in this
 * build, its chunk's header included). The walk skips those records, rope strings, generator and
 * async function frames, WeakMap records and BigInts; QuickJS still counts every allocation its
 * runtime holds (malloc_count, exact although its sizes are not), so the allocations it holds beyond
 * the blocks the walk measured are each charged this much.
 */
const UNSEEN_BLOCK_BYTES = 48;

/** A number of QuickJS's memory usage object; Infinity when it is none (the call is then over any limit). */
function usageNumber(vm, usage, name) {
  const handle = vm.getProp(usage, name);
  const n = vm.typeof(handle) === 'number' ? vm.getNumber(handle) : Infinity;
  handle.dispose();
  return n;
}

/**
 * What the call's runtime holds, in bytes: QuickJS's own walk of its objects, strings, arrays and
 * buffers, plus UNSEEN_BLOCK_BYTES for each allocation the walk does not see (a Map of a million
 * entries holds about 48 MB the walk alone would not count).
 */
function heapBytes(call) {
  const { vm } = call;
  const usage = vm.memory.heapValueHandle(quickjs.ffi.QTS_RuntimeComputeMemoryUsage(call.runtime.rt.value, vm.ctx.value));
  try {
    const unseen = usageNumber(vm, usage, 'malloc_count') - usageNumber(vm, usage, 'memory_used_count');
    const bytes = usageNumber(vm, usage, 'memory_used_size') + Math.max(0, unseen) * UNSEEN_BLOCK_BYTES;
    return Number.isFinite(bytes) ? bytes : Infinity;
  } finally {
    usage.dispose();
  }
}

/**
 * Whether the call holds more than its memory limit: its runtime's measure plus the response bodies
 * it has not read (held here, outside its heap). Measured when forced, else at most every
 * MEMORY_CHECK_MS, and more rarely when a measure costs more (it walks the heap), so it stays cheap.
 */
function overMemory(call, force) {
  const startedAt = performance.now();
  if (!force && startedAt < call.nextMemoryCheck) return false;
  let used;
  try { used = heapBytes(call); } catch (err) { noteFault(call, err); used = Infinity; }
  const done = performance.now();
  call.nextMemoryCheck = done + Math.max(MEMORY_CHECK_MS, (done - startedAt) * MEMORY_CHECK_COST_FACTOR);
  return used + call.bodyBytes > call.memoryLimitBytes;
}

/** Host copies up to this size go in without measuring the call first (the walk would cost more than they can hold); guardMalloc still bounds them. */
const SMALL_COPY_BYTES = 64 * 1024;

/** Set once host code saw the WebAssembly fail (a RuntimeError, a malloc that found no memory): the thread's state is not trusted, its answers ask the host to retire it. */
let suspect = false;

/** A RuntimeError seen by host code (the WebAssembly trapped): the call answers a crash, the thread is retired. */
function noteFault(call, err) {
  if (!(err instanceof WebAssembly.RuntimeError)) return;
  suspect = true;
  if (call && !call.fault) call.fault = err;
}

const isOutOfMemory = (err) => err instanceof RangeError && err.message === 'out of memory';

/**
 * quickjs-emscripten's host copies (strings, buffers, argument arrays) call _malloc and write from
 * what it returns without checking it: a 0 would have them write over the thread's low memory,
 * which every call of the thread uses. Here a 0 throws before any write. These allocations are never
 * refused by a call's growth bound (the copies are checked against the call's limit before, copyInto,
 * and the walk counts them after), so a 0 means the thread's memory is at its cap: it is retired.
 */
function guardMalloc(module) {
  const malloc = module._malloc;
  module._malloc = (size) => {
    const outer = current;
    current = null;
    let ptr;
    try { ptr = malloc(size); } finally { current = outer; }
    if (!ptr) { suspect = true; throw new RangeError('out of memory'); }
    return ptr;
  };
}

/**
 * A copy host code makes into a call's runtime (a response body, a string): refused with the memory
 * limit when what the call holds and the copy's bytes would pass it, else made with the thread's
 * memory free to grow for it (the walk counts it afterwards).
 */
function copyInto(call, bytes, make) {
  if (bytes > SMALL_COPY_BYTES) {
    let used;
    try { used = heapBytes(call); } catch (err) { noteFault(call, err); used = Infinity; }
    if (used + call.bodyBytes + bytes > call.memoryLimitBytes) {
      call.stop = 'memory';
      throw new RangeError('out of memory');
    }
  }
  const outer = current;
  current = null;
  try { return make(); } finally { current = outer; }
}

/** A string into a call's runtime: QuickJS stores it in one byte a character when it can, else two. */
function newStringIn(call, text) {
  const bytes = text.length <= SMALL_COPY_BYTES / 2 ? text.length : text.length * (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);
  return copyInto(call, bytes, () => call.vm.newString(text));
}

function newArrayBufferIn(call, buffer) {
  return copyInto(call, buffer.byteLength, () => call.vm.newArrayBuffer(buffer));
}

/**
 * Whether the thread's memory has more free than one call's limit, by what its live calls hold (the
 * measure, bodies not read): such a thread is retired once it answers. A call that fills memory the
 * measure underrates (a rope's leaves) is then bounded by the growth it may make on a fresh thread,
 * not by what calls before it left free. Measured only when the memory is that large: a small
 * thread pays nothing. Not from inside another call's interrupt handler (later): the walks wait.
 */
function freeOverLimit() {
  const limit = workerData.limits.memoryLimitBytes;
  const base = heapCapBytes - cancelled.length * limit;
  const size = wasmMemory.buffer.byteLength;
  if (size - base <= limit) return false;
  let live = 0;
  for (const call of calls.values()) {
    try { live += heapBytes(call) + call.bodyBytes; } catch (err) { noteFault(call, err); return true; }
  }
  return size - base - live > limit;
}

const requestBodyMessage = 'Request body exceeds ' + maxRequestBodyBytes + ' bytes';
const requestTotalMessage = (limit) => 'Request bodies of this call not yet answered exceed ' + limit + ' bytes in total (the call\'s memory limit)';

/**
 * A request's JSON (as the prelude built it) and the UTF-8 size of its text body. Its length is read
 * first, so a request far too large is refused before it is copied out: a body's UTF-8 is at least
 * as long as its UTF-16, and JSON escapes a character in at most 6.
 */
function requestText(vm, requestHandle) {
  const lengthHandle = vm.getProp(requestHandle, 'length');
  const length = vm.getNumber(lengthHandle);
  lengthHandle.dispose();
  if (length > 6 * maxRequestBodyBytes + 1024 * 1024) throw new TypeError(requestBodyMessage);
  const json = vm.getString(requestHandle);
  let body;
  try { body = JSON.parse(json).body; } catch { body = undefined; }
  return { json, bodyBytes: typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : 0 };
}
`;

/** A thread's WebAssembly memory beyond its calls' limits (QuickJS itself, a ready runtime, fragmentation). */
const HEAP_BASE_BYTES = 64 * 1024 * 1024;

/**
 * A thread's WebAssembly memory bounds for `lanes` calls of `limitBytes` each: it may grow to
 * `capBytes` (lanes × limit + a base), and a thread whose memory grew past `retireBytes` (half of it)
 * is retired once it answers, since WebAssembly memory never shrinks: a fresh thread starts small.
 */
export function heapBounds(lanes: number, limitBytes: number): { capBytes: number; retireBytes: number } {
  const capBytes = lanes * limitBytes + HEAP_BASE_BYTES;
  return { capBytes, retireBytes: Math.floor(capBytes / 2) };
}

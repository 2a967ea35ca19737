/**
 * What a call may hold, as the worker thread measures and bounds it (plain JavaScript, spliced into
 * WORKER_SOURCE, whose names it uses: `current`, `calls`, `wasmMemory`, `cancelled`, `workerData`, `heapCapBytes`, `maxRequestBodyBytes`).
 *
 * This QuickJS build has no malloc_usable_size, so its own memory limit sees each allocation's size
 * but not what the runtime holds in total, and its walk of a runtime skips much (ropes, async frames,
 * Map records). A call is therefore measured on the thread's memory itself: what the memory in use
 * changed by during its turns (enterTurn, heldNow, leaveTurn), with the response bodies it has not
 * read, from its interrupt handler while it computes and after each of its turns; during a turn the
 * free memory beyond what its limit leaves stays taken and the memory may grow only by the rest
 * (boundedMemory), so the code cannot pass its limit by much before it is measured. The thread's
 * WebAssembly memory is bounded (heapBounds), a thread whose free memory passes one call's limit
 * retired (freeOverLimit). Host copies into a runtime are checked first (copyInto) and malloc's 0
 * throws before any write (guardMalloc).
 */
export const WORKER_MEMORY_SOURCE = String.raw`
/** A call's memory is measured at most this often while it computes (and after each of its turns), more rarely when measuring costs more (a large heap). */
const MEMORY_CHECK_MS = 5;
const MEMORY_CHECK_COST_FACTOR = 20;
const PAGE = 65536;
/** The build's own bound on its memory (2 GB): a larger maximum would not be accepted for its memory import. */
const MAX_PAGES = 32768;

/**
 * The thread's WebAssembly memory: at most heapCapBytes. While a call computes, it may make it grow by
 * what its limit leaves once the free memory it was given is counted (enterTurn: growLimit), and a
 * little more (GROWTH_SLACK): emscripten asks a fifth of the memory more at once, then a tenth, then a
 * twentieth (capped at the request + 96 MB), so refusing every growth past the room exactly would
 * refuse calls holding less than their limit; what the call really uses of that growth is measured
 * (heldNow). A growth refused makes the allocation fail: QuickJS throws 'out of memory' (or a bare
 * null), the memory limit's answer.
 */
const GROWTH_SLACK = 0.05;
/** Thrown by the memory's grow to refuse it (emscripten catches it and fails the allocation): made once, as it is thrown often. */
const GROWTH_REFUSED = new RangeError('out of memory');
function boundedMemory() {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: Math.min(MAX_PAGES, Math.floor(heapCapBytes / PAGE)) });
  const grow = WebAssembly.Memory.prototype.grow;
  Object.defineProperty(memory, 'grow', {
    value: (pages) => {
      // While the free memory is measured (freeBlocks), the memory does not grow: a block that does not fit is not free.
      if (measuring) throw GROWTH_REFUSED;
      const call = current;
      const bytes = pages * PAGE;
      if (call && call.grownBytes + bytes > call.growLimit + Math.max(PAGE, memory.buffer.byteLength * GROWTH_SLACK)) {
        // QuickJS may answer the failed allocation with a bare null: the call answers its memory limit all the same.
        call.growRefused = true;
        throw GROWTH_REFUSED;
      }
      const previous = grow.call(memory, pages);
      if (call) call.grownBytes += bytes;
      return previous;
    },
  });
  return memory;
}

/**
 * What a call uses is measured on the thread's memory itself, not on QuickJS's walk of its runtime
 * (which does not enter rope strings, async function frames — every local of the code —, Map and Set
 * records, WeakMap records or BigInts, and cannot read the sizes of what it skips: this build has no
 * malloc_usable_size). A thread runs one call's turn at a time (its code, a timer, a response) and
 * each call has a runtime of its own, so what the thread's memory in use changed by during a turn is
 * that call's: held adds it up over the call's turns. Memory in use is the memory's size less its
 * free blocks, taken with malloc (freeBlocks) and freed at once: free pieces smaller than the
 * smallest block size are counted as in use (a piece the code frees and takes again is counted once).
 */
const FREE_BLOCK_SIZES = [16 << 20, 1 << 20, 1 << 16, 1 << 12, 1 << 8];
/** A bound on the blocks one measure takes (free memory cut into more pieces than this counts the rest as in use). */
const MAX_FREE_BLOCKS = 8192;
/** Set while freeBlocks takes the free memory: the memory does not grow for it. */
let measuring = false;
/** The allocator's own malloc and free (guardMalloc wraps the module's _malloc for host copies). */
let rawMalloc;
let rawFree;

/** The thread's free memory as blocks (addresses, largest first, and their sizes) and their bytes, taken without making the memory grow. */
function freeBlocks() {
  const blocks = [];
  const sizes = [];
  let bytes = 0;
  measuring = true;
  try {
    for (const size of FREE_BLOCK_SIZES) {
      while (blocks.length < MAX_FREE_BLOCKS) {
        const ptr = rawMalloc(size);
        if (!ptr) break;
        blocks.push(ptr);
        sizes.push(size);
        bytes += size;
      }
      if (blocks.length >= MAX_FREE_BLOCKS) break;
    }
  } finally {
    measuring = false;
  }
  return { blocks, sizes, bytes };
}

/** The thread's memory in use now, by freeBlocks (which gives its blocks back). */
function memoryInUse() {
  const { blocks, bytes } = freeBlocks();
  for (const ptr of blocks) rawFree(ptr);
  return wasmMemory.buffer.byteLength - bytes;
}

/**
 * A call's turn starts: the thread's free memory is measured and the call is given what its limit
 * leaves of it (its held bytes counted); the rest stays taken (ballast) until the turn ends, so the
 * code cannot use memory other calls freed beyond its limit. The memory may grow by what the limit
 * leaves beyond the free memory given (growLimit, boundedMemory).
 */
function enterTurn(call) {
  const { blocks, sizes } = freeBlocks();
  const room = Math.max(0, call.memoryLimitBytes - call.held);
  let given = 0;
  for (let i = 0; i < blocks.length; i++) {
    if (given + sizes[i] <= room) {
      rawFree(blocks[i]);
      given += sizes[i];
    } else call.ballast.push(blocks[i]);
  }
  call.inUseAtTurn = wasmMemory.buffer.byteLength - given;
  call.growLimit = call.grownBytes + room - given;
  call.inTurn = true;
}

/** What the call holds now: its held bytes, and during its turn what the memory in use changed by since the turn started. */
function heldNow(call) {
  return call.inTurn ? call.held + memoryInUse() - call.inUseAtTurn : call.held;
}

/** A call's turn ends: what it changed is added to its held bytes, and the memory kept from it is freed. */
function leaveTurn(call) {
  if (!call.inTurn) return;
  if (!call.done) call.held = heldNow(call);
  call.inTurn = false;
  releaseBallast(call);
}

function releaseBallast(call) {
  for (const ptr of call.ballast) rawFree(ptr);
  call.ballast = [];
}

/**
 * Whether the call holds more than its memory limit: what it uses of the thread's memory (heldNow)
 * plus the response bodies it has not read (held here, outside its heap). Measured when forced, else
 * at most every MEMORY_CHECK_MS, and more rarely when a measure costs more, so it stays cheap.
 */
function overMemory(call, force) {
  const startedAt = performance.now();
  if (!force && startedAt < call.nextMemoryCheck) return false;
  let used;
  try { used = heldNow(call); } catch (err) { noteFault(call, err); used = Infinity; }
  const done = performance.now();
  call.nextMemoryCheck = done + Math.max(MEMORY_CHECK_MS, (done - startedAt) * MEMORY_CHECK_COST_FACTOR);
  return used + call.bodyBytes > call.memoryLimitBytes;
}

/** Host copies up to this size go in without measuring the call first (the measure would cost more than they can hold); guardMalloc still bounds them. */
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
 * and measured with the call's turn after), so a 0 means the thread's memory is at its cap: it is retired.
 */
function guardMalloc(module) {
  const malloc = module._malloc;
  rawMalloc = malloc;
  rawFree = module._free;
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
 * memory free to grow for it (the call's turn counts it afterwards).
 */
function copyInto(call, bytes, make) {
  if (bytes > SMALL_COPY_BYTES) {
    let used;
    try { used = heldNow(call); } catch (err) { noteFault(call, err); used = Infinity; }
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
 * Whether the thread's memory has more free than one call's limit, by what its live calls hold (their
 * held bytes, bodies not read): such a thread is retired once it answers, as WebAssembly memory never
 * shrinks (no call could use that memory beyond its limit: enterTurn keeps it taken). Not from inside
 * another call's interrupt handler (later).
 */
function freeOverLimit() {
  const limit = workerData.limits.memoryLimitBytes;
  const base = heapCapBytes - cancelled.length * limit;
  const size = wasmMemory.buffer.byteLength;
  if (size - base <= limit) return false;
  let live = 0;
  for (const call of calls.values()) {
    live += call.held + call.bodyBytes;
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

import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeServer, type FakeServer } from '@weft/testkit';
import { NEIGHBOUR_STUCK, SANDBOX_CANCELLED, SandboxPool, type SandboxPoolOptions } from './sandbox.js';
import { MAX_FETCHES_IN_FLIGHT, MAX_FETCHES_PER_CALL, MAX_FETCH_REQUEST_BYTES, MAX_FETCH_RESPONSE_BYTES, fetchTotalMessage } from './sandboxFetch.js';

const pool = new SandboxPool({ size: 2 });
afterAll(() => pool.close());

/** Tests whose code runs under a 60 s time limit wait longer than it, so a loaded machine cannot make them fail first. */
const LONG_TEST_MS = 180_000;

/** What the tests that end or watch a thread reach inside a pool (its private state). */
interface PoolInsides {
  slots: { worker: Worker; computing: Int32Array; lanes: ({ startedAt: number | null; posted: boolean; job: { id: number } } | null)[] }[];
}
const insides = (p: SandboxPool) => p as unknown as PoolInsides;
const STOPPED = 'Code execution failed: the sandbox stopped unexpectedly';
const CLOSED = 'Code execution failed: the sandbox is closed';

/** Runs `fn` with a pool of its own (`call` runs code on it), closed afterwards. */
async function withPool(opts: SandboxPoolOptions, fn: (one: SandboxPool, call: (code: string, extra?: Partial<Parameters<SandboxPool['run']>[0]>) => ReturnType<SandboxPool['run']>) => Promise<void>) {
  const one = new SandboxPool(opts);
  try {
    await fn(one, (code, extra = {}) => one.run({ code, params: {}, envVars: {}, ...extra }));
  } finally {
    await one.close();
  }
}

/** A fake server whose `GET /hold` answers 21 only once `release` is called (a call waits on it while others run); closed afterwards. */
async function withHoldServer(fn: (server: FakeServer, release: () => void) => Promise<void>) {
  const server = await createFakeServer();
  let release = () => undefined as void;
  const held = new Promise<void>((r) => (release = r));
  server.on('GET', '/hold', async () => {
    await held;
    return { json: 21 };
  });
  try {
    await fn(server, () => release());
  } finally {
    release();
    await server.close();
  }
}
const localFetch = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
type Call = (code: string, extra?: Partial<Parameters<SandboxPool['run']>[0]>) => ReturnType<SandboxPool['run']>;

/** Starts `count` calls that each hold `mb` MB (1 MB ArrayBuffers) until `GET /hold` answers them (withHoldServer); resolves once all wait, with their answers to come. */
async function holdMemory(call: Call, server: FakeServer, count: number, mb: number) {
  const held = Array.from({ length: count }, () =>
    call(`const kept = []; for (let i = 0; i < ${mb}; i++) kept.push(new ArrayBuffer(1024 * 1024)); const n = await (await fetch(params.url + '/hold')).json(); return kept.length + n`, { params: { url: server.url }, timeoutMs: 60_000 }),
  );
  await expect.poll(() => server.received('GET', '/hold').length).toBe(count);
  return { answers: Promise.all(held) };
}

const run = (code: string, extra: Partial<Parameters<SandboxPool['run']>[0]> = {}) => pool.run({ code, params: {}, envVars: {}, ...extra });

describe('function sandbox', () => {
  it('returns the value of the code', async () => {
    expect(await run('return 40 + 2')).toEqual({ success: true, result: 42, stdout: '' });
  });

  it('supports await and console output', async () => {
    const res = await run('console.log("a", {b: 1}); const v = await Promise.resolve(params.x * 2); return {v}', { params: { x: 21 } });
    expect(res).toEqual({ success: true, result: { v: 42 }, stdout: 'a {"b":1}\n' });
  });

  it('exposes environment variables', async () => {
    expect(await run('return environmentVariables.TOKEN', { envVars: { TOKEN: 's3' } })).toMatchObject({ result: 's3' });
  });

  it('reports thrown errors and syntax errors as values, with the line and column of the user code', async () => {
    expect(await run('const a = 1;\nthrow new TypeError("bad")')).toMatchObject({ success: false, error: 'TypeError: bad', debug: { line: 2, errorType: 'TypeError' } });
    expect(await run('return (')).toMatchObject({ success: false, error: expect.stringContaining('SyntaxError') });
  });

  it('stops an endless loop at the time limit and says so', async () => {
    expect(await run('while (true) {}', { timeoutMs: 200 })).toMatchObject({ success: false, error: 'Function execution timed out after 200 ms', limit: 'time' });
  });

  // The allocation doubles an array each step, so 8 MB is passed in about twenty steps; the time limit is a
  // minute (and the test's own limit three), so on any machine, however loaded, the memory limit fires first.
  it('stops code that allocates past the memory limit', { timeout: LONG_TEST_MS }, async () => {
    const res = await run('const keep = []; let a = [0]; while (true) { a = a.concat(a); keep.push(a); }', { memoryLimitBytes: 8 * 1024 * 1024, timeoutMs: 60_000 });
    expect(res).toMatchObject({ success: false, error: 'Function execution exceeded the memory limit of 8 MB', limit: 'memory' });
  });

  // Each chunk is far below the limit (QuickJS's own limit sees one allocation at a time) and together
  // they pass it several times over; the call must answer the limit and its thread serve the next call.
  it('many chunks each below the memory limit that pass it together answer the limit', { timeout: LONG_TEST_MS }, async () => {
    const sixteen = 16 * 1024 * 1024;
    const overLimit = { success: false, error: 'Function execution exceeded the memory limit of 16 MB', limit: 'memory' };
    await withPool({ size: 1, callsPerWorker: 2 }, async (one, call) => {
      const chunks = [
        'const k = []; for (let i = 0; i < 30; i++) k.push(new ArrayBuffer(4 * 1024 * 1024)); return k.length',
        'const k = []; for (let i = 0; i < 30; i++) k.push(new Float64Array(512 * 1024)); return k.length',
        'const k = []; for (let i = 0; i < 30; i++) k.push("x".repeat(4 * 1024 * 1024) + i); return k.length',
        'const k = []; for (let i = 0; i < 30; i++) k.push(("ab".repeat(2 * 1024 * 1024) + i).toUpperCase()); return k.length',
        'const k = []; for (let i = 0; i < 300000; i++) k.push({ a: i, b: i, c: i, d: i, e: i, f: i, g: i, h: i }); return k.length',
        // Held across turns: each timer adds a chunk, the call ends between two.
        'const k = []; for (let i = 0; i < 30; i++) { k.push(new ArrayBuffer(4 * 1024 * 1024)); await new Promise((r) => setTimeout(r, 0)); } return k.length',
      ];
      for (const code of chunks) {
        expect(await call(code, { memoryLimitBytes: sixteen, timeoutMs: 60_000 }), code).toMatchObject(overLimit);
        expect(await call('return 1')).toMatchObject({ success: true, result: 1 });
      }
      // Well within its limit, the same work succeeds.
      expect(await call('const k = []; for (let i = 0; i < 2; i++) k.push(new ArrayBuffer(4 * 1024 * 1024)); return k.length', { memoryLimitBytes: sixteen })).toMatchObject({ success: true, result: 2 });
      expect(one.busy).toBe(0);
    });
  });

  // Map and Set records are not seen by the walk, and a failed allocation may reach the code as a bare
  // null: the growth refused answers the limit, not 'Error: null'.
  it('a growth refused answers the memory limit, whatever QuickJS threw for it', { timeout: LONG_TEST_MS }, async () => {
    const overLimit = { success: false, error: 'Function execution exceeded the memory limit of 64 MB', limit: 'memory' };
    await withPool({ size: 1, callsPerWorker: 1 }, async (_one, call) => {
      for (const code of [
        'const s = new Set(); for (let i = 0; i < 2000000; i++) s.add(i); return s.size',
        'const m = new Map(); for (let i = 0; i < 2000000; i++) m.set(i, i); return m.size',
        'const k = []; for (let i = 0; i < 1500000; i++) k.push({}); const s = "x".repeat(40 * 1024 * 1024); return k.length + s.length',
      ]) {
        expect(await call(code, { timeoutMs: 60_000 }), code).toMatchObject(overLimit);
      }
    });
  });

  // The review's case: beside five calls holding 50 MB each (in 1 MB chunks), one growth of the thread's
  // memory (a fifth of it) is most of a 64 MB limit; the call, holding less than its limit, is not refused.
  it('a call within its limit succeeds on a thread grown large by the calls beside it', { timeout: LONG_TEST_MS }, async () => {
    await withHoldServer(async (server, release) => {
      await withPool({ size: 1, callsPerWorker: 6, policy: localFetch }, async (_one, call) => {
        const holders = await holdMemory(call, server, 5, 50);
        const code = 'const k = []; for (let i = 0; i < 60; i++) k.push(new ArrayBuffer(1024 * 1024)); return k.length';
        expect(await call(code, { timeoutMs: 60_000 })).toMatchObject({ success: true, result: 60 });
        release();
        expect(await holders.answers).toMatchObject(Array.from({ length: 5 }, () => ({ success: true, result: 71 })));
      });
    });
  });

  it("a pool's memory limit is its calls' default and sizes its threads' memory bound", { timeout: LONG_TEST_MS }, async () => {
    await withPool({ size: 1, callsPerWorker: 1, memoryLimitBytes: 16 * 1024 * 1024 }, async (_one, call) => {
      expect(await call('const k = []; for (;;) k.push(new ArrayBuffer(1024 * 1024))', { timeoutMs: 60_000 })).toMatchObject({ success: false, error: 'Function execution exceeded the memory limit of 16 MB', limit: 'memory' });
      // A run's own limit above it: the thread's bound (1 × 16 MB + 64 MB) stops it well before 80 MB.
      const filled = await call('const k = []; try { for (;;) k.push(new ArrayBuffer(1024 * 1024)) } catch {} const n = k.length; k.length = 0; return n', { memoryLimitBytes: 1024 * 1024 * 1024, timeoutMs: 60_000 });
      expect(filled).toMatchObject({ success: true });
      expect((filled as { result: number }).result).toBeLessThan(80);
    });
  });

  // Map records are not seen by QuickJS's walk: a call filling one is bounded by what it uses of the thread's
  // memory (measured on the memory itself), not by memory earlier calls left free. The review's case: 6M entries (about 250 MB) under a 64 MB limit.
  it('a call filling a Map answers its limit even after calls beside it left their memory free', { timeout: LONG_TEST_MS }, async () => {
    await withHoldServer(async (server, release) => {
      await withPool({ size: 1, callsPerWorker: 8, policy: localFetch }, async (_one, call) => {
        const holders = await holdMemory(call, server, 4, 55);
        release();
        expect(await holders.answers).toMatchObject(Array.from({ length: 4 }, () => ({ success: true, result: 76 })));
        const code = 'const m = new Map(); for (let i = 0; i < 6000000; i++) m.set(i, i); return m.size';
        expect(await call(code, { timeoutMs: 60_000 })).toMatchObject({ success: false, error: 'Function execution exceeded the memory limit of 64 MB', limit: 'memory' });
      });
    });
  });

  // Map and Set records are not seen by QuickJS's walk; what the call uses of the thread's memory is.
  // 450,000 entries (about 22 MB) under a 16 MB limit used to pass on the thread's growth bound and free memory alone.
  it('a Map or Set whose records pass the memory limit answers the limit; one within it runs', { timeout: LONG_TEST_MS }, async () => {
    const overLimit = { success: false, error: 'Function execution exceeded the memory limit of 16 MB', limit: 'memory' };
    await withPool({ size: 1, callsPerWorker: 1, memoryLimitBytes: 16 * 1024 * 1024 }, async (_one, call) => {
      for (const code of [
        'const m = new Map(); for (let i = 0; i < 450000; i++) m.set(i, i); globalThis.kept = m; return m.size',
        'const s = new Set(); for (let i = 0; i < 450000; i++) s.add(i); globalThis.kept = s; return s.size',
      ]) {
        expect(await call(code, { timeoutMs: 60_000 }), code).toMatchObject(overLimit);
      }
      const within = 'const m = new Map(); for (let i = 0; i < 100000; i++) m.set(i, i); const s = new Set(m.keys()); globalThis.kept = [m, s]; return m.size + s.size';
      expect(await call(within, { timeoutMs: 60_000 })).toMatchObject({ success: true, result: 200000 });
    });
  });

  // The review's case: 30 × 32 MB under the default 64 MB limit. The thread's WebAssembly memory is
  // bounded, and a thread whose memory grew past half its bound is replaced by a fresh one.
  it('a thread whose memory grew large is replaced; the call that made it grow past its limit answers the limit', { timeout: LONG_TEST_MS }, async () => {
    await withPool({ size: 1, callsPerWorker: 1 }, async (one, call) => {
      const first = insides(one).slots[0]?.worker;
      expect(await call('const k = []; for (let i = 0; i < 30; i++) k.push(new ArrayBuffer(32 * 1024 * 1024)); return k.length', { timeoutMs: 60_000 })).toMatchObject({
        success: false,
        error: 'Function execution exceeded the memory limit of 64 MB',
        limit: 'memory',
      });
      // 80 MB is within this call's own limit but past half of a one-call thread's bound (64 + 64 MB): its thread is retired after answering.
      expect(await call('const k = []; for (let i = 0; i < 20; i++) k.push(new ArrayBuffer(4 * 1024 * 1024)); return k.length', { memoryLimitBytes: 128 * 1024 * 1024, timeoutMs: 60_000 })).toMatchObject({ success: true, result: 20 });
      await expect.poll(() => insides(one).slots[0]?.worker).not.toBe(first);
      expect(await call('return 3')).toMatchObject({ success: true, result: 3 });
    });
  });

  it('has no access to the host', async () => {
    expect(await run('return typeof process + typeof require + typeof globalThis.Buffer + typeof timerStart + typeof hostFetch')).toMatchObject({ result: 'undefinedundefinedundefinedundefinedundefined' });
  });

  it('answers a result too large to return as an output-limit error', { timeout: LONG_TEST_MS }, async () => {
    const res = await run('return "x".repeat(11 * 1000 * 1000)', { memoryLimitBytes: 128 * 1024 * 1024, timeoutMs: 60_000 });
    expect(res).toMatchObject({ success: false, limit: 'output', error: 'Function result exceeds the limit of 10 MB of JSON' });
  });

  it('keeps stdout bounded', { timeout: LONG_TEST_MS }, async () => {
    const res = await run('for (let i = 0; i < 20000; i++) console.log("y".repeat(100)); return 1', { timeoutMs: 60_000 });
    expect(res.success).toBe(true);
    expect(res.stdout.length).toBeLessThanOrEqual(1_000_000);
  });

  // A line logged once stdout is full is dropped before it is copied out: its getters never run.
  it('once stdout is full, a logged value is not read at all', { timeout: LONG_TEST_MS }, async () => {
    const code = 'let reads = 0; const v = { get x() { reads++; return 1 } }; console.log(v); console.log("z".repeat(1_000_000)); for (let i = 0; i < 3; i++) console.log(v); return reads';
    const res = await run(code, { timeoutMs: 60_000 });
    expect(res).toMatchObject({ success: true, result: 1 });
    expect(res.stdout.startsWith('{"x":1}\nzzz')).toBe(true);
    expect(res.stdout.length).toBe(1_000_000);
  });
});

/** Runs `fn` with a one-thread pool whose calls' memory limit is 16 MB; `memoryMb()` is its thread's WebAssembly memory at its last answer, in MB. */
async function withWatchedPool(callsPerWorker: number, fn: (call: Call, memoryMb: () => number) => Promise<void>) {
  await withPool({ size: 1, callsPerWorker, memoryLimitBytes: 16 * 1024 * 1024, policy: localFetch }, async (one, call) => {
    let bytes = 0;
    const watched = new Set<Worker>();
    const watch = () => {
      const worker = insides(one).slots[0]?.worker;
      if (!worker || watched.has(worker)) return;
      watched.add(worker);
      worker.on('message', (m: { result?: { heapBytes?: number } }) => {
        if (m.result?.heapBytes) bytes = m.result.heapBytes;
      });
    };
    watch();
    await fn(async (code, extra) => {
      watch();
      const res = await call(code, extra);
      watch();
      return res;
    }, () => bytes / 1024 / 1024);
  });
}

// QuickJS keeps a string built by concatenation as a rope (its pieces, joined only when it is read as a
// whole), and its walk of a runtime enters neither ropes nor async function frames (every local of the
// code) nor Map records: such memory used to be bounded only by the thread's growth and the memory other
// calls had left free (up to 109 MB of a thread under a 16 MB limit). What a call uses is now measured on
// the thread's memory itself: each bomb ends at its limit, the thread no larger than a fresh one (16 MB)
// grown by about that limit, and the next call runs.
describe('function sandbox memory the walk of a runtime does not see', () => {
  const overLimit = { success: false, error: 'Function execution exceeded the memory limit of 16 MB', limit: 'memory' };
  const bombs: [string, string][] = [
    ['s = s + s, read as a whole at each step', 'let s = "x".repeat(1024); for (let i = 0; i < 40; i++) { s = s + s; s.indexOf("y"); } return s.length'],
    ['+= of distinct chunks', 'let s = ""; for (let i = 0; i < 2000; i++) s += "x".repeat(100000) + i; return s.length'],
    ['+= of small pieces', 'let s = ""; for (let i = 0; i < 3000000; i++) s += "abcdefghij" + i; return s.length'],
    ['ropes kept in an array', 'const a = []; for (let i = 0; i < 2000; i++) a.push("x".repeat(100000) + i); return a.length'],
    ['Array.join of ropes', 'const a = []; for (let i = 0; i < 100; i++) a.push("x".repeat(100000) + i); const k = []; for (let j = 0; j < 100; j++) k.push(a.join(",") + j); return k.length'],
    ['template literals', 'let s = ""; for (let i = 0; i < 2000; i++) s = `${s}${"y".repeat(100000)}${i}`; return s.length'],
    ['String.prototype.repeat of a rope', 'const k = []; for (let i = 0; i < 100; i++) k.push(("ab" + i + "c".repeat(50)).repeat(100000) + i); return k.length'],
    ['padStart and padEnd', 'const k = []; for (let i = 0; i < 200; i++) k.push("z".padStart(500000, "ab" + i) + "w".padEnd(500000, "cd" + i) + i); return k.length'],
    ['ropes kept in an object', 'const o = {}; for (let i = 0; i < 2000; i++) o["k" + i] = "x".repeat(100000) + i; return Object.keys(o).length'],
    ['ropes in a Map', 'const m = new Map(); for (let i = 0; i < 2000; i++) m.set(i, "x".repeat(100000) + i); return m.size'],
    ['ropes held by closures', 'const fs = []; for (let i = 0; i < 2000; i++) { const s = "x".repeat(100000) + i; fs.push(() => s); } return fs.length'],
    ['a rope returned as the output', 'let s = ""; for (let i = 0; i < 200; i++) s += "x".repeat(100000) + i; return s'],
    ['flat strings held only by locals', 'const a = "a".repeat(12e6), b = "b".repeat(12e6), c = "c".repeat(12e6), d = "d".repeat(12e6); return a.length + b.length + c.length + d.length'],
    ['a rope grown across turns', 'let s = ""; for (let i = 0; i < 400; i++) { s += "x".repeat(100000) + i; await new Promise((r) => setTimeout(r, 0)); } return s.length'],
  ];

  it.each(bombs)('%s answers the memory limit; the thread stays near a fresh one grown by the limit', { timeout: LONG_TEST_MS }, async (_name, code) => {
    await withWatchedPool(2, async (call, memoryMb) => {
      // Memory an earlier call made the thread grow by and freed: not the bomb's to take.
      expect(await call('const k = []; for (let i = 0; i < 14; i++) k.push(new ArrayBuffer(1024 * 1024)); return k.length', { timeoutMs: 60_000 })).toMatchObject({ success: true, result: 14 });
      const res = await call(code, { timeoutMs: 60_000 });
      expect(res, code).toMatchObject(overLimit);
      // 16 MB fresh + 16 MB of growth + the last growth's slack; it used to reach 33 to 109 MB.
      expect(memoryMb()).toBeLessThan(36);
      expect(await call('return 1')).toMatchObject({ success: true, result: 1 });
    });
  });

  it('the same kinds of string within the limit succeed, their pieces and all', { timeout: LONG_TEST_MS }, async () => {
    await withWatchedPool(2, async (call) => {
      for (const [code, result] of [
        ['let s = ""; for (let i = 0; i < 80; i++) s += "x".repeat(100000) + i; return s.length', 8000150],
        ['const a = []; for (let i = 0; i < 40; i++) a.push("x".repeat(100000) + i); return a.join("").length', 4000070],
        ['let s = ""; for (let i = 0; i < 200000; i++) s += "abcdefghij" + i; return s.length', 3088890],
        ['const a = "a".repeat(3e6), b = "b".repeat(3e6); return (a + b).length', 6e6],
        ['let s = ""; for (let i = 0; i < 40; i++) { s += "x".repeat(100000) + i; await new Promise((r) => setTimeout(r, 0)); } return s.length', 4000070],
      ] as const) {
        expect(await call(code, { timeoutMs: 60_000 }), code).toMatchObject({ success: true, result });
      }
      const returned = await call('let s = ""; for (let i = 0; i < 30; i++) s += "y".repeat(100000) + i; return s', { timeoutMs: 60_000 });
      expect(returned.success && typeof returned.result === 'string' && returned.result.length).toBe(3000050);
    });
  });

  it('a rope returned past the output limit answers the output limit', { timeout: LONG_TEST_MS }, async () => {
    const res = await run('let s = ""; for (let i = 0; i < 110; i++) s += "x".repeat(100000) + i; return s', { memoryLimitBytes: 128 * 1024 * 1024, timeoutMs: 60_000 });
    expect(res).toMatchObject({ success: false, limit: 'output', error: 'Function result exceeds the limit of 10 MB of JSON' });
  });

  // The bomb and a call waiting beside it share a thread: the bomb answers its limit, the other its result.
  it('a rope bomb beside a waiting call on its thread leaves that call whole', { timeout: LONG_TEST_MS }, async () => {
    await withHoldServer(async (server, release) => {
      await withWatchedPool(2, async (call) => {
        const waiting = call('const kept = "k".repeat(4e6) + "!"; const n = await (await fetch(params.url + "/hold")).json(); return [n, kept.length]', { params: { url: server.url }, timeoutMs: 60_000 });
        await expect.poll(() => server.received('GET', '/hold').length).toBe(1);
        expect(await call('let s = ""; for (let i = 0; i < 2000; i++) s += "x".repeat(100000) + i; return s.length', { timeoutMs: 60_000 })).toMatchObject(overLimit);
        release();
        expect(await waiting).toEqual({ success: true, result: [21, 4000001], stdout: '' });
      });
    });
  });
});

describe('function sandbox escape attempts', () => {
  it.each([
    ['constructor chain to Function', 'return (() => {}).constructor("return typeof process")()'],
    ['console function constructor', 'return console.log.constructor("return typeof require")()'],
    ['this of a sloppy function', 'return (function () { return typeof this.process })()'],
    ['globalThis lookups', 'return [typeof globalThis.process, typeof globalThis.require, typeof globalThis.module, typeof globalThis.__dirname].join()'],
    ['async function constructor', 'const AF = (async () => {}).constructor; return await AF("return typeof process")()'],
    ['error stack frames', 'try { null.x } catch (e) { return typeof e.constructor.constructor("return process")() }'],
  ])('%s reaches nothing of the host', async (_name, code) => {
    const res = await run(code);
    expect(res.success ? JSON.stringify(res.result) : res.error).not.toMatch(/object|function/);
  });

  it('has no require and no dynamic import of host modules', async () => {
    const res = await run('try { await import("node:fs"); return "imported" } catch (e) { return "refused: " + e.message }');
    expect(res).toMatchObject({ success: true, result: expect.stringMatching(/^refused/) });
    expect(await run('return require("fs")')).toMatchObject({ success: false, error: expect.stringContaining('require') });
  });

  it('prototype pollution stays inside the call', async () => {
    const polluted = await run('Object.prototype.polluted = "yes"; Array.prototype.push = null; JSON.parse = null; return ({}).polluted');
    expect(polluted).toMatchObject({ result: 'yes' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // the next call starts from a fresh runtime
    expect(await run('const a = []; a.push(1); return [({}).polluted ?? null, a.length, typeof JSON.parse]')).toMatchObject({ result: [null, 1, 'function'] });
  });

  it('params cannot reach host objects through their prototypes', async () => {
    const res = await run('return [Object.getPrototypeOf(params) === Object.prototype, params.constructor.constructor("return typeof process")()]', { params: { a: 1 } });
    expect(res).toMatchObject({ success: true, result: [true, 'undefined'] });
    expect(res.success && JSON.stringify(res.result)).toBe('[true,"undefined"]');
  });

  it('a promise that never settles is answered at once, not at the time limit', async () => {
    expect(await run('await new Promise(() => {}); return 1', { timeoutMs: 120_000 })).toMatchObject({ success: false, error: 'Function did not finish: it awaits something that never resolves' });
    expect(await run('await new Promise((r) => { const t = setTimeout(r, 10); clearTimeout(t) }); return 1', { timeoutMs: 120_000 })).toMatchObject({
      success: false,
      error: 'Function did not finish: it awaits something that never resolves',
    });
  });

  it('an endless loop of promise jobs hits the time limit', async () => {
    expect(await run('const f = () => Promise.resolve().then(f); await f()', { timeoutMs: 300 })).toMatchObject({ success: false, limit: 'time' });
  });

  it('stack overflow is a limit, not a crash, however the recursion is made', { timeout: LONG_TEST_MS }, async () => {
    for (const code of [
      'function f() { return f() } return f()',
      'let b = []; for (let i = 0; i < 200000; i++) b = [b]; return String(b)',
      'return JSON.parse("[".repeat(200000))',
      'let p = {}; for (let i = 0; i < 200000; i++) p = new Proxy(p, {}); return p.x',
    ]) {
      const res = await run(code, { timeoutMs: 60_000 });
      expect(res, code).toMatchObject({ success: false });
      if (!res.success) expect(res.error, code).toMatch(/stack|too much recursion/);
    }
    // QuickJS's JSON.stringify looks for a cycle through every enclosing value at each level, so nesting
    // deep enough to reach the stack limit costs ~13 s of CPU (a minute of wall time on a loaded machine).
    // Whichever limit ends it first, it is a limit: the call fails with its message and the pool goes on.
    const deep = await run('let a = []; for (let i = 0; i < 200000; i++) a = [a]; return JSON.stringify(a)', { timeoutMs: 2_000 });
    expect(deep).toMatchObject({ success: false, limit: expect.stringMatching(/^(stack|time)$/) });
    expect(await run('return 1')).toMatchObject({ result: 1 });
  });

  // QuickJS checks its interrupt in the interpreter, not inside a native call: a join over 10^8 holes
  // runs for seconds in one call. It answers its time limit (at once after the call returns, or from the
  // host's watchdog, which then replaces the thread) and the pool goes on.
  it('a long native call answers the time limit and the pool goes on', { timeout: LONG_TEST_MS }, async () => {
    await withPool({ size: 1, callsPerWorker: 1 }, async (_one, call) => {
      expect(await call('return new Array(1e8).join("").length', { timeoutMs: 200 })).toEqual({ success: false, error: 'Function execution timed out after 200 ms', stdout: '', limit: 'time' });
      expect(await call('return 6')).toMatchObject({ success: true, result: 6 });
    });
  });

  it('host memory is not readable: a result is plain data copied out as JSON', async () => {
    expect(await run('return { f: () => 1, s: Symbol("x"), d: new Date(0), big: 1 }')).toMatchObject({ success: true, result: { d: '1970-01-01T00:00:00.000Z', big: 1 } });
  });

  it('concurrent calls each keep their own limits', async () => {
    const [slow, fast] = await Promise.all([run('while (true) {}', { timeoutMs: 300 }), run('return 7')]);
    expect(slow).toMatchObject({ limit: 'time' });
    expect(fast).toMatchObject({ result: 7 });
  });

  it('an aborted call stops its code at once (queued or running) and the pool goes on', async () => {
    const one = new SandboxPool({ size: 1, callsPerWorker: 1 });
    try {
      const spinning = new AbortController();
      const queued = new AbortController();
      const first = one.run({ code: 'while (true) {}', params: {}, envVars: {}, timeoutMs: 120_000, signal: spinning.signal });
      const second = one.run({ code: 'return "never"', params: {}, envVars: {}, signal: queued.signal });
      await expect.poll(() => one.busy).toBe(1);
      queued.abort();
      expect(await second).toEqual({ success: false, error: SANDBOX_CANCELLED, stdout: '' });
      spinning.abort();
      expect(await first).toEqual({ success: false, error: SANDBOX_CANCELLED, stdout: '' });
      expect(one.busy).toBe(0);
      // The code spinning for 120 s was interrupted: the next call runs now.
      expect(await one.run({ code: 'return 3', params: {}, envVars: {} })).toMatchObject({ success: true, result: 3 });
      const already = new AbortController();
      already.abort();
      expect(await one.run({ code: 'return 4', params: {}, envVars: {}, signal: already.signal })).toMatchObject({ success: false, error: SANDBOX_CANCELLED });
    } finally {
      await one.close();
    }
  });
});

describe('function sandbox timers', () => {
  it('run in the order they are due, after the microtasks of the code that set them', async () => {
    const code = `const out = [];
      setTimeout(() => out.push('b'), 30);
      setTimeout((x) => out.push(x), 10, 'a');
      setTimeout(() => out.push('z'), 0);
      Promise.resolve().then(() => out.push('micro'));
      await new Promise((r) => setTimeout(r, 50));
      return out`;
    expect(await run(code)).toEqual({ success: true, result: ['micro', 'z', 'a', 'b'], stdout: '' });
  });

  it('clearTimeout stops a timer; setInterval repeats until clearInterval', async () => {
    const code = `let hit = false;
      const t = setTimeout(() => { hit = true }, 5);
      clearTimeout(t);
      let n = 0;
      await new Promise((r) => { const i = setInterval(() => { if (++n === 3) { clearInterval(i); r() } }, 5) });
      await new Promise((r) => setTimeout(r, 20));
      return [hit, n]`;
    expect(await run(code)).toMatchObject({ success: true, result: [false, 3] });
  });

  it('the time limit fires while a timer is pending, and while an interval keeps the call alive', async () => {
    expect(await run('await new Promise((r) => setTimeout(r, 60000)); return 1', { timeoutMs: 300 })).toMatchObject({ success: false, error: 'Function execution timed out after 300 ms', limit: 'time' });
    expect(await run('setInterval(() => {}, 1); await new Promise(() => {})', { timeoutMs: 300 })).toMatchObject({ success: false, limit: 'time' });
  });

  it('bounds the timers pending at once, and an error thrown by a timer ends the call with it', async () => {
    const many = await run('try { for (let i = 0; i < 1001; i++) setTimeout(() => {}, 1000) } catch (e) { return e.name + ": " + e.message }');
    expect(many).toMatchObject({ success: true, result: 'RangeError: Too many timers: at most 1000 may be pending at once' });
    expect(await run('setTimeout(() => { throw new TypeError("late") }, 0); await new Promise((r) => setTimeout(r, 50)); return 1')).toMatchObject({ success: false, error: 'TypeError: late' });
  });

  it('timers do not outlive their call: a thread holds several calls, each fresh', async () => {
    const one = new SandboxPool({ size: 1 });
    try {
      expect(await one.run({ code: 'setInterval(() => console.log("leak"), 1); globalThis.mark = 1; return 1', params: {}, envVars: {} })).toMatchObject({ success: true, result: 1 });
      const waits = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          one.run({ code: 'await new Promise((r) => setTimeout(r, 30)); return [params.i, typeof globalThis.mark]', params: { i }, envVars: {} }),
        ),
      );
      expect(waits).toEqual(Array.from({ length: 6 }, (_, i) => ({ success: true, result: [i, 'undefined'], stdout: '' })));
    } finally {
      await one.close();
    }
  });

  it('aborting a computing call interrupts it without ending the thread: the call beside it finishes', async () => {
    const one = new SandboxPool({ size: 1, callsPerWorker: 2 });
    try {
      const waiting = one.run({ code: 'await new Promise((r) => setTimeout(r, 100)); return "waited"', params: {}, envVars: {} });
      const spinning = new AbortController();
      const spin = one.run({ code: 'while (true) {}', params: {}, envVars: {}, timeoutMs: 120_000, signal: spinning.signal });
      await expect.poll(() => one.busy).toBe(2);
      spinning.abort();
      expect(await spin).toEqual({ success: false, error: SANDBOX_CANCELLED, stdout: '' });
      expect(await waiting).toMatchObject({ success: true, result: 'waited' });
      expect(await one.run({ code: 'return 5', params: {}, envVars: {} })).toMatchObject({ success: true, result: 5 });
    } finally {
      await one.close();
    }
  });
  it('a waiting call times out on time while another call computes on its thread', async () => {
    const one = new SandboxPool({ size: 1, callsPerWorker: 2 });
    try {
      const order: string[] = [];
      const waiting = one.run({ code: 'await new Promise((r) => setTimeout(r, 60000))', params: {}, envVars: {}, timeoutMs: 300 }).then((r) => {
        order.push('waiting');
        return r;
      });
      const spinning = new AbortController();
      const spin = one.run({ code: 'while (true) {}', params: {}, envVars: {}, timeoutMs: 120_000, signal: spinning.signal }).then((r) => {
        order.push('spinning');
        return r;
      });
      // Answered from the spinning call's interrupt handler: without it, it would wait for the spin to end.
      expect(await waiting).toMatchObject({ success: false, error: 'Function execution timed out after 300 ms', limit: 'time' });
      expect(order).toEqual(['waiting']);
      spinning.abort();
      expect(await spin).toMatchObject({ error: SANDBOX_CANCELLED });
    } finally {
      await one.close();
    }
  });

  // QuickJS's interrupt is only a rejection to async code: code that catches it and awaits again must still end.
  it('code that catches the interrupt and goes on ends at its time limit; the call beside it on the thread finishes', () =>
    withPool({ size: 1, callsPerWorker: 2 }, async (_one, call) => {
      const waiting = call('await new Promise((r) => setTimeout(r, 200)); return "waited"', { timeoutMs: 120_000 });
      const spin = call('for (;;) { await (async () => { for (;;) {} })().catch(() => {}) }', { timeoutMs: 300 });
      expect(await spin).toMatchObject({ success: false, error: 'Function execution timed out after 300 ms', limit: 'time' });
      expect(await waiting).toMatchObject({ success: true, result: 'waited' });
    }));

  it('a call handed to a thread that ends before starting it runs on the thread that replaces it', () =>
    withPool({ size: 1, callsPerWorker: 2 }, async (one, call) => {
      const spin = call('while (true) {}', { timeoutMs: 120_000 });
      const next = call('return "ran"');
      // The spin computes (the thread cannot start the next call), and the host knows it started.
      const slot = insides(one).slots[0];
      await expect.poll(() => slot && Atomics.load(slot.computing, 0) !== 0 && slot.lanes[0]?.startedAt != null).toBe(true);
      await slot?.worker.terminate();
      expect(await spin).toEqual({ success: false, error: STOPPED, stdout: '' });
      expect(await next).toMatchObject({ success: true, result: 'ran' });
    }));

  // QuickJS checks its interrupt throughout its interpreter and built-ins, and nothing known hangs it
  // natively in a test's time on every machine (deep JSON.stringify takes ~13 s of CPU, then may hit
  // the stack limit). A host call that never returns holds the thread the same way: the test-only
  // hook gives the code one, hang(), which blocks its thread in Atomics.wait until the thread ends.
  it('the watchdog blames the call stuck in native code: it answers its time limit, the calls beside it their own outcome', () =>
    withPool({ size: 1, callsPerWorker: 4, testHooks: { hang: true } }, async (one, call) => {
      const slot = insides(one).slots[0];
      const first = slot?.worker;
      const answered: string[] = [];
      const track = (name: string, p: ReturnType<typeof call>) => p.finally(() => answered.push(name));
      // Started and awaiting a timer, far from its limit.
      const waitingLong = track('waitingLong', call('await new Promise((r) => setTimeout(r, 60000)); return "late"', { timeoutMs: 120_000 }));
      await expect.poll(() => slot?.lanes[0]?.startedAt != null).toBe(true);
      // Handed over back to back: the thread starts the waiting call (it awaits at once) and then the
      // stuck one; the last one it never starts, as a stuck thread reads no more messages.
      const waitingShort = track('waitingShort', call('await new Promise((r) => setTimeout(r, 60000)); return "late"', { timeoutMs: 500 }));
      const stuck = track('stuck', call('hang()', { timeoutMs: 1_500 }));
      const queued = track('queued', call('return "ran"'));
      await expect.poll(() => slot && Atomics.load(slot.computing, 0) !== 0 && slot.lanes.filter((a) => a?.startedAt != null).length === 3).toBe(true);
      expect(slot?.lanes.find((a) => a?.job.id === Atomics.load(slot.computing, 0))?.startedAt).not.toBeNull();
      expect(slot?.lanes.filter((a) => a?.posted && a.startedAt === null)).toHaveLength(1);
      // The waiting call's watchdog (500 + 2,000 ms) fires a second before the stuck call's (1,500 + 2,000 ms):
      // another call computes, so it answers its own limit and keeps the thread.
      expect(await waitingShort).toEqual({ success: false, error: 'Function execution timed out after 500 ms', stdout: '', limit: 'time' });
      expect(answered).toEqual(['waitingShort']);
      expect(insides(one).slots[0]?.worker).toBe(first);
      const waitingLongId = slot?.lanes[0]?.job.id;
      // The stuck call's watchdog blames it and ends the thread: the call never started runs on the
      // thread that replaces it, and so does the started call beside it, which made no request (all
      // it did stayed in its runtime): run again, not answered.
      expect(await stuck).toEqual({ success: false, error: 'Function execution timed out after 1500 ms', stdout: '', limit: 'time' });
      expect(await queued).toMatchObject({ success: true, result: 'ran' });
      const second = insides(one).slots[0];
      expect(second?.worker).not.toBe(first);
      await expect.poll(() => second?.lanes.some((a) => a?.job.id === waitingLongId && a?.startedAt != null)).toBe(true);
      expect(answered).not.toContain('waitingLong');
      // Run again once only: a second stuck call ending its new thread answers it.
      expect(await call('hang()', { timeoutMs: 300 })).toEqual({ success: false, error: 'Function execution timed out after 300 ms', stdout: '', limit: 'time' });
      expect(await waitingLong).toEqual({ success: false, error: NEIGHBOUR_STUCK, stdout: '' });
      expect(insides(one).slots[0]?.worker).not.toBe(second?.worker);
    }));

  it('a call that made a request is not run again when a call stuck beside it ends its thread: it answers why', () =>
    withHoldServer(async (server) => {
      await withPool({ size: 1, callsPerWorker: 3, policy: localFetch, testHooks: { hang: true } }, async (_one, call) => {
        const fetched = call(`const n = await (await fetch(params.url + '/hold')).json(); return n`, { params: { url: server.url }, timeoutMs: 120_000 });
        await expect.poll(() => server.received('GET', '/hold').length).toBe(1);
        expect(await call('hang()', { timeoutMs: 300 })).toEqual({ success: false, error: 'Function execution timed out after 300 ms', stdout: '', limit: 'time' });
        expect(await fetched).toEqual({ success: false, error: NEIGHBOUR_STUCK, stdout: '' });
        // The replacement thread runs the next call; the request was never made again.
        expect(await call('return 2')).toMatchObject({ success: true, result: 2 });
        expect(server.received('GET', '/hold')).toHaveLength(1);
      });
    }));

  it('a promise thrown as an error is answered as an error and the thread goes on', () =>
    withPool({ size: 1 }, async (one, call) => {
      const thread = insides(one).slots[0]?.worker.threadId;
      const res = await call('throw Promise.resolve(1)');
      expect(res).toMatchObject({ success: false });
      expect(res.success ? '' : res.error).not.toContain('Lifetime');
      expect(insides(one).slots[0]?.worker.threadId).toBe(thread);
    }));

  it('a thread whose host code failed takes no new call: its calls finish, then it ends', () =>
    withPool({ size: 1, callsPerWorker: 2 }, async (one, call) => {
      const first = insides(one).slots[0]?.worker;
      const waiting = call('await new Promise((r) => setTimeout(r, 100)); return "waited"');
      // A BigInt param cannot be handed in as JSON: the thread's own code throws, a crash answer.
      expect(await call('return 1', { params: { n: 1n } })).toMatchObject({ success: false, error: expect.stringContaining('BigInt') });
      expect(insides(one).slots[0]?.worker).not.toBe(first);
      expect(await waiting).toMatchObject({ success: true, result: 'waited' });
      await new Promise((resolve) => first?.once('exit', resolve));
      expect(await call('return 2')).toMatchObject({ success: true, result: 2 });
    }));

  it('closing the pool answers the calls still queued and running', async () => {
    const one = new SandboxPool({ size: 1, callsPerWorker: 1 });
    const running = one.run({ code: 'while (true) {}', params: {}, envVars: {}, timeoutMs: 120_000 });
    const queued = one.run({ code: 'return 1', params: {}, envVars: {} });
    await expect.poll(() => one.busy).toBe(1);
    await one.close();
    expect(await queued).toEqual({ success: false, error: CLOSED, stdout: '' });
    expect(await running).toEqual({ success: false, error: CLOSED, stdout: '' });
    expect(await one.run({ code: 'return 1', params: {}, envVars: {} })).toEqual({ success: false, error: CLOSED, stdout: '' });
  });
});

describe('function sandbox fetch', () => {
  let server: FakeServer;
  const allowed = new SandboxPool({ size: 1, policy: { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] } });
  const guarded = new SandboxPool({ size: 1, policy: { allowPrivateNetwork: false, allowlist: [] } });
  beforeAll(async () => {
    server = await createFakeServer();
  });
  afterAll(async () => {
    await Promise.all([allowed.close(), guarded.close(), server.close()]);
  });
  const fetchRun = (code: string, extra: Partial<Parameters<SandboxPool['run']>[0]> = {}) => allowed.run({ code, params: { url: server.url }, envVars: {}, ...extra });

  it('answers a Response-like object: ok, status, statusText, headers.get(), text() and json()', async () => {
    server.on('GET', '/item', { json: { a: 1 }, headers: { 'X-Test': 'yes' } });
    server.on('GET', '/missing', { status: 404, text: 'nope' });
    const code = `const r = await fetch(params.url + '/item');
      const missing = await fetch(params.url + '/missing');
      return [r.ok, r.status, r.statusText, r.headers.get('x-TEST'), r.headers.get('absent'), await r.json(), missing.ok, missing.status, missing.statusText, await missing.text()]`;
    expect(await fetchRun(code)).toMatchObject({ success: true, result: [true, 200, 'OK', 'yes', null, { a: 1 }, false, 404, 'Not Found', 'nope'] });
  });

  it('sends the method, headers and body it is given', async () => {
    server.on('POST', '/echo', (req) => ({ json: { method: req.method, type: req.headers['content-type'], auth: req.headers.authorization, body: req.body } }));
    const code = `const r = await fetch(params.url + '/echo', { method: 'post', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' }, body: JSON.stringify({ q: 1 }) });
      return r.json()`;
    expect(await fetchRun(code)).toMatchObject({ success: true, result: { method: 'POST', type: 'application/json', auth: 'Bearer t', body: { q: 1 } } });
    const notText = await fetchRun(`try { await fetch(params.url + '/echo', { method: 'POST', body: { q: 1 } }) } catch (e) { return e.message }`);
    expect(notText).toMatchObject({ result: 'fetch body must be a string, an ArrayBuffer or a typed array (use JSON.stringify for JSON)' });
  });

  it('refuses a private address unless allowlisted, with the guard message as a rejected promise', async () => {
    server.on('GET', '/private', { json: { secret: true } });
    const res = await guarded.run({ code: `try { await fetch(params.url + '/private'); return 'reached' } catch (e) { return e.message }`, params: { url: server.url }, envVars: {} });
    expect(res).toMatchObject({ success: true, result: 'Outbound request refused: 127.0.0.1 is a loopback, private, link-local or reserved address' });
    expect(server.received('GET', '/private')).toHaveLength(0);
    const uncaught = await guarded.run({ code: `await fetch('ftp://files.example/x')`, params: {}, envVars: {} });
    expect(uncaught).toMatchObject({ success: false, error: 'TypeError: Unsupported URL protocol: ftp:' });
  });

  it('bounds the size of a response and the number of requests of a call', async () => {
    server.on('GET', '/big', { text: 'x'.repeat(MAX_FETCH_RESPONSE_BYTES + 1) });
    server.on('GET', '/small', { json: 1 });
    expect(await fetchRun(`try { await fetch(params.url + '/big') } catch (e) { return e.message }`)).toMatchObject({ result: `Response body exceeds ${MAX_FETCH_RESPONSE_BYTES} bytes` });
    const code = `let n = 0;
      try { for (;;) { await fetch(params.url + '/small'); n++ } } catch (e) { return [n, e.message] }`;
    expect(await fetchRun(code)).toMatchObject({ result: [MAX_FETCHES_PER_CALL, `Too many fetch requests: at most ${MAX_FETCHES_PER_CALL} per call`] });
  });

  it('a call that times out with a request in flight closes it, and its thread goes on', async () => {
    server.on('GET', '/hang', { hang: true });
    expect(await fetchRun(`await fetch(params.url + '/hang')`, { timeoutMs: 300 })).toMatchObject({ success: false, error: 'Function execution timed out after 300 ms', limit: 'time' });
    await expect.poll(() => server.received('GET', '/hang')[0]?.abandoned).toBe(true);
    expect(await fetchRun('return 6')).toMatchObject({ success: true, result: 6 });
  });

  it('a body is handed over as it came, control characters and all', async () => {
    const text = '\u0000\u0001\u001f"\\\n\u2028é😀'.repeat(1000);
    server.on('GET', '/controls', { text, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    expect(await fetchRun(`return (await fetch(params.url + '/controls')).text()`)).toMatchObject({ success: true, result: text });
  });

  it('the bodies a call fetches total at most its memory limit', async () => {
    const four = 4 * 1024 * 1024;
    server.on('GET', '/four', { text: 'x'.repeat(four) });
    const code = `const sizes = [];
      try { for (let i = 0; i < 4; i++) sizes.push((await (await fetch(params.url + '/four')).text()).length) } catch (e) { return [sizes, e.name + ': ' + e.message] }`;
    const limit = 10 * 1024 * 1024;
    expect(await fetchRun(code, { memoryLimitBytes: limit, timeoutMs: 60_000 })).toMatchObject({ success: true, result: [[four, four], `TypeError: ${fetchTotalMessage(limit)}`] });
  });

  it('response bodies not read yet count against the memory limit with what the code holds', { timeout: LONG_TEST_MS }, async () => {
    server.on('GET', '/four-unread', { text: 'x'.repeat(4 * 1024 * 1024) });
    const code = `const kept = [];
      for (let i = 0; i < 3; i++) kept.push(await fetch(params.url + '/four-unread'));
      globalThis.mine = new Uint8Array(params.mine);
      return [kept.length, mine.length]`;
    const limit = 16 * 1024 * 1024;
    // 12 MB unread is within the fetched total (16 MB); with 6 MB more held by the code the call passes its limit.
    expect(await fetchRun(code, { params: { url: server.url, mine: 6 * 1024 * 1024 }, memoryLimitBytes: limit, timeoutMs: 60_000 })).toMatchObject({
      success: false,
      error: 'Function execution exceeded the memory limit of 16 MB',
      limit: 'memory',
    });
    expect(await fetchRun(code, { params: { url: server.url, mine: 1024 }, memoryLimitBytes: limit, timeoutMs: 60_000 })).toMatchObject({ success: true, result: [3, 1024] });
  });

  it('a request body over 5 MB is refused before it is sent', { timeout: LONG_TEST_MS }, async () => {
    server.on('POST', '/upload-big', { json: 'sent' });
    const message = `Request body exceeds ${MAX_FETCH_REQUEST_BYTES} bytes`;
    const code = `const out = [];
      for (const body of [new Uint8Array(${MAX_FETCH_REQUEST_BYTES + 1}), 'x'.repeat(${MAX_FETCH_REQUEST_BYTES + 1}), 'é'.repeat(${MAX_FETCH_REQUEST_BYTES / 2 + 1})])
        out.push(await fetch(params.url + '/upload-big', { method: 'POST', body }).then((r) => r.json(), (e) => e.name + ': ' + e.message));
      out.push(await fetch(params.url + '/upload-big', { method: 'POST', body: new Uint8Array(${MAX_FETCH_REQUEST_BYTES}) }).then((r) => r.json(), (e) => e.message));
      return out`;
    expect(await fetchRun(code, { timeoutMs: 60_000 })).toMatchObject({ success: true, result: [`TypeError: ${message}`, `TypeError: ${message}`, `TypeError: ${message}`, 'sent'] });
    expect(server.received('POST', '/upload-big')).toHaveLength(1);
  });

  it('request bodies a call has not had answered total at most its memory limit', { timeout: LONG_TEST_MS }, async () => {
    server.on('POST', '/slow-upload', { hang: true });
    const limit = 16 * 1024 * 1024;
    // Four bodies of 4 MB wait for their answers (16 MB): the six after them are refused before they are copied.
    const code = `const body = new Uint8Array(4 * 1024 * 1024);
      const refused = [];
      for (let i = 0; i < 10; i++) fetch(params.url + '/slow-upload', { method: 'POST', body }).catch((e) => refused.push(e.message));
      await new Promise((r) => setTimeout(r, 0));
      return refused`;
    const total = `Request bodies of this call not yet answered exceed ${limit} bytes in total (the call's memory limit)`;
    expect(await fetchRun(code, { memoryLimitBytes: limit, timeoutMs: 60_000 })).toMatchObject({ success: true, result: Array.from({ length: 6 }, () => total) });
  });

  it('code that replaces Promise.resolve or Promise.reject never gets a host value through them', async () => {
    server.on('GET', '/seen', { text: 'abc' });
    const code = `const seen = [];
      const { resolve, reject } = Promise;
      Promise.resolve = function (v) { seen.push(v); return resolve.call(Promise, v) };
      Promise.reject = function (e) { seen.push(e); return reject.call(Promise, e) };
      const r = await fetch(params.url + '/seen');
      const b = await r.arrayBuffer();
      const again = await r.text().catch((e) => e.message);
      const text = await (await fetch(params.url + '/seen')).text();
      return [seen.length, b.byteLength, again, text]`;
    expect(await fetchRun(code)).toMatchObject({ success: true, result: [0, 3, 'Body has already been consumed', 'abc'] });
  });

  it(`at most ${MAX_FETCHES_IN_FLIGHT} requests of a call are in flight; the others wait their turn`, async () => {
    let arrived = 0;
    let open = 0;
    let most = 0;
    let release = () => undefined as void;
    const gate = new Promise<void>((r) => (release = r));
    server.on('GET', '/gate', async () => {
      arrived++;
      most = Math.max(most, ++open);
      await gate;
      open--;
      return { json: 1 };
    });
    const call = fetchRun(`return (await Promise.all(Array.from({ length: 8 }, () => fetch(params.url + '/gate').then((r) => r.json())))).length`, { timeoutMs: 60_000 });
    await expect.poll(() => arrived).toBe(MAX_FETCHES_IN_FLIGHT);
    release();
    expect(await call).toMatchObject({ success: true, result: 8 });
    expect(most).toBe(MAX_FETCHES_IN_FLIGHT);
  });

  it('a request that outlives the call answers the time limit, even when the code catches its error', async () => {
    server.on('GET', '/stall', { hang: true });
    expect(await fetchRun(`try { await fetch(params.url + '/stall') } catch (e) { return 'caught: ' + e.message }`, { timeoutMs: 300 })).toMatchObject({
      success: false,
      error: 'Function execution timed out after 300 ms',
      limit: 'time',
    });
  });

  /** Bytes like a PNG's: its signature and header, then every byte value (NULs, bytes ≥ 0x80, sequences invalid as UTF-8). */
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, ...Array.from({ length: 512 }, (_, i) => (i * 7) % 256), 0xff, 0xfe, 0x00, 0xc3]);

  it('binary bodies cross byte for byte: arrayBuffer() of a response, an ArrayBuffer or a typed array as a request body', async () => {
    server.on('GET', '/image.png', { bytes: png, headers: { 'content-type': 'image/png' } });
    server.on('POST', '/upload', (req) => ({ bytes: req.bytes }));
    const code = `const ab = await (await fetch(params.url + '/image.png')).arrayBuffer();
      const back = await (await fetch(params.url + '/upload', { method: 'POST', body: ab })).arrayBuffer();
      const view = new Uint8Array(ab).subarray(8, 40);
      const viewBack = await (await fetch(params.url + '/upload', { method: 'POST', body: view })).bytes();
      const dataView = await (await fetch(params.url + '/upload', { method: 'POST', body: new DataView(ab, 1, 3) })).bytes();
      return [ab instanceof ArrayBuffer, Array.from(new Uint8Array(ab)), Array.from(new Uint8Array(back)), viewBack instanceof Uint8Array, Array.from(viewBack), Array.from(dataView)]`;
    expect(await fetchRun(code)).toEqual({ success: true, result: [true, [...png], [...png], true, [...png.subarray(8, 40)], [...png.subarray(1, 4)]], stdout: '' });
    expect(server.received('POST', '/upload').map((r) => [...r.bytes])).toEqual([[...png], [...png.subarray(8, 40)], [...png.subarray(1, 4)]]);
  });

  it('text() decodes UTF-8 as a browser does, and a body is read once', async () => {
    // A BOM (dropped), a lone 0xFF, a bad continuation, a truncated sequence before a NUL, then an emoji.
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62, 0xc3, 0x28, 0xe2, 0x82, 0x00, 0x63, 0xf0, 0x9f, 0x98, 0x80]);
    server.on('GET', '/mixed', { bytes });
    const code = `const r = await fetch(params.url + '/mixed');
      const before = r.bodyUsed;
      const text = await r.text();
      const again = [];
      for (const read of ['text', 'json', 'arrayBuffer', 'bytes']) again.push(await r[read]().then(() => 'read', (e) => e.name + ': ' + e.message));
      const other = await fetch(params.url + '/mixed');
      await other.arrayBuffer();
      again.push(await other.text().then(() => 'read', (e) => e.name + ': ' + e.message));
      return [before, r.bodyUsed, text, again]`;
    const consumed = 'TypeError: Body has already been consumed';
    expect(await fetchRun(code)).toEqual({ success: true, result: [false, true, 'a\ufffdb\ufffd(\ufffd\u0000c😀', [consumed, consumed, consumed, consumed, consumed]], stdout: '' });
  });

  it('binary bodies count their real bytes against the response bound and the call total', async () => {
    // 0xFF bytes decode to U+FFFD (three bytes of UTF-8 each): the bounds count the bytes as they came.
    const four = new Uint8Array(4 * 1024 * 1024).fill(0xff);
    server.on('GET', '/four.bin', { bytes: four });
    server.on('GET', '/over.bin', { bytes: new Uint8Array(MAX_FETCH_RESPONSE_BYTES + 1) });
    expect(await fetchRun(`try { await fetch(params.url + '/over.bin') } catch (e) { return e.message }`)).toMatchObject({ result: `Response body exceeds ${MAX_FETCH_RESPONSE_BYTES} bytes` });
    const code = `const sizes = [];
      try { for (let i = 0; i < 4; i++) sizes.push((await (await fetch(params.url + '/four.bin')).arrayBuffer()).byteLength) } catch (e) { return [sizes, e.name + ': ' + e.message] }`;
    const limit = 10 * 1024 * 1024;
    expect(await fetchRun(code, { memoryLimitBytes: limit, timeoutMs: 60_000 })).toMatchObject({ success: true, result: [[four.length, four.length], `TypeError: ${fetchTotalMessage(limit)}`] });
  });

  it('a call whose thread dies before its started message arrives is not run again: it may have made requests', async () => {
    const policy = { allowPrivateNetwork: false, allowlist: ['127.0.0.1'] };
    // The hook withholds the thread's started message: the host learns the call started only from the shared flag.
    await withPool({ size: 1, callsPerWorker: 2, policy, testHooks: { withholdStarted: true } }, async (one, call) => {
      let hits = 0;
      server.on('GET', '/side-effect', () => ({ json: ++hits }));
      const slot = insides(one).slots[0];
      // Run again, the code would see the second hit and answer at once.
      const code = `const hit = await (await fetch(params.url + '/side-effect')).json();
        if (hit > 1) return 'ran again';
        await new Promise((r) => setTimeout(r, 60000));
        return 'late'`;
      const fetched = call(code, { params: { url: server.url }, timeoutMs: 120_000 });
      await expect.poll(() => server.received('GET', '/side-effect').length).toBe(1);
      expect(slot?.lanes[0]?.startedAt).toBeNull();
      await slot?.worker.terminate();
      expect(await fetched).toEqual({ success: false, error: STOPPED, stdout: '' });
      // The replacement thread runs the next call; the first one never ran again.
      expect(await call('return 2')).toMatchObject({ success: true, result: 2 });
      expect(server.received('GET', '/side-effect')).toHaveLength(1);
    });
  });

  it('calls awaiting requests share a thread: both are in flight at once', async () => {
    let arrived = 0;
    let release = () => undefined as void;
    const both = new Promise<void>((r) => (release = r));
    server.on('GET', '/barrier', async () => {
      if (++arrived === 2) release();
      await both;
      return { json: 'through' };
    });
    const code = `return (await fetch(params.url + '/barrier')).json()`;
    expect(await Promise.all([fetchRun(code), fetchRun(code)])).toMatchObject([{ result: 'through' }, { result: 'through' }]);
  });
});

describe('function sandbox memory between calls', () => {
  // The review's case: a call that made the thread's memory grow by its limit, then filled the freed
  // memory (Map records, which QuickJS's walk does not see), reads a 4 MB body. The copy into its runtime
  // used to write from address 0 when malloc failed, over the memory every call of the thread uses.
  it('a call that reads a body when its memory cannot grow does not touch the other calls of its thread', { timeout: LONG_TEST_MS }, async () => {
    await withHoldServer(async (server, release) => {
      server.on('GET', '/four.bin', { bytes: new Uint8Array(4 * 1024 * 1024).fill(0x41) });
      await withPool({ size: 1, callsPerWorker: 2, policy: localFetch }, async (one, call) => {
        const victim = call(
          `const n = await (await fetch(params.url + '/hold')).json();
          await new Promise((r) => setTimeout(r, 1));
          const m = new Map(); for (let i = 0; i < 1000; i++) m.set('k' + i, { i });
          return [n * 2, m.size, JSON.stringify(m.get('k999'))]`,
          { params: { url: server.url }, timeoutMs: 60_000 },
        );
        await expect.poll(() => server.received('GET', '/hold').length).toBe(1);
        const attacker = await call(
          `let big = new ArrayBuffer(60 * 1024 * 1024); big = null;
          const m = new Map(); for (let i = 0; i < 1500000; i++) m.set(i, i);
          const b = await (await fetch(params.url + '/four.bin')).arrayBuffer();
          return [m.size, b.byteLength]`,
          { params: { url: server.url }, timeoutMs: 60_000 },
        );
        release();
        expect(await victim).toEqual({ success: true, result: [42, 1000, '{"i":999}'], stdout: '' });
        // Its own answer is its limit or its result, never the thread's failure.
        expect(attacker.success ? attacker : attacker.limit, JSON.stringify(attacker)).toEqual(attacker.success ? { success: true, result: [1500000, 4 * 1024 * 1024], stdout: '' } : 'memory');
        expect(await call('return 5')).toMatchObject({ success: true, result: 5 });
      });
    });
  });

  // A limit above the thread's bound (2 lanes × 64 MB + 64 MB): the copy's check passes, the thread has
  // no memory left for it, and malloc answers 0. The copy throws before writing; the thread is retired.
  it('a body the thread has no memory left for is refused before anything is written, and the thread is replaced', { timeout: LONG_TEST_MS }, async () => {
    await withHoldServer(async (server, release) => {
      server.on('GET', '/four.bin', { bytes: new Uint8Array(4 * 1024 * 1024).fill(0x41) });
      await withPool({ size: 1, callsPerWorker: 2, policy: localFetch }, async (one, call) => {
        const first = insides(one).slots[0]?.worker;
        const victim = call(`const n = await (await fetch(params.url + '/hold')).json(); await new Promise((r) => setTimeout(r, 1)); return n * 2`, { params: { url: server.url }, timeoutMs: 60_000 });
        await expect.poll(() => server.received('GET', '/hold').length).toBe(1);
        const attacker = await call(
          `const r = await fetch(params.url + '/four.bin');
          const keep = [];
          // Filled up to the thread's bound, then a little freed for the code to go on with (not 4 MB).
          for (const size of [1 << 20, 1 << 16, 1 << 12]) { try { for (;;) keep.push(new ArrayBuffer(size)); } catch {} }
          keep.length -= 8;
          let out; try { await r.arrayBuffer(); out = 'read'; } catch (e) { out = e.name + ': ' + e.message; }
          keep.length = 0; return out;`,
          { params: { url: server.url }, memoryLimitBytes: 1024 * 1024 * 1024, timeoutMs: 60_000 },
        );
        expect(attacker).toMatchObject({ success: true, result: 'RangeError: out of memory' });
        release();
        expect(await victim).toEqual({ success: true, result: 42, stdout: '' });
        await expect.poll(() => insides(one).slots[0]?.worker).not.toBe(first);
        expect(await call('return 5')).toMatchObject({ success: true, result: 5 });
      });
    });
  });
});

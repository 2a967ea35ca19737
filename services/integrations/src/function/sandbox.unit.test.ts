import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_CANCELLED, SandboxPool } from './sandbox.js';

const pool = new SandboxPool({ size: 2 });
afterAll(() => pool.close());

/** Tests whose code runs under a 60 s time limit wait longer than it, so a loaded machine cannot make them fail first. */
const LONG_TEST_MS = 180_000;

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

  it('has no access to the host', async () => {
    expect(await run('return typeof process + typeof require + typeof fetch + typeof setTimeout + typeof globalThis.Buffer')).toMatchObject({ result: 'undefinedundefinedundefinedundefinedundefined' });
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

  it('has no timers that could outlive the call, and a promise that never settles is answered', async () => {
    expect(await run('return [typeof setTimeout, typeof setInterval, typeof queueMicrotask]')).toMatchObject({ result: ['undefined', 'undefined', 'undefined'] });
    expect(await run('await new Promise(() => {}); return 1')).toMatchObject({ success: false, error: 'Function did not finish: it awaits something that never resolves' });
  });

  it('an endless loop of promise jobs hits the time limit', async () => {
    expect(await run('const f = () => Promise.resolve().then(f); await f()', { timeoutMs: 300 })).toMatchObject({ success: false, limit: 'time' });
  });

  it('stack overflow is a limit, not a crash, however the recursion is made', { timeout: LONG_TEST_MS }, async () => {
    for (const code of [
      'function f() { return f() } return f()',
      'let a = []; for (let i = 0; i < 200000; i++) a = [a]; return JSON.stringify(a)',
      'let b = []; for (let i = 0; i < 200000; i++) b = [b]; return String(b)',
      'return JSON.parse("[".repeat(200000))',
      'let p = {}; for (let i = 0; i < 200000; i++) p = new Proxy(p, {}); return p.x',
    ]) {
      const res = await run(code, { timeoutMs: 60_000 });
      expect(res, code).toMatchObject({ success: false });
      if (!res.success) expect(res.error, code).toMatch(/stack|too much recursion/);
    }
    expect(await run('return 1')).toMatchObject({ result: 1 });
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
    const one = new SandboxPool({ size: 1 });
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
      // The thread spinning for 120 s was replaced: the next call runs now.
      expect(await one.run({ code: 'return 3', params: {}, envVars: {} })).toMatchObject({ success: true, result: 3 });
      const already = new AbortController();
      already.abort();
      expect(await one.run({ code: 'return 4', params: {}, envVars: {}, signal: already.signal })).toMatchObject({ success: false, error: SANDBOX_CANCELLED });
    } finally {
      await one.close();
    }
  });
});

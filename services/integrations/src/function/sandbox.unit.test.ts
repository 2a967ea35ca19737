import { describe, expect, it } from 'vitest';
import { runInSandbox } from './sandbox.js';

const run = (code: string, extra: Partial<Parameters<typeof runInSandbox>[0]> = {}) => runInSandbox({ code, params: {}, envVars: {}, ...extra });

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

  it('reports thrown errors and syntax errors as values', async () => {
    expect(await run('throw new TypeError("bad")')).toMatchObject({ success: false, error: 'TypeError: bad' });
    expect(await run('return (')).toMatchObject({ success: false, error: expect.stringContaining('SyntaxError') });
  });

  it('stops an endless loop at the time limit', async () => {
    expect(await run('while (true) {}', { timeoutMs: 200 })).toMatchObject({ success: false, error: 'Function execution timed out after 200 ms' });
  });

  it('stops code that allocates past the memory limit', async () => {
    const res = await run('const keep = []; while (true) keep.push(new Array(1 << 16).fill(keep.length));', { memoryLimitBytes: 8 * 1024 * 1024, timeoutMs: 5000 });
    expect(res).toMatchObject({ success: false, error: 'Function execution exceeded the memory limit of 8 MB' });
  });

  it('has no access to the host', async () => {
    expect(await run('return typeof process + typeof require + typeof fetch')).toMatchObject({ result: 'undefinedundefinedundefined' });
  });
});

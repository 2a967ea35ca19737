import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, type EngineHarness } from '../testing/engineHarness.js';
import { patchesOf } from '../testing/patches.js';

const S = { type: 'starter', name: 'Start' };

describe("a function block's timeout (real Temporal server, fake activities)", () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it("a function's timeout over 300000 ms, not whole or not positive fails the block naming timeout, before any sandbox call (patch function-timeout-checked); 1..300000 runs", async () => {
    const fn = (timeout: string) => graphOf({ s: S, f: { name: 'Fn', code: 'return 1', values: { timeout } } }, [['s', 'f']]);
    const handle = await h.start(fn('400000'));
    const result = await handle.result();
    // function-timeout.json was recorded by the code before the patch (the code ran with a 400 s limit); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'function-timeout');
    expect(result).toMatchObject({ success: false, error: 'Fn: timeout must be at most 300000 ms' });
    expect(h.rec.functionCalls).toEqual([]);
    expect(patchesOf(await handle.fetchHistory())).toContain('function-timeout-checked');

    expect(await h.run(fn('2.5'))).toMatchObject({ success: false, error: 'Fn: timeout must be a whole number of milliseconds' });
    expect(await h.run(fn('0'))).toMatchObject({ success: false, error: 'Fn: timeout must be positive' });
    expect(await h.run(fn('soon'))).toMatchObject({ success: false, error: 'Fn: timeout must be a number of milliseconds' });
    expect(h.rec.functionCalls).toEqual([]);
    const reference = graphOf({ s: S, f: { name: 'Fn', code: 'return 1', values: { timeout: '<start.input.ms>' } } }, [['s', 'f']]);
    expect(await h.run(reference, { input: { ms: 300_000 } })).toMatchObject({ success: true, output: { result: 1, stdout: '' } });
    expect(await h.run(fn(''))).toMatchObject({ success: true });
    expect(h.rec.functionCalls.map((c) => c.timeoutMs)).toEqual([300_000, 10_000]);
  });
});

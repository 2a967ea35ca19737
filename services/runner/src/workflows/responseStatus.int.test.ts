import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, ran, type EngineHarness } from '../testing/engineHarness.js';
import { patchesOf } from '../testing/patches.js';

const S = { type: 'starter', name: 'Start' };

describe("a Response block's status (real Temporal server, fake activities)", () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it('a Response with an interim status (1xx) fails the block naming Status Code, so its error path runs and no caller waits for an answer that never comes (patch response-status-interim)', async () => {
    const state = graphOf(
      {
        s: S,
        r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{"ok": true}', status: '150' } },
        h: { name: 'Handler', code: 'return <response.error>' },
      },
      [['s', 'r'], ['r', 'h', 'error']],
    );
    const handle = await h.start(state);
    const result = await handle.result();
    // response-interim-status.json was recorded by the code before the patch (the Response answered 150, the handler never ran); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'response-interim-status');
    expect(result.logs.find((l) => l.blockId === 'r')).toMatchObject({ success: false, error: 'Status Code must be a whole number from 200 to 599 (got 150)' });
    expect(result.response).toBeUndefined();
    expect(ran(result)).toEqual(['s', 'r', 'h']);
    expect(result.output).toEqual({ result: 'Status Code must be a whole number from 200 to 599 (got 150)', stdout: '' });
    expect(patchesOf(await handle.fetchHistory())).toContain('response-status-interim');

    // Without an error path the run fails with it; a status HTTP has no use for otherwise (600, text) still answers 200, as before.
    const alone = (status: string) => graphOf({ s: S, r: { type: 'response', name: 'Response', values: { dataMode: 'json', data: '{}', status } } }, [['s', 'r']]);
    expect(await h.run(alone('199'))).toMatchObject({ success: false, error: 'Response: Status Code must be a whole number from 200 to 599 (got 199)' });
    expect((await h.run(alone('600'))).response).toEqual({ status: 200, headers: {}, data: {} });
    expect((await h.run(alone(''))).response).toEqual({ status: 200, headers: {}, data: {} });
    expect((await h.run(alone('204'))).response).toEqual({ status: 204, headers: {}, data: {} });
  });
});

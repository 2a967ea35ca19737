import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineHarness, graphOf, type EngineHarness } from '../testing/engineHarness.js';
import { patchesOf } from '../testing/patches.js';

const S = { type: 'starter', name: 'Start' };
const timing = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 };

describe('rerun from a block: what the earlier run had upstream (real Temporal server, fake activities)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await createEngineHarness();
  });
  afterAll(async () => h?.close());
  beforeEach(() => h.reset());

  it("a reused loop keeps its last iteration's body outputs readable after it, and a reused block that failed takes its error path again with its {error} output (patches rerun-body-outputs, rerun-error-outputs)", async () => {
    h.setTools(() => ({ success: false, output: null, error: 'HTTP error 500: Internal Server Error', timing }));
    const state = graphOf(
      {
        s: S,
        l: { type: 'loop', name: 'Loop', data: { loopType: 'for', count: 2 } },
        work: { name: 'Work', parent: 'l', code: 'return <loop.index> * 10' },
        api: { type: 'api', name: 'API', values: { url: 'https://down.example', method: 'GET' } },
        handler: { name: 'Handler', code: 'return <api.error>' },
        after: { name: 'After', code: 'return [<work.result>, <handler.result>]' },
      },
      [['s', 'l'], ['l', 'work', 'loop-start-source'], ['l', 'api', 'loop-end-source'], ['api', 'handler', 'error'], ['handler', 'after']],
    );
    // What the API hands a rerun from Handler (executions.ts): the loop's last iteration's body outputs, the failed API block's {error}.
    const rerun = {
      fromBlockId: 'handler',
      outputs: { s: { input: {} }, l: { results: [{ result: 0, stdout: '' }, { result: 10, stdout: '' }] } },
      failedOutputs: { api: { error: 'HTTP error 503: Service Unavailable' } },
      bodyOutputs: { work: { result: 10, stdout: '' } },
    };
    const handle = await h.start(state, { rerun });
    const result = await handle.result();
    // rerun-reuse.json was recorded by the code before the patches (the API block ran again; After failed); replay.int.test.ts replays both.
    await h.keepHistory(handle, 'rerun-reuse');
    expect(result.error).toBeUndefined();
    expect(result.output).toEqual({ result: [10, 'HTTP error 503: Service Unavailable'], stdout: '' });
    expect(h.rec.toolCalls).toHaveLength(0);
    expect(h.rec.functionCalls.map((c) => c.code)).toEqual(['return params["<api.error>"]', 'return [params["<work.result>"], params["<handler.result>"]]']);
    expect(result.logs.filter((l) => l.reused).map((l) => [l.blockId, l.success])).toEqual([
      ['s', true],
      ['l', true],
      ['api', false],
    ]);
    expect(result.logs.find((l) => l.blockId === 'api')).toMatchObject({ success: false, reused: true, error: 'HTTP error 503: Service Unavailable', output: { error: 'HTTP error 503: Service Unavailable' } });
    expect(h.rec.events.find((e) => e.type === 'blockError' && e.log.blockId === 'api')).toMatchObject({ log: { reused: true } });
    const patches = patchesOf(await handle.fetchHistory());
    expect(patches).toContain('rerun-body-outputs');
    expect(patches).toContain('rerun-error-outputs');
  });

  it('a failed block that had no error path is not reused: it runs again', async () => {
    h.setTools(() => ({ success: true, output: { data: 'up again', status: 200, headers: {} }, timing }));
    const state = graphOf(
      { s: S, api: { type: 'api', name: 'API', values: { url: 'https://flaky.example', method: 'GET' } }, after: { name: 'After', code: 'return <api.data>' } },
      [['s', 'api'], ['api', 'after']],
    );
    const result = await h.run(state, { rerun: { fromBlockId: 'after', outputs: { s: { input: {} } }, failedOutputs: { api: { error: 'fetch failed' } } } });
    expect(result.output).toEqual({ result: 'up again', stdout: '' });
    expect(h.rec.toolCalls).toHaveLength(1);
  });
});

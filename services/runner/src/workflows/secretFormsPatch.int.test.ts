import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngineHarness, graphOf, workflowBundle, type EngineHarness } from '../testing/engineHarness.js';
import { memoryActivities, patchStubs, replayOutcome } from '../testing/patchStub.js';

/**
 * Patch secret-forms guards the run log's masks in every encoded form: they decide a failed block's
 * {error} output and whether shrink keeps it aside (a storeBlob activity at 256 KB). A run is made here
 * by the code before the patch (the workflow bundle with secretFormsPatched answering false: exact masks,
 * as before), then replayed with today's code (it replays) and with the masks unguarded (it does not:
 * the encoded key masked, the error fits the history and the storeBlob the old run scheduled is missing).
 */
const stubs = patchStubs(fileURLToPath(new URL('./engine/secretFormsPatch.ts', import.meta.url)), 'secret-forms', 'SECRET_FORMS_PATCH', 'secretFormsPatched');

let h: EngineHarness;
let native: NativeConnection;
beforeAll(async () => {
  // The run workflow is served below by a worker of the code before the patch; the harness serves the tools.
  h = await createEngineHarness({ workflowWorker: false });
  native = await NativeConnection.connect({ address: h.temporalAddress });
});
afterAll(async () => {
  await h?.close();
  await native?.close();
  stubs.close();
});

it('a run of the code before patch secret-forms (a 300 KB error kept aside, the key in it percent-encoded) replays with today\'s code, and would not with the masks unguarded', async () => {
  const key = 'Key/With+Slash-9';
  const encoded = encodeURIComponent(key);
  // Over 256 KB with the key as sent (encoded), under it with each occurrence masked as {{API_KEY}}.
  const error = `GET failed: ${Array.from({ length: 15_000 }, () => `key=${encoded}`).join('&')}`;
  expect(error.length).toBeGreaterThan(256 * 1024);
  expect(error.split(encoded).join('{{API_KEY}}').length).toBeLessThan(256 * 1024);
  h.setEnvironment({ API_KEY: key });
  h.setTools(() => ({ success: false, output: null, error, timing: { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 } }));
  const { activities, blobs } = memoryActivities({ API_KEY: key });
  const old = await Worker.create({ connection: native, taskQueue: h.queue, workflowBundle: await stubs.bundleWith(false), activities });
  const state = graphOf({ s: { type: 'starter', name: 'Start' }, api: { type: 'api', name: 'API', values: { url: 'https://keys.example/x?key={{API_KEY}}', method: 'GET' } } }, [['s', 'api']]);
  const history = await old.runUntil(async () => {
    const handle = await h.start(state);
    const result = await handle.result();
    // Before the patch the encoded key was not masked: the error stayed over 256 KB and was kept aside.
    expect(Object.keys(result.logs.find((l) => l.blockId === 'api')?.output ?? {})).toEqual(['$blobRef', 'bytes']);
    return handle.fetchHistory();
  });
  expect([...blobs.values()]).toEqual([{ error }]);
  expect(await replayOutcome(await workflowBundle(), history, 'secret-forms')).toBeUndefined();
  expect((await replayOutcome(await stubs.bundleWith(true), history, 'secret-forms'))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);
}, 240_000);

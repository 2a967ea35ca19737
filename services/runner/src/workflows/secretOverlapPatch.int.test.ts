import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngineHarness, graphOf, workflowBundle, type EngineHarness } from '../testing/engineHarness.js';
import { memoryActivities, patchStubs, replayOutcome } from '../testing/patchStub.js';
import { BLOB_THRESHOLD_BYTES } from './engine/run.js';

/**
 * Patch secret-overlap guards the run log's masks over environment values that overlap (masked whole,
 * `{{A}}{{B}}`, where before the longer was replaced and the other's head stayed): the masks decide a
 * failed block's {error} output and whether shrink keeps it aside (a storeBlob activity over 256 KB).
 * A run is made here by the code before the patch (the workflow bundle with secretOverlapPatched
 * answering false), then replayed with today's code (it replays) and with the masks unguarded (it
 * does not: masked whole, the error passes 256 KB and a storeBlob the old run never scheduled comes).
 */
const stubs = patchStubs(fileURLToPath(new URL('./engine/secretOverlapPatch.ts', import.meta.url)), 'secret-overlap', 'SECRET_OVERLAP_PATCH', 'secretOverlapPatched');

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

it("a run of the code before patch secret-overlap (two overlapping keys in a 240 KB error) replays with today's code, and would not with the masks unguarded", async () => {
  const env = { KEY_A: 'abcdef12345', KEY_B: '12345XYZ-secret' };
  const error = `GET failed: ${'k=abcdef12345XYZ-secret&'.repeat(13_500)}`;
  // Before the patch each overlap shows as abcdef{{KEY_B}} (under 256 KB); masked whole as {{KEY_A}}{{KEY_B}} (over it).
  expect(error.split('12345XYZ-secret').join('{{KEY_B}}').length).toBeLessThan(BLOB_THRESHOLD_BYTES);
  expect(error.split('abcdef12345XYZ-secret').join('{{KEY_A}}{{KEY_B}}').length).toBeGreaterThan(BLOB_THRESHOLD_BYTES);
  h.setEnvironment(env);
  h.setTools(() => ({ success: false, output: null, error, timing: { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-01T00:00:00.000Z', duration: 0 } }));
  const { activities, blobs } = memoryActivities(env);
  const old = await Worker.create({ connection: native, taskQueue: h.queue, workflowBundle: await stubs.bundleWith(false), activities });
  const state = graphOf({ s: { type: 'starter', name: 'Start' }, api: { type: 'api', name: 'API', values: { url: 'https://keys.example/x?a={{KEY_A}}&b={{KEY_B}}', method: 'GET' } } }, [['s', 'api']]);
  const history = await old.runUntil(async () => {
    const handle = await h.start(state);
    const result = await handle.result();
    // Before the patch the head of KEY_A stayed beside {{KEY_B}}, and the error stayed in the history.
    const output = result.logs.find((l) => l.blockId === 'api')?.output as { error?: string } | undefined;
    expect(output?.error).toContain('k=abcdef{{KEY_B}}&');
    return handle.fetchHistory();
  });
  expect(blobs.size).toBe(0);
  expect(await replayOutcome(await workflowBundle(), history, 'secret-overlap')).toBeUndefined();
  expect((await replayOutcome(await stubs.bundleWith(true), history, 'secret-overlap'))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);
  // A run of today's code masks each overlap whole: the error, now over 256 KB, is kept aside.
  const today = await Worker.create({ connection: native, taskQueue: h.queue, workflowBundle: await workflowBundle(), activities });
  await today.runUntil(async () => {
    const result = await (await h.start(state)).result();
    expect(Object.keys(result.logs.find((l) => l.blockId === 'api')?.output ?? {})).toEqual(['$blobRef', 'bytes']);
  });
  const kept = [...blobs.values()] as Array<{ error: string }>;
  expect(kept).toHaveLength(1);
  expect(kept[0]?.error).toContain('k={{KEY_A}}{{KEY_B}}&');
  expect(kept[0]?.error).not.toContain('abcdef');
}, 240_000);

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { SHARED_WORKFLOW_MODULES } from '@weft/platform/workflowBundle';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngineHarness, graphOf, workflowBundle, workflowsPath, type EngineHarness } from '../testing/engineHarness.js';
import type { BlobRef, RunnerActivities } from './types.js';

/**
 * Patch secret-forms guards the run log's masks in every encoded form: they decide a failed block's
 * {error} output and whether shrink keeps it aside (a storeBlob activity at 256 KB). A run is made here
 * by the code before the patch (the workflow bundle with secretFormsPatched answering false: exact masks,
 * as before), then replayed with today's code (it replays) and with the masks unguarded (it does not:
 * the encoded key masked, the error fits the history and the storeBlob the old run scheduled is missing).
 */
const patchModule = fileURLToPath(new URL('./engine/secretFormsPatch.ts', import.meta.url));
const stubs = mkdtempSync(join(tmpdir(), 'secret-forms-'));

/** The run workflow bundled with secretFormsPatched() answering `answer` without asking Temporal. */
function bundleWith(answer: boolean): Promise<WorkflowBundleWithSourceMap> {
  const stub = join(stubs, `patch-${String(answer)}.js`);
  writeFileSync(stub, `export const SECRET_FORMS_PATCH = 'secret-forms';\nexport function secretFormsPatched() { return ${String(answer)}; }\n`);
  return bundleWorkflowCode({
    workflowsPath,
    preloadModules: SHARED_WORKFLOW_MODULES,
    logger: temporalLogger(createLogger('bundle', 'silent')),
    webpackConfigHook: (config) => ({ ...config, resolve: { ...config.resolve, alias: { ...(config.resolve?.alias as Record<string, string> | undefined), [patchModule]: stub, [patchModule.replace(/\.ts$/, '.js')]: stub } } }),
  });
}

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
  rmSync(stubs, { recursive: true, force: true });
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
  const blobs = new Map<string, unknown>();
  const activities: RunnerActivities = {
    recordRunEvent: () => Promise.resolve(),
    storeBlob(executionId, value) {
      const ref: BlobRef = { $blobRef: `${executionId}/${blobs.size}`, bytes: JSON.stringify(value).length };
      blobs.set(ref.$blobRef, value);
      return Promise.resolve(ref);
    },
    loadBlob: (ref) => Promise.resolve(blobs.get(ref.$blobRef)),
    loadEnvironment: () => Promise.resolve({ API_KEY: key }),
    startRun: (_event, wanted) => Promise.resolve<Record<string, string>>(wanted ? { API_KEY: key } : {}),
    loadChildWorkflow: () => Promise.reject(new Error('no child workflows here')),
  };
  const old = await Worker.create({ connection: native, taskQueue: h.queue, workflowBundle: await bundleWith(false), activities });
  const state = graphOf({ s: { type: 'starter', name: 'Start' }, api: { type: 'api', name: 'API', values: { url: 'https://keys.example/x?key={{API_KEY}}', method: 'GET' } } }, [['s', 'api']]);
  const history = await old.runUntil(async () => {
    const handle = await h.start(state);
    const result = await handle.result();
    // Before the patch the encoded key was not masked: the error stayed over 256 KB and was kept aside.
    expect(Object.keys(result.logs.find((l) => l.blockId === 'api')?.output ?? {})).toEqual(['$blobRef', 'bytes']);
    return handle.fetchHistory();
  });
  expect([...blobs.values()]).toEqual([{ error }]);
  const workflowId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowId ?? 'run';
  const replay = async (bundle: WorkflowBundleWithSourceMap) =>
    Worker.runReplayHistory({ workflowBundle: bundle, replayName: 'secret-forms' }, history, workflowId).then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
    );
  expect(await replay(await workflowBundle())).toBeUndefined();
  expect((await replay(await bundleWith(true)))?.message).toMatch(/Nondeterminism|DeterminismViolation|nondetermin/i);
}, 240_000);

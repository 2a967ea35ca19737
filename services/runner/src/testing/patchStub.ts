import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { History } from '@temporalio/common/lib/proto-utils.js';
import { Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createLogger, temporalLogger } from '@weft/platform';
import { SHARED_WORKFLOW_MODULES } from '@weft/platform/workflowBundle';
import { workflowsPath } from './engineHarness.js';
import type { BlobRef, RunnerActivities } from '../workflows/types.js';

/**
 * Bundles of the run workflow with one patch module (`engine/<name>.ts`, exporting its patch id and
 * an `xPatched()` function) replaced by a stub answering a fixed value without asking Temporal: the
 * code before a patch (false) or the change unguarded (true). `close()` removes the stubs.
 */
export function patchStubs(patchModule: string, patchId: string, constName: string, functionName: string): { bundleWith(answer: boolean): Promise<WorkflowBundleWithSourceMap>; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), `${patchId}-`));
  return {
    bundleWith(answer) {
      const stub = join(dir, `patch-${String(answer)}.js`);
      writeFileSync(stub, `export const ${constName} = '${patchId}';\nexport function ${functionName}() { return ${String(answer)}; }\n`);
      return bundleWorkflowCode({
        workflowsPath,
        preloadModules: SHARED_WORKFLOW_MODULES,
        logger: temporalLogger(createLogger('bundle', 'silent')),
        webpackConfigHook: (config) => ({ ...config, resolve: { ...config.resolve, alias: { ...(config.resolve?.alias as Record<string, string> | undefined), [patchModule]: stub, [patchModule.replace(/\.ts$/, '.js')]: stub } } }),
      });
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The run workflow's bundle with the patches `ids` answered true without asking Temporal, every other
 * `patched()` as usual: the changes they guard unguarded. A history recorded before them that
 * replays with this bundle did not need them guarded; one that fails shows the guard matters.
 */
export async function unguardedBundle(ids: readonly string[]): Promise<WorkflowBundleWithSourceMap> {
  const sdk = createRequire(import.meta.url).resolve('@temporalio/workflow');
  const dir = mkdtempSync(join(tmpdir(), 'unguarded-'));
  const stub = join(dir, 'workflow.js');
  writeFileSync(
    stub,
    `export * from ${JSON.stringify(sdk)};\nimport { patched as recorded } from ${JSON.stringify(sdk)};\nconst forced = new Set(${JSON.stringify(ids)});\nexport function patched(id) { return forced.has(id) || recorded(id); }\n`,
  );
  try {
    return await bundleWorkflowCode({
      workflowsPath,
      preloadModules: SHARED_WORKFLOW_MODULES,
      logger: temporalLogger(createLogger('bundle', 'silent')),
      // Only the bare name: the stub's own import of the SDK's file is left alone.
      webpackConfigHook: (config) => ({ ...config, resolve: { ...config.resolve, alias: { ...(config.resolve?.alias as Record<string, string> | undefined), '@temporalio/workflow$': stub } } }),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The runner's activities for a run whose environment is `env`, blobs kept in memory (`blobs`). */
export function memoryActivities(env: Record<string, string>): { activities: RunnerActivities; blobs: Map<string, unknown> } {
  const blobs = new Map<string, unknown>();
  const activities: RunnerActivities = {
    recordRunEvent: () => Promise.resolve(),
    storeBlob(executionId, value) {
      const ref: BlobRef = { $blobRef: `${executionId}/${blobs.size}`, bytes: JSON.stringify(value).length };
      blobs.set(ref.$blobRef, value);
      return Promise.resolve(ref);
    },
    loadBlob: (ref) => Promise.resolve(blobs.get(ref.$blobRef)),
    loadEnvironment: () => Promise.resolve(env),
    startRun: (_event, wanted) => Promise.resolve<Record<string, string>>(wanted ? env : {}),
    loadChildWorkflow: () => Promise.reject(new Error('no child workflows here')),
  };
  return { activities, blobs };
}

/** Replays a run's history with a bundle: undefined when it replays, else the error (a nondeterminism). */
export async function replayOutcome(bundle: WorkflowBundleWithSourceMap, history: History, replayName: string): Promise<Error | undefined> {
  const workflowId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowId ?? 'run';
  return Worker.runReplayHistory({ workflowBundle: bundle, replayName }, history, workflowId).then(
    () => undefined,
    (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
  );
}

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@weft/platform';
import { cachedWorkflowBundle, SHARED_WORKFLOW_MODULES } from '@weft/platform/workflowBundle';

/**
 * The module of every workflow this service's worker serves (`pollToolJob`, `modelToolLoop`): the
 * built `jobs/workflows.js` beside this file, or its source when this file runs as source (tests).
 */
export function integrationsWorkflowsUrl(): URL {
  const built = new URL('./jobs/workflows.js', import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL('./jobs/workflows.ts', import.meta.url);
}

/**
 * The integrations worker's workflow bundle, as the worker builds it (cached under a hash of the
 * built code in `cacheDir`, default `WEFT_BUNDLE_CACHE_DIR`); the replay test builds it the same way
 * in a directory of its own.
 */
export function integrationsWorkflowBundle(logger: Logger, cacheDir?: string): Promise<{ codePath: string }> {
  return cachedWorkflowBundle({
    name: 'integrations',
    workflows: integrationsWorkflowsUrl(),
    serviceDist: new URL('.', import.meta.url),
    logger,
    preloadModules: SHARED_WORKFLOW_MODULES,
    ...(cacheDir ? { cacheDir } : {}),
  });
}

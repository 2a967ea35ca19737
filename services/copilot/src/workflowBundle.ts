import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@weft/platform';
import { cachedWorkflowBundle, WORKFLOW_CONTEXT_MODULES } from '@weft/platform/workflowBundle';

/**
 * The module of every workflow the copilot's worker serves (`copilotTurn`): the built
 * `workflows/index.js` beside this file, or its source when this file runs as source (tests).
 */
export function copilotWorkflowsUrl(): URL {
  const built = new URL('./workflows/index.js', import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL('./workflows/index.ts', import.meta.url);
}

/**
 * The copilot worker's workflow bundle, as the worker builds it (cached under a hash of the built
 * code in `cacheDir`, default `WEFT_BUNDLE_CACHE_DIR`); the replay test builds it the same way in a
 * directory of its own.
 */
export function copilotWorkflowBundle(logger: Logger, cacheDir?: string): Promise<{ codePath: string }> {
  return cachedWorkflowBundle({
    name: 'copilot',
    workflows: copilotWorkflowsUrl(),
    serviceDist: new URL('.', import.meta.url),
    logger,
    preloadModules: WORKFLOW_CONTEXT_MODULES,
    ...(cacheDir ? { cacheDir } : {}),
  });
}

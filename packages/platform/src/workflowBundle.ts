import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Logger } from './logger.js';
import { temporalLogger } from './temporal.js';

// A subpath of its own (`@weft/platform/workflowBundle`): services without Temporal workers never load the worker SDK.

/** Every `.js` file below `dir` (tests left out), sorted, for the bundle's cache key. */
function jsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsFiles(path));
    else if (entry.name.endsWith('.js') && !entry.name.endsWith('.test.js')) out.push(path);
  }
  return out.sort();
}

/** What a service's bundle is made of: its own built code, every workspace package's built code and the lockfile. */
function bundleInputs(serviceDist: string): string[] {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const packages = join(root, 'packages');
  const packageDists = existsSync(packages) ? readdirSync(packages).map((p) => join(packages, p, 'dist')) : [];
  return [serviceDist, ...packageDists, join(root, 'package-lock.json')];
}

/**
 * Modules a workflow bundle evaluates once per worker instead of once per workflow: Temporal's
 * reusable V8 context otherwise runs every module of the bundle again for each new workflow
 * (~35 ms of a run's CPU on this machine for the catalogue's blocks, tools and schemas). What is
 * listed must keep no state it changes after loading: the SDK deep-freezes shared modules.
 * `workflowStackLimit` (`WORKFLOW_CONTEXT_MODULES`, which bundles without the catalogue preload alone)
 * turns off the SDK's per-promise stack traces unless `WEFT_WORKFLOW_STACK_TRACES=1` (for debugging a
 * stuck workflow through its stack-trace query).
 */
export const WORKFLOW_CONTEXT_MODULES = process.env.WEFT_WORKFLOW_STACK_TRACES === '1' ? [] : ['@weft/platform/workflowStackLimit'];
export const SHARED_WORKFLOW_MODULES = ['@weft/catalog', ...WORKFLOW_CONTEXT_MODULES];

/**
 * The Temporal workflow bundle of `workflows` (a built file of the service whose code lives in
 * `serviceDist`), kept in `WEFT_BUNDLE_CACHE_DIR` (default `<tmp>/weft-bundles`) under a hash of
 * what goes into it. Bundling takes seconds of CPU, tens of seconds on a loaded machine; a worker
 * that restarts (or a second one) with the same code reuses the file. The bundle is written to a
 * temporary name and renamed, so concurrent starts are safe.
 */
export async function cachedWorkflowBundle(opts: { name: string; workflows: URL; serviceDist: URL; logger: Logger; cacheDir?: string; preloadModules?: string[] }): Promise<{ codePath: string }> {
  const hash = createHash('sha256');
  hash.update(fileURLToPath(opts.workflows));
  hash.update(`\0preload:${(opts.preloadModules ?? []).join(',')}\0`);
  for (const input of bundleInputs(fileURLToPath(opts.serviceDist))) {
    for (const file of input.endsWith('.json') ? (existsSync(input) ? [input] : []) : jsFiles(input)) {
      hash.update(file);
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  const cacheDir = opts.cacheDir ?? (process.env.WEFT_BUNDLE_CACHE_DIR || join(tmpdir(), 'weft-bundles'));
  const codePath = join(cacheDir, `${opts.name}-workflows-${hash.digest('hex').slice(0, 32)}.js`);
  if (existsSync(codePath)) return { codePath };
  const started = Date.now();
  // The bundler's webpack report goes to the service's log at its warning level, not to stdout.
  const { code } = await bundleWorkflowCode({ workflowsPath: fileURLToPath(opts.workflows), logger: temporalLogger(opts.logger), ...(opts.preloadModules ? { preloadModules: opts.preloadModules } : {}) });
  mkdirSync(cacheDir, { recursive: true });
  const temporary = `${codePath}.${randomUUID()}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, codePath);
  opts.logger.info({ codePath, ms: Date.now() - started }, 'workflow bundle built');
  return { codePath };
}

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Logger } from '@weft/platform';

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

/**
 * The workflow bundle of `workflowsPath`, kept in `cacheDir` under a hash of what goes into it
 * (`inputs`: folders of built code and files such as the lockfile). Bundling takes seconds of CPU,
 * tens of seconds on a loaded machine; a runner that restarts (or a second one) with the same code
 * reuses the file. The bundle is written to a temporary name and renamed, so concurrent starts are safe.
 */
export async function cachedWorkflowBundle(opts: { workflowsPath: string; inputs: string[]; cacheDir: string; logger: Logger }): Promise<{ codePath: string }> {
  const hash = createHash('sha256');
  for (const input of opts.inputs) {
    for (const file of input.endsWith('.js') || input.endsWith('.json') ? (existsSync(input) ? [input] : []) : jsFiles(input)) {
      hash.update(file);
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  const codePath = join(opts.cacheDir, `runner-workflows-${hash.digest('hex').slice(0, 32)}.js`);
  if (existsSync(codePath)) return { codePath };
  const started = Date.now();
  const { code } = await bundleWorkflowCode({ workflowsPath: opts.workflowsPath });
  mkdirSync(opts.cacheDir, { recursive: true });
  const temporary = `${codePath}.${randomUUID()}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, codePath);
  opts.logger.info({ codePath, ms: Date.now() - started }, 'workflow bundle built');
  return { codePath };
}
